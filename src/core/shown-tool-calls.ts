import { sha256HexSync } from './sha256-hex';

/*
 * How records, reasons, events and spans show a tool call's name and id.
 * No detector here: the core, the middleware and `guardTools` import no
 * `pii` or `secrets` (round 24 had the chain import them to judge ids, and
 * every bundle that used the chain carried them, 2 MB minified). `pii()`
 * and `secrets()`, which load their detectors anyway, hand this module
 * their judge of an id when built (`judgeToolCallIdsWith`).
 */

/** What a record shows for the n-th tool-call id of a call it may not show: `#hidden-id-n`. */
export const HIDDEN_TOOL_CALL_ID_PREFIX = '#hidden-id-';

/** Longest part of a tool name a record (`toolName`), reason or span shows. */
const MAX_SHOWN_TOOL_NAME = 64;

/** Hex digits of a cut name's SHA-256 shown after it (48 bits). */
const SHOWN_DIGEST_LENGTH = 12;

/** A name as `cutToolName` cuts it: a head of 63 or 64 characters, `…#` and the digest (a record's `toolName`). */
const ALREADY_CUT = /^([\s\S]{63,64})…#([0-9a-f]{12})$/;

/**
 * Names cut lately and their cuts: every record, span and reason of a tool
 * cuts the same name, and hashing a 200,000-character one costs 10-40 ms.
 * Bounded (it holds the names a tool set holds anyway); emptied when full.
 */
const cutNames = new Map<string, { head: string; digest: string }>();
const MAX_CUT_NAMES = 32;
/**
 * Most characters of the names kept (round 30: 32 names of any length were
 * kept, 320 MB for 32 client-written names of 10 MB). A longer name is
 * hashed each time (about 14 ms a million characters).
 */
const MAX_CUT_NAME_CHARS = 1 << 20;
let cutNameChars = 0;

/** Characters of the names the cut-name cache holds (for tests). */
export function cutNameCacheChars(): number {
  return cutNameChars;
}

/**
 * A name over 64 characters as records show it: its first 64 (63 before
 * half of a surrogate pair) and the first 12 hex digits of its SHA-256.
 */
function cutParts(name: string): { head: string; digest: string } {
  let parts = cutNames.get(name);
  if (parts === undefined) {
    let end = MAX_SHOWN_TOOL_NAME;
    const last = name.charCodeAt(end - 1);
    if (last >= 0xd800 && last <= 0xdbff) end--;
    parts = { head: name.slice(0, end), digest: sha256HexSync(name).slice(0, SHOWN_DIGEST_LENGTH) };
    if (name.length > MAX_CUT_NAME_CHARS) return parts;
    if (cutNames.size >= MAX_CUT_NAMES || cutNameChars + name.length > MAX_CUT_NAME_CHARS) {
      cutNames.clear();
      cutNameChars = 0;
    }
    cutNames.set(name, parts);
    cutNameChars += name.length;
  }
  return parts;
}

/**
 * A tool name cut to 64 characters with `…` and `#` and 12 hex digits of
 * its SHA-256 (never half of a surrogate pair), as records (`toolName`),
 * reasons and the `ai_guardrails.tool.name` span attribute show it. An MCP
 * server chooses its names (round 24: a 200,000-character name went whole
 * into spans and records). The digest since round 28: two names that
 * differ after their first 64 characters (`…_read`, `…_delete_all`) read
 * alike, and a server could name a tool as another's cut.
 */
export function cutToolName(name: string): string {
  // A name shaped as a cut is cut too (round 29): passed as it was, a
  // server naming a tool `<another's first 64>…#<its digest>` read as that
  // tool in every record. A record's own cut is shown by `shownCutToolName`.
  if (name.length <= MAX_SHOWN_TOOL_NAME) return name;
  const { head, digest } = cutParts(name);
  return `${head}…#${digest}`;
}

/**
 * A `serverId` as records (`serverId`, `info.scope`) show it: cut to 64
 * characters with `…`, as a tool name. The app may take the id from what an
 * MCP server says of itself (round 25: a 100,000-character id went whole
 * into every record and event of the server's tools). Pins and `ctx.serverId`
 * keep it whole.
 */
export const cutServerId: (serverId: string) => string = cutToolName;

/**
 * A tool name as a reason or message shows it: quoted as JSON (a line
 * break, an ANSI escape or a quote written as an escape), every other
 * character past printable ASCII escaped too (`\u0456`), cut as
 * `cutToolName` cuts it (64 characters, `…#` and a digest). An MCP server
 * chooses its names (round 24: a 200,000-character name was written whole
 * into the reason, and a name with `\n` forged a log line where records
 * are printed).
 */
export function shownToolName(name: string): string {
  return quotedToolName(name.length <= MAX_SHOWN_TOOL_NAME ? { head: name } : cutParts(name));
}

/**
 * A record's `toolName` (already as `cutToolName` made it) as
 * `shownToolName` shows the name it was cut from: a blocked message made
 * from a record. Only a record's name may be given: a tool named as a cut
 * is shown so by `shownToolName` (cut again).
 */
export function shownCutToolName(cut: string): string {
  if (cut.length <= MAX_SHOWN_TOOL_NAME) return quotedToolName({ head: cut });
  const parts = ALREADY_CUT.exec(cut);
  return parts ? quotedToolName({ head: parts[1]!, digest: parts[2]! }) : shownToolName(cut);
}

function quotedToolName(parts: { head: string; digest?: string }): string {
  const quoted = JSON.stringify(parts.head);
  // Every character past printable ASCII as an escape too (round 26): a
  // name that differs from a pinned one by a look-alike letter (Cyrillic
  // `і`), a full-width letter or an invisible character (U+200B) read the
  // same as the pinned one in a `tool-definition-new` reason a reviewer
  // approves from. Bidirectional controls were escaped before.
  const escaped = quoted.replace(
    /[^\x20-\x7E]/g,
    char => `\\u${char.charCodeAt(0).toString(16).padStart(4, '0')}`,
  );
  return parts.digest !== undefined ? `${escaped.slice(0, -1)}…#${parts.digest}"` : escaped;
}

/**
 * The values a `pii()` or `secrets()` detector finds in a text (spans, as
 * offsets into it): the judge of tool-call ids they hand in. The ids to
 * judge are given in one text, joined by a blank line (round 26: each id
 * scanned apart cost 130-160 µs, 34-40 ms for a history of 256 new ids).
 */
export type ToolCallIdJudge = (text: string) => readonly { start: number; end: number }[];

/** Between two ids judged in one text: a blank line, which no value of an id's shape runs over. */
const ID_SEPARATOR = '\n\n';

const SAFE_ID_SHAPE = /^[A-Za-z0-9_-]{1,64}$/;

/**
 * Values an id of an id's shape may be, judged without a detector (round
 * 26; with neither `pii()` nor `secrets()` built, ids were judged by shape
 * alone): a run of 9 or more digits, `-` or `_` between them allowed (a
 * card, account, phone or national id number: generated ids are random
 * letters and digits, where such a run is rare), or the start of a common
 * key (`ghp_…`, `sk-…`, `xoxb-…`, `AKIA…`, `AIza…`, `glpat-…`, `hf_…`,
 * `npm_…`; round 27: `whsec_…`, `shpat_…` and a few more). An id with one,
 * a number alone (`NUMBER_ID`) or an IBAN (`holdsIban`) is never shown as
 * written; every other value of an id's shape (a name, a key of another
 * form) is judged only by the detectors `pii()` and `secrets()` hand in.
 */
const VALUE_IN_ID =
  /[0-9](?:[-_]?[0-9]){8}|(?:^|[^A-Za-z0-9])(?:gh[pousr]_|github_pat_|sk-|sk_(?:live|test)_|[rp]k_(?:live|test)_|xox[abposr]-|xapp-|glpat-|glrt-|hf_|npm_|whsec_|shp(?:at|ss|ca|pa)_|dop_v1_|pypi-|lin_api_)|A(?:KIA|SIA)[A-Z0-9]{12}|AIza[0-9A-Za-z_-]{20}/;

/**
 * An id that is a number alone (round 27): 6 to 8 digits, `-` or `_`
 * between them allowed (a date of birth `19850412`, a PIN, an account or
 * a local phone number `555-0132`), which the 9-digit run above misses.
 * Generated ids hold letters; a short counter (`0`, `call-1`) is shown.
 */
const NUMBER_ID = /^[0-9](?:[-_]?[0-9]){5,}$/;

/**
 * An IBAN in an id (round 27), checked as banks check it: a country's two
 * letters, two check digits, then 11 to 30 capitals and digits whose
 * mod-97 remainder is 1. Most IBANs hold a run of 9 digits; this finds
 * those that do not (letters in their account part).
 */
const IBAN_CANDIDATE = /(?:^|[^A-Za-z0-9])([A-Z]{2}[0-9]{2}[A-Z0-9]{11,30})(?![A-Za-z0-9])/g;

function holdsIban(id: string): boolean {
  for (const match of id.matchAll(IBAN_CANDIDATE)) {
    const iban = match[1]!;
    const moved = iban.slice(4) + iban.slice(0, 4);
    let remainder = 0;
    for (const char of moved) {
      const code = char.charCodeAt(0);
      const value = code >= 65 ? code - 55 : code - 48;
      remainder = (remainder * (value >= 10 ? 100 : 10) + value) % 97;
    }
    if (remainder === 1) return true;
  }
  return false;
}

/** An id of an id's shape that holds a value the core finds without a detector. */
function holdsValue(id: string): boolean {
  return VALUE_IN_ID.test(id) || NUMBER_ID.test(id) || holdsIban(id);
}

/** The judges `pii()` and `secrets()` handed in (one each, however many are built). */
const idJudges = new Set<ToolCallIdJudge>();

/**
 * Adds a judge of ids: an id it says holds a value is never shown as
 * written. Called by the `pii()` and `secrets()` factories with a judge
 * made once per module, so building many adds one.
 */
export function judgeToolCallIdsWith(holdsValue: ToolCallIdJudge): void {
  if (idJudges.has(holdsValue)) return;
  idJudges.add(holdsValue);
  judgedIds.clear();
}

/**
 * Ids already judged: every record of a call (one per guardrail, each
 * retry, each step) shows the same id, and judging one costs 17-38 µs
 * (findPii and findSecrets). Bounded; emptied when full.
 */
const judgedIds = new Map<string, boolean>();
const MAX_JUDGED_IDS = 1024;

/**
 * Whether a tool-call id may be shown as written in records
 * (`toolCallId`), reasons and error messages. The client writes the ids of
 * its history's tool calls and results, and the model those of its calls
 * (round 24: a card number as a history call's id reached records and
 * errors unjudged). An id is shown when it has the shape ids have
 * (`[A-Za-z0-9_-]{1,64}`) and no judge handed in says it holds a value
 * (with `pii()` built: `findPii` finds nothing; with `secrets()`:
 * `findSecrets` finds nothing but a high-entropy string, which every
 * generated id is), and holds no run of 9 digits nor a common key's start
 * (`VALUE_IN_ID`, always). Without either detector, an app judges no such
 * value anywhere else, and ids are judged by their shape and that check.
 */
export function mayShowToolCallId(id: string): boolean {
  if (!SAFE_ID_SHAPE.test(id) || holdsValue(id)) return false;
  if (idJudges.size === 0) return true;
  const known = judgedIds.get(id);
  if (known !== undefined) return known;
  judgeIds([id]);
  return judgedIds.get(id) ?? false;
}

/**
 * Judges ids of an id's shape not judged yet, all in one text per judge
 * (ids joined by a blank line), and keeps each verdict: an id a span
 * overlaps holds a value. A span over a separator hides each id it
 * touches (more hidden, never less).
 */
function judgeIds(ids: readonly string[]): void {
  const fresh = [...new Set(ids)].filter(id => !judgedIds.has(id));
  if (fresh.length === 0) return;
  const starts: number[] = [];
  let offset = 0;
  for (const id of fresh) {
    starts.push(offset);
    offset += id.length + ID_SEPARATOR.length;
  }
  const text = fresh.join(ID_SEPARATOR);
  const hidden = new Array<boolean>(fresh.length).fill(false);
  for (const findValues of idJudges) {
    for (const { start, end } of findValues(text)) {
      // The last id starting at or before the span's start, then each id it reaches.
      let low = 0;
      let high = fresh.length - 1;
      while (low < high) {
        const middle = (low + high + 1) >> 1;
        if (starts[middle]! <= start) low = middle;
        else high = middle - 1;
      }
      for (let i = low; i < fresh.length && starts[i]! < Math.max(end, start + 1); i++) {
        if (starts[i]! + fresh[i]!.length > start || i > low) hidden[i] = true;
      }
    }
  }
  if (judgedIds.size + fresh.length > MAX_JUDGED_IDS) judgedIds.clear();
  fresh.forEach((id, i) => {
    judgedIds.set(id, !hidden[i]);
  });
}

/**
 * The prompt's first tool-call ids numbered ahead of any other (see
 * `ToolCallIds`): a chat's history, bounded so that a history of 100,000
 * calls costs no 100,000 judgements.
 */
const MAX_SEEDED_IDS = 256;

/**
 * The tool-call ids of one `generateText` / `streamText` call as its
 * records show them: an id the judge allows as written, any other as
 * `#hidden-id-1`, `#hidden-id-2`, … numbered in the order first seen, the
 * same stand-in for the same id in every record of the call (each
 * guardrail, retry and step). A stand-in says nothing of the value (no
 * hash: a short id's hash is brute-forced). The ids of the prompt's tool
 * calls and results are numbered first, in the prompt's order, when the
 * first stand-in is needed: the next step's prompt holds this step's calls
 * after the same history, so an id keeps its number across steps.
 */
export class ToolCallIds {
  readonly #standIns = new Map<string, string>();
  #seed: (() => Iterable<unknown>) | undefined;

  constructor(seed?: () => Iterable<unknown>) {
    this.#seed = seed;
  }

  /** Shows `id` as `shown` (a stand-in given it elsewhere), unless it has one. */
  showAs(id: string, shown: string): void {
    if (shown !== id && !this.#standIns.has(id)) this.#standIns.set(id, shown);
  }

  /** The id as records show it. */
  shown(id: string): string {
    const known = this.#standIns.get(id);
    if (known !== undefined) return known;
    if (mayShowToolCallId(id)) return id;
    this.#seedOnce();
    return this.#standInOf(id);
  }

  #standInOf(id: string): string {
    let standIn = this.#standIns.get(id);
    if (standIn === undefined) {
      standIn = `${HIDDEN_TOOL_CALL_ID_PREFIX}${this.#standIns.size + 1}`;
      this.#standIns.set(id, standIn);
    }
    return standIn;
  }

  #seedOnce(): void {
    const seed = this.#seed;
    if (!seed) return;
    this.#seed = undefined;
    const ids: string[] = [];
    for (const id of seed()) {
      if (typeof id !== 'string') continue;
      if (ids.length >= MAX_SEEDED_IDS) break;
      ids.push(id);
    }
    // The new ones judged in one text per judge (round 26: one scan each).
    if (idJudges.size > 0) {
      judgeIds(ids.filter(id => SAFE_ID_SHAPE.test(id) && !holdsValue(id)));
    }
    for (const id of ids) {
      if (!this.#standIns.has(id) && !mayShowToolCallId(id)) {
        this.#standInOf(id);
      }
    }
  }
}

/** The tool-call ids of each call, by the call's `ctx.state`. */
const idsByState = new WeakMap<object, ToolCallIds>();

/**
 * A tool-call id as the records of the call whose `ctx.state` is `state`
 * show it (a call no `callToolCallIds` / `stepToolCallIds` prepared, such
 * as `runChain` called directly, numbers its own as first seen). Without a
 * state (`runChain` given a context without one) a hidden id is
 * `#hidden-id-?`: nothing numbers the ids of separate runs together, and
 * before round 28 each was `#hidden-id-1`, so the records of two calls
 * with different hidden ids claimed to be of one call.
 */
export function shownToolCallIdOf(state: object | undefined, id: string): string {
  if (state == null || typeof state !== 'object') {
    return mayShowToolCallId(id) ? id : `${HIDDEN_TOOL_CALL_ID_PREFIX}?`;
  }
  let ids = idsByState.get(state);
  if (!ids) {
    ids = new ToolCallIds();
    idsByState.set(state, ids);
  }
  return ids.shown(id);
}

/**
 * `guardTools`' `toModelOutput`: the call whose `ctx.state` is `state`
 * shows `id` as `shown`, the stand-in the records of the call's execution
 * gave it (its step's numbering), and numbers any other as first seen.
 */
export function showToolCallIdAs(state: object, id: string, shown: string): void {
  const ids = new ToolCallIds();
  ids.showAs(id, shown);
  idsByState.set(state, ids);
}

/**
 * The middleware: the tool-call ids of one model call (its `ctx.state`),
 * the ids of its prompt numbered first.
 */
export function callToolCallIds(state: object, prompt: readonly unknown[]): void {
  idsByState.set(state, new ToolCallIds(() => promptToolCallIds(prompt)));
}

/** `guardTools`: the tool-call ids of each step, by the messages array the AI SDK hands every call of the step. */
const idsOfSteps = new WeakMap<object, ToolCallIds>();

/**
 * `guardTools`: the tool-call ids of the step whose calls are handed
 * `messages` (the prompt of the model call that made them, numbered
 * first; then the step's calls as their records need one), for the call
 * whose `ctx.state` is `state`. Without a messages array, the call's own.
 */
export function stepToolCallIds(state: object, messages: unknown): void {
  if (!Array.isArray(messages)) return;
  let ids = idsOfSteps.get(messages);
  if (!ids) {
    ids = new ToolCallIds(() => promptToolCallIds(messages));
    idsOfSteps.set(messages, ids);
  }
  idsByState.set(state, ids);
}

/**
 * The tool-call ids of a prompt (the AI SDK's prompt or model messages),
 * in order: each tool call's, result's and approval's `toolCallId`.
 */
export function* promptToolCallIds(messages: readonly unknown[]): Generator<unknown> {
  for (const message of messages) {
    const content = (message as { content?: unknown } | null)?.content;
    if (!Array.isArray(content)) continue;
    for (const part of content) {
      if (part !== null && typeof part === 'object') {
        yield (part as { toolCallId?: unknown }).toolCallId;
      }
    }
  }
}
