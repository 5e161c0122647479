import type { JSONValue, LanguageModelV4Usage, SharedV4ProviderMetadata } from '@ai-sdk/provider';
import type { ChainResult } from '../core/chain';
import { allow } from '../core/define-guardrail';
import { emitEvent } from '../core/events';
import {
  type FilterTriggers,
  filteredHookOf,
  filterTriggersOf,
  fusedHookOf,
} from '../core/filtered-hooks';
import type { Guardrail, GuardrailRecord } from '../core/types';
import { isReadThrough } from '../guards/shared/normalize-text';
import { countedStart, readsPlain } from '../guards/shared/potential-start';
import { TURNED_REACH } from '../guards/shared/upside-down';
import type { CallGuard } from './call-guard';
import {
  MAY_MATCH,
  type ResumableScan,
  resumableUnionScan,
  type ScanState,
  scanStart,
  shiftScan,
  unionScan,
} from './may-match-union';
import {
  blockKey,
  HELD,
  type JudgedBlocks,
  type StreamPart as Part,
  type ProcessorStep,
  quotesNothing,
  type StreamProcessor,
} from './stream-processor';
import { watchResponse } from './stream-watch';
import {
  graphemeBoundaryBefore,
  isGraphemeBoundary,
  isWordStart,
  lastSettledBreak,
  reachTail,
  spacedRunStart,
  wordStartAfter,
  wordStartBefore,
} from './text-boundaries';

/**
 * The least bound on a hold with no end of its own, in characters detectors
 * read: room for an 8192-bit RSA private key block (about 6,500 characters)
 * twice over, and still a bounded amount of an answer in memory.
 */
export const MIN_HOLD_BOUND = 16_384;

/** Hold-back state of one text (or reasoning) part. */
interface TextWindow {
  type: 'text' | 'reasoning';
  id: string;
  startPart: Part;
  started: boolean;
  /** Text received and not yet released (raw). */
  pending: string;
  /**
   * The last texts released, as released (modified), the fewest that hold
   * the last `2 × contextLength` characters released that detectors read
   * (`readCount`: junk between them does not count) (`releasedTailOf`
   * joins and cuts them): the next check's left context is cut from those
   * at a word start. Guardrails leave their own output unchanged (a
   * placeholder is not redacted again, a restored value not restored
   * again), so this context comes back unchanged from each check. Kept as
   * pieces, joined only when read: on prose no check reads it (the filters
   * rule every check out), so a release copies no text into it.
   */
  releasedPieces: string[];
  /**
   * The raw text each of `releasedPieces` was released for (the pending
   * text it replaced; the same string where the check left it unchanged),
   * never released: a check whose context holds a change reads the raw
   * context, as `generate` read it (`rawContextOf`). Undefined where it is
   * longer than its release by more than `2 × contextLength` characters.
   */
  rawPieces: Array<string | undefined>;
  /** How many of `releasedPieces` differ from their raw text. */
  changedPieces: number;
  /** The characters detectors read in each of `releasedPieces` (`readCount`, up to `2 × contextLength`). */
  releasedPiecesRead: number[];
  /** The sum of `releasedPiecesRead`. */
  releasedPiecesReadSum: number;
  /** True while `releasedPieces` hold everything released in this part (their start is a true start). */
  releasedAll: boolean;
  /**
   * Round 50 (hK): the last release's reading, while nothing was released
   * since: the context it read (released form), the raw text it released
   * and what it released for it (see `redactingMore`).
   */
  lastRead?: { context: string; raw: string; released: string };
  /** `pending.length` at which the next check runs (amortises checks to one per step). */
  nextCheckAt: number;
  /** `pending.length` after the last check: the step is counted from there, in characters read (`readCount`). */
  checkedTo: number;
  /**
   * Characters read (`readCount`) received since `checkedTo`, once the
   * step's code units came without as many read (each delta counted as it
   * comes from then on); -1 before.
   */
  readSince: number;
  /**
   * True when this step's check waited for one more delta already: the text
   * ended in punctuation after a short delta, where the filters' tests may
   * say maybe for want of what follows (`checkDelta`, `endsInPunctuation`).
   */
  waited: boolean;
  /** Characters released so far in this part (sets the step of early release). */
  releasedCount: number;
  /** One aggregated record per guardrail for the whole part. */
  records: Map<string, GuardrailRecord>;
  /**
   * When every guardrail declares `mayMatchReach` and all their filters
   * said false about the text checked so far (since the last check that ran
   * the chain, or since the part started), released unchanged: the end of
   * that text holding its last `reach` characters (`reachTail`). The next
   * check filters only it and the pending text after `filtered`.
   * Undefined otherwise (the next check filters its whole text).
   */
  clean: string | undefined;
  /** Pending characters the filters have seen (the start of what `clean` does not hold yet). */
  filtered: number;
  /**
   * When the chain's one scan ruled out everything since it began (`clean`
   * then ends where it stopped, and holds the characters its tests read
   * behind where it goes on): its state, counted from `clean`'s start, so
   * the next check reads only what came since (`resumableUnionScan`), not
   * `clean` again. Undefined otherwise.
   */
  scan: ScanState | undefined;
  /**
   * The model's deltas whose `providerMetadata` cannot quote the answer
   * (`quotesNothing`), not yet released: each with the end of its text in
   * `pending`. Released on the delta that releases that character.
   */
  marks: { at: number; metadata: SharedV4ProviderMetadata }[] | undefined;
  /**
   * Metadata that may quote the answer (and all after the first such, so
   * their order is kept): released at the block's end, its text judged.
   */
  heldMetadata: SharedV4ProviderMetadata[] | undefined;
}

function commonPrefixLength(a: string, b: string): number {
  const max = Math.min(a.length, b.length);
  let i = 0;
  while (i < max && a.charCodeAt(i) === b.charCodeAt(i)) i++;
  return i;
}

function commonSuffixLength(a: string, b: string, max: number): number {
  let i = 0;
  while (i < max && a.charCodeAt(a.length - 1 - i) === b.charCodeAt(b.length - 1 - i)) i++;
  return i;
}

/**
 * The code points of `text` from `from` that a detector reads (not read
 * through: `countedStart`'s count), counted up to `most`. Printable ASCII,
 * tabs and line breaks count one each without a lookup (round 30: a line
 * break ended the search's run and cost a lookup and a second search, on
 * prose two or three a check).
 */
export function readCount(text: string, from: number, most: number, end = text.length): number {
  let count = 0;
  let at = from;
  while (at < end && count < most) {
    // A run of them is found by the engine's search, not a loop here.
    NOT_PLAIN.lastIndex = at;
    const next = NOT_PLAIN.test(text) ? NOT_PLAIN.lastIndex - 1 : text.length;
    const plain = Math.min(next, end) - at;
    if (count + plain >= most) return most;
    count += plain;
    at += plain;
    // Then the run of other characters, each by its code point.
    while (at < end && count < most) {
      const code = text.charCodeAt(at);
      if (code >= 0x20 ? code < 0x7f : code === 10 || code === 9 || code === 13) break;
      const codePoint = text.codePointAt(at)!;
      if (!isReadThrough(codePoint)) count++;
      at += codePoint > 0xffff ? 2 : 1;
    }
  }
  return count;
}

/** The longest delta after which a check of text ending in punctuation waits for the next (`checkDelta`). */
const WAIT_DELTA = 16;

/** Whether `text` ends in ASCII punctuation (printable, no letter, digit or blank). */
export function endsInPunctuation(text: string): boolean {
  const code = text.charCodeAt(text.length - 1);
  return (
    code > 32 &&
    code < 127 &&
    !((code | 0x20) >= 97 && (code | 0x20) <= 122) &&
    !(code >= 48 && code <= 57)
  );
}

/** What `readCount` reads one by one: anything but printable ASCII, tabs and line breaks. */
const NOT_PLAIN = /[^\t\n\r\x20-\x7e]/g;

/**
 * With early release: characters of released text each check sees before
 * the pending text (extended back to a word start), for what detectors read
 * to the left of a match (a boundary, the 40 characters an entropy check
 * reads before a token, a phone's context word). Counted as the window's
 * step is (`readCount`): characters detectors read through (junk) do not
 * count (round 28: counted in code units, `Phone` and 12 soft hyphens after
 * each character of ` number is` left the context word out of the check
 * that saw the number after it, which streamed raw where generate
 * redacts it).
 */
const EARLY_CONTEXT = 48;
/**
 * With early release: pending characters received between two checks, by
 * how much of the part was released already. Short steps while the answer
 * starts (the first text after a few dozen characters, a short answer in
 * several deltas), longer ones later, so a long answer costs fewer checks.
 */
function earlyStep(released: number): number {
  if (released < 512) return 32;
  // The median held back is about 6 held after a cut plus half a step: a
  // check every 72 characters holds back about 42 on prose, under the 48
  // aimed at, with a ninth fewer checks than 64 (which held back about 38);
  // 80 would hold back about 46, too near the bound (docs/streaming.md,
  // round 11).
  return 72;
}

/**
 * What is known of the text the hooks are asked about (`potentialStartOf`):
 * nothing; every filter ruled it out (their filtered hooks); it ends a text
 * the chain's one scan ruled out, which noted none of what the fused hooks
 * look for in it, or noted some (their fused hooks, `core/filtered-hooks`).
 */
const UNFILTERED = 0;
const FILTERED = 1;
const SCANNED = 2;
const SCANNED_NOTED = 3;
type Filtered = typeof UNFILTERED | typeof FILTERED | typeof SCANNED | typeof SCANNED_NOTED;

/**
 * Checks with the left context started again past a change the guardrails
 * made in it (`contextPastChange`) before the pending text is judged alone.
 * Round 49: 2 left the tagger's reading of place lists changing its context
 * from each of the first word starts after the change (`New Springfield
 * Oslo Bolivia St. Louis`, each read as a text's start), and the pending
 * text judged alone read its first word so (`Oslo` ending a line a name,
 * shown raw the name generate read on the next line); 16 reach a start the
 * reading leaves as released in every text of the seeded differential
 * (`window-raw-context.test.ts`: with 2 there, 14 texts differ and one
 * shows `Kowalski` raw; with 4, 11; with 16, 3).
 */
const CONTEXT_ROUNDS = 16;

/**
 * Where `offset` of `raw`, the text a release replaced with `released`,
 * falls in `released`: the same place when the release left everything
 * before it unchanged, the same distance from the end when it left
 * everything after it; else -1.
 */
function releasedOffset(released: string, raw: string, offset: number): number {
  if (commonPrefixLength(released, raw) >= offset) return offset;
  const after = raw.length - offset;
  if (commonSuffixLength(released, raw, Math.min(released.length, raw.length)) >= after)
    return released.length - after;
  return -1;
}

/**
 * Where a check's raw left context starts (`rawContextOf`): the first word
 * start of the raw pieces kept; the first word start after a line break
 * past it; where the ordinary context starts. A check tries them in that
 * order and takes the first whose reading redacts the raw context as it
 * was released (`checkAfter`). Round 50: a first word start inside a
 * multi-word reading (`Street` of `42 Elm Street`, `York` of `New York`,
 * `Dalton` of `Mr. Dalton`) read its first words otherwise than generate
 * (`Street Anna Kowalski` a person), the reading was refused, and the
 * check read its context as released, placeholders and all (`[PERSON]
 * Sam:` made `Sam` a person).
 */
const FIRST_WORD = 0;
const FIRST_LINE = 1;
const CONTEXT_START = 2;
type RawStart = typeof FIRST_WORD | typeof FIRST_LINE | typeof CONTEXT_START;
const RAW_STARTS: readonly RawStart[] = [FIRST_WORD, FIRST_LINE, CONTEXT_START];
const CONTEXT_ONLY: readonly RawStart[] = [CONTEXT_START];

/** How many characters must agree again past a change (`alignedOffset`). */
const RESYNC = 4;
/** How far past a change `alignedOffset` looks in the released text (a placeholder is short). */
const PLACEHOLDER_REACH = 64;

/**
 * Where `offset` of `from` falls in `to`, one the text a release replaced
 * and the other its release, when that release changed text both before
 * and after it (`releasedOffset` maps only a place with no change on one
 * side): the two are walked together, and past each change the first place
 * where `RESYNC` characters agree again (the fewest characters skipped in
 * both, at most `fromReach` in `from` and `toReach` in `to`) ends it. A
 * place in an unchanged stretch, or where a change begins, maps; one inside
 * a change, or past a change with no resync in reach, is -1 (round 49: a
 * context starting between two changes of its piece read all released).
 * A wrong resync only makes a raw reading that `checkAfter` refuses (its
 * redaction is not the released text). Each character is passed once; each
 * change costs its reach.
 */
function alignedOffset(
  from: string,
  to: string,
  offset: number,
  fromReach: number,
  toReach: number,
): number {
  let i = 0;
  let j = 0;
  for (;;) {
    while (j < offset && i < to.length && from.charCodeAt(j) === to.charCodeAt(i)) {
      i++;
      j++;
    }
    if (j === offset) return i;
    // A change at (j, i): where each `RESYNC` characters of `from` past it first stand.
    const firsts = new Map<string, number>();
    const fromEnd = Math.min(from.length - RESYNC, j + fromReach);
    for (let b = j; b <= fromEnd; b++) {
      const gram = from.slice(b, b + RESYNC);
      if (!firsts.has(gram)) firsts.set(gram, b);
    }
    let bestTo = -1;
    let bestFrom = -1;
    const toEnd = Math.min(to.length - RESYNC, i + toReach);
    for (let a = i; a <= toEnd; a++) {
      if (bestTo >= 0 && a - i >= bestTo - i + bestFrom - j) break;
      const b = firsts.get(to.slice(a, a + RESYNC));
      if (b !== undefined && (bestTo < 0 || a - i + b - j < bestTo - i + bestFrom - j)) {
        bestTo = a;
        bestFrom = b;
      }
    }
    // No resync in reach (or the text ends inside the change), or `offset` lies inside it.
    if (bestTo < 0 || bestFrom > offset) return -1;
    i = bestTo;
    j = bestFrom;
  }
}

/** How many characters of `text` its judged form `judged` keeps at its start and end. */
function keptAtEnds(text: string, judged: string): number {
  const prefix = commonPrefixLength(text, judged);
  if (prefix === text.length && prefix === judged.length) return prefix;
  return prefix + commonSuffixLength(text, judged, Math.min(text.length, judged.length) - prefix);
}

/** `releasedOffset` the other way: where `offset` of `released` falls in `raw` (-1: nowhere). */
function rawOffset(released: string, raw: string, offset: number): number {
  return releasedOffset(raw, released, offset);
}

/**
 * Whether a record of a check that modified the text counts something in
 * its `info` (a number, which `mergeInfo` adds up over a part's checks:
 * `invisibleText`'s `count`).
 */
function countsChanges(record: GuardrailRecord): boolean {
  if (record.status !== 'modified' || !isPlainObject(record.info)) return false;
  for (const value of Object.values(record.info)) if (typeof value === 'number') return true;
  return false;
}

/** Rounds of `potentialStartOf`'s check that no match spans the cut; past them, nothing is released. */
const CUT_ROUNDS = 8;

/**
 * Where text can be released: before the earliest position at which a
 * guardrail of the chain says a match could still begin or grow in
 * `pending` (the minimum of their `potentialMatchStart`; each hook bounds
 * what it holds back itself, by its `maxMatchLength`, or longer for a
 * secret matched to the end of the visible text, such as a PEM block).
 *
 * A match that one guardrail has already completed may still span the
 * position another one chose (an `Authorization: Bearer` header whose value
 * a number detector holds back). So the hooks are asked again about the
 * text up to that position and one character more, as if the text ended
 * there: any match spanning the position is then a match that could still
 * grow, and the position moves back to its start, until it no longer moves.
 *
 * That second question is only needed where the check changed the text
 * after the position: when every guardrail passes the checked text
 * unchanged (or rules a match out in it), no completed match that changes
 * anything spans the cut, and `changedTo` 0 skips it (half the hooks' work
 * on ordinary prose). Nor when every change ends at or before the position
 * (`changedTo`, the end of the last change in `pending`): the text before
 * it is released as changed, and what a completed match spanning it left
 * after it is unchanged, as `generate` leaves it. (Round 36: a long URL
 * whose `token=` value early in it was redacted was held to its end,
 * every re-asked text ending in a URL that may still grow; the first
 * question holds a query value until it ends.)
 *
 * `limit`: a cut found otherwise (`modifiedCut`), taken when earlier, and
 * confirmed the same way.
 *
 * Undefined when a guardrail has no hook (the window then holds back
 * `window` characters).
 */
function potentialStartOf(
  output: readonly Guardrail[],
):
  | ((
      pending: string,
      changedTo: number,
      filtered?: Filtered,
      limit?: number,
      ruledOut?: number,
    ) => number)
  | undefined {
  const hooks = output.map(guardrail => guardrail.potentialMatchStart);
  if (!hooks.every(hook => typeof hook === 'function')) return undefined;
  // For text every filter ruled out (`releaseUnmatched`): a built-in's
  // cheaper hook for text its own filter ruled out (`core/filtered-hooks`).
  // A per-call guardrail's filter is not asked, so it keeps its hook.
  const filteredHooks = output.map((guardrail, index) =>
    guardrail.perCall ? hooks[index]! : (filteredHookOf(guardrail) ?? hooks[index]!),
  );
  // For text that ends a text the chain's one scan ruled out: the fused
  // hooks, told whether the scan noted what they look for in it.
  const fusedHooks = (noted: boolean) =>
    output.map((guardrail, index) => {
      const fused = guardrail.perCall ? undefined : fusedHookOf(guardrail);
      return fused ? (text: string) => fused.hook(text, noted) : filteredHooks[index]!;
    });
  const byFiltered: Record<Filtered, ReadonlyArray<(text: string) => number>> = {
    [UNFILTERED]: hooks as Array<(text: string) => number>,
    [FILTERED]: filteredHooks,
    [SCANNED]: fusedHooks(false),
    [SCANNED_NOTED]: fusedHooks(true),
  };
  // Unfiltered text some of whose guardrails' filters ruled it out (the
  // bits of `ruledOut`, `prefilteredChain`): those get their filtered hook.
  const mixed = new Map<number, ReadonlyArray<(text: string) => number>>();
  const hooksFor = (ruledOut: number) => {
    let list = mixed.get(ruledOut);
    if (list === undefined) {
      list = hooks.map((hook, index) =>
        index < 31 && (ruledOut >> index) & 1 ? filteredHooks[index]! : hook!,
      );
      mixed.set(ruledOut, list);
    }
    return list;
  };
  const earliest = (text: string, list: ReadonlyArray<(text: string) => number>) => {
    let start = text.length;
    for (const hook of list) {
      let at: number;
      try {
        at = hook(text);
      } catch {
        at = 0; // a failing hook holds everything back (fail closed)
      }
      // Anything but an index into the text holds everything back too.
      if (!Number.isInteger(at) || at < 0) at = 0;
      start = Math.min(start, at);
    }
    return start;
  };
  return (pending, changedTo, filtered = UNFILTERED, limit = pending.length, ruledOut = 0) => {
    const first =
      ruledOut !== 0 && filtered === UNFILTERED ? hooksFor(ruledOut) : byFiltered[filtered];
    let cut = Math.min(earliest(pending, first), limit);
    for (let round = 0; round < CUT_ROUNDS; round++) {
      if (cut <= 0 || cut >= changedTo || cut >= pending.length) return cut;
      const code = pending.charCodeAt(cut);
      const oneMore = cut + (code >= 0xd800 && code <= 0xdbff ? 2 : 1);
      const next = earliest(pending.slice(0, oneMore), hooks);
      if (next >= cut) return cut;
      cut = next;
    }
    return 0;
  };
}

/**
 * Where the hooks hold back the checked text as the chain changed it, as a
 * position in `text` (`text.length` when unchanged). A guardrail sees the
 * text those before it changed: `invisibleText` strips the fillers of
 * `kㅤㅤㅤiㅤㅤㅤl`, and `contentFilter` after it reads `kil`, the start of
 * an entry, where the hooks, asked about the raw text, see none (round 25:
 * `Then kil` went out before the block). A position before the first
 * change or after the last one maps to the same character of `text`; one
 * between them to the first change (holds back more, never less).
 * `prefix` and `suffix`: the lengths of `text`'s and `modified`'s common
 * prefix and suffix, which the caller has computed already.
 */
function modifiedCut(
  text: string,
  modified: string,
  from: number,
  prefix: number,
  suffix: number,
  potentialStart: (pending: string, changedTo: number) => number,
): number {
  if (modified === text) return text.length;
  // The position is confirmed by the caller as the hooks' own cut is: a match
  // may start before the first change (`--password` before its redacted value).
  // Judged as changed from `from` on only: a change before it is the context's.
  if (prefix < from) return from;
  const at = from + potentialStart(modified.slice(from), modified.length - suffix - from);
  if (at <= prefix) return at;
  return at >= modified.length - suffix ? at + text.length - modified.length : prefix;
}

/** `prefilteredChain`'s verdict on a text its filters ruled out one by one, not by the one scan. */
const RULED_OUT_ONE_BY_ONE = -2;

/** True unless the guardrail's `mayMatch` says its check would surely pass `text` (a throw runs it). */
function mayMatch(guardrail: Guardrail, text: string): boolean {
  if (typeof guardrail.mayMatch !== 'function') return true;
  try {
    return guardrail.mayMatch(text) !== false;
  } catch {
    return true;
  }
}

/**
 * The window's view of the chain: the guardrails a window check runs (not
 * the per-call ones, which `settlePerCallOutput` runs once), each of which
 * skips its check when its `mayMatch` rules a match out in the text it is
 * given (after the modifications of those before it); and `verdictOf`,
 * not `MAY_MATCH` when every one rules out a match in `text`, so the check
 * need not run.
 */
function prefilteredChain(output: readonly Guardrail[]) {
  const windowed = output.filter(guardrail => !guardrail.perCall);
  /**
   * The filters' verdicts `verdictOf` asked one by one about `knownText`
   * (undefined: not asked): the check that follows it on the same text
   * reads them instead of asking again (round 39: on text a filter may
   * match, every check asked each filter twice), and `release` gives the
   * guardrails ruled out their filtered hooks (`ruledOut`).
   */
  const known: Array<boolean | undefined> = windowed.map(() => undefined);
  let knownText: string | undefined;
  const mayMatchAt = (index: number, text: string): boolean => {
    if (text === knownText) {
      const verdict = known[index];
      if (verdict !== undefined) return verdict;
      const asked = mayMatch(windowed[index]!, text);
      known[index] = asked;
      return asked;
    }
    return mayMatch(windowed[index]!, text);
  };
  const guardrails = windowed.map((guardrail, index): Guardrail => {
    if (typeof guardrail.mayMatch !== 'function') return guardrail;
    const { check } = guardrail;
    return {
      ...guardrail,
      check: (content, ctx) =>
        mayMatchAt(index, content) ? check.call(guardrail, content, ctx) : allow(),
    };
  });
  /** Which of `output` (by index, as bits) a filter ruled out in `text`, as `verdictOf` asked them (0: unknown). */
  const outputIndex = windowed.map(guardrail => output.indexOf(guardrail));
  const ruledOut = (text: string): number => {
    if (text !== knownText) return 0;
    let mask = 0;
    for (let index = 0; index < known.length; index++) {
      if (known[index] === false && outputIndex[index]! < 31) mask |= 1 << outputIndex[index]!;
    }
    return mask;
  };
  // One scan for all the filters when each declares what it looks for
  // (the built-ins' own `mayMatch`): nearly every check of prose ends there.
  // It also notes, for the fused hooks, what they look for (`core/filtered-hooks`).
  const triggers = windowed.map(filterTriggersOf);
  const notes = windowed.map(guardrail => fusedHookOf(guardrail)?.notes);
  const declared = triggers.every(declared => declared !== undefined);
  const scan = declared ? unionScan(triggers as FilterTriggers[], notes) : undefined;
  // The same scan, resumable, when every filter says how far its tests read.
  const resumable = declared ? resumableUnionScan(triggers as FilterTriggers[], notes) : undefined;
  /**
   * Whether every filter rules out a match in `text`: `MAY_MATCH` when one
   * may match; else, when the one scan ruled it out, 1 + the last index of
   * a note in it (0: none); `RULED_OUT_ONE_BY_ONE` when the filters did one by one.
   * With `state` (a fresh one, and a resumable scan), the one scan leaves
   * in it where to go on when it rules a match out.
   */
  const verdictOf = (text: string, state?: ScanState): number => {
    if (windowed.length === 0) return MAY_MATCH;
    // Asked already (a check that `releaseUnmatched` found a filter may match): the same answer.
    if (state === undefined && text === knownText && known.includes(true)) return MAY_MATCH;
    if (state !== undefined && resumable !== undefined) {
      const noted = resumable.scan(text, state);
      if (noted !== MAY_MATCH) return noted;
    } else if (scan !== undefined) {
      const noted = scan(text);
      if (noted !== MAY_MATCH) return noted;
    }
    knownText = text;
    known.fill(undefined);
    for (let index = 0; index < windowed.length; index++) {
      const asked = mayMatch(windowed[index]!, text);
      known[index] = asked;
      if (asked) return MAY_MATCH;
    }
    return RULED_OUT_ONE_BY_ONE;
  };
  /**
   * The longest `mayMatchReach` of the chain, when every guardrail has a
   * filter and declares one: then a check need filter only the text
   * received since the previous one, after the end of the text before it
   * that holds this many characters. Undefined otherwise.
   */
  let reach: number | undefined = windowed.length > 0 ? 0 : undefined;
  for (const guardrail of windowed) {
    const declared = guardrail.mayMatchReach;
    if (
      reach === undefined ||
      typeof guardrail.mayMatch !== 'function' ||
      typeof declared !== 'number' ||
      !Number.isInteger(declared) ||
      declared <= 0
    ) {
      reach = undefined;
      break;
    }
    reach = Math.max(reach, declared);
  }
  /** The records of a check every guardrail skipped: a pass each, as a check that ran would record. */
  const passed = (text: string): ChainResult => ({
    content: text,
    records: windowed.map(guardrail => ({
      guardrail: guardrail.name,
      kind: 'output',
      status: 'passed',
      durationMs: 0,
    })),
  });
  return { guardrails, verdictOf, ruledOut, resumable, passed, count: windowed.length, reach };
}

/**
 * Merges the `info` of two records of one guardrail from two window checks:
 * lists of names (`types`, `categories`, ...) are united in order, counts are
 * added, and `spans` are left out, because each check's offsets are relative
 * to the text that check saw, not to the part. Other fields keep the later
 * check's value.
 */
export function mergeInfo(earlier: JSONValue | undefined, later: JSONValue | undefined) {
  if (!isPlainObject(earlier) || !isPlainObject(later)) return later ?? earlier;
  const merged: Record<string, JSONValue> = { ...earlier, ...later };
  for (const key of Object.keys(merged)) {
    const a = earlier[key];
    const b = later[key];
    if (key === 'spans' && a !== undefined && b !== undefined) {
      delete merged[key];
    } else if (isStringList(a) && isStringList(b)) {
      merged[key] = [...new Set([...a, ...b])];
    } else if (typeof a === 'number' && typeof b === 'number') {
      merged[key] = a + b;
    }
  }
  return merged;
}

function isPlainObject(value: JSONValue | undefined): value is Record<string, JSONValue> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function isStringList(value: JSONValue | undefined): value is string[] {
  return Array.isArray(value) && value.every(item => typeof item === 'string');
}

const STATUS_RANK: Record<GuardrailRecord['status'], number> = {
  passed: 0,
  modified: 1,
  error: 2,
  blocked: 3,
};

/**
 * `window` mode: text streams with a hold-back window per text part. Text is
 * released only once no stream-safe guardrail can still change it.
 *
 * Early release: when every guardrail of the chain says where a match could
 * still begin or grow (`potentialMatchStart`), a check runs every
 * 32 to 72 characters received (`earlyStep`) over the pending text plus about
 * `EARLY_CONTEXT` characters of released text, and releases everything
 * before the earliest such position (never holding back more than
 * `window`). Otherwise each check sees the pending text plus `window`
 * characters of released text as left context, and the last `window`
 * characters stay held as right context; checks then run once per `window`
 * characters received.
 *
 * Either way a check runs over a bounded text (the step plus context plus
 * the hold-back), so the work per delta is bounded by the delta plus the
 * window, never a rescan of the whole answer.
 *
 * Modifications are located by comparing the checked text with the
 * guardrails' result (common prefix and suffix). This assumes each
 * replacement differs from the original text at its first and last
 * character, which placeholders such as `[EMAIL_ADDRESS]` do.
 */
export function windowProcessor(
  call: CallGuard,
  output: readonly Guardrail[],
  window: number,
  judged: JudgedBlocks,
): StreamProcessor {
  const windows = new Map<string, TextWindow>();
  // Guardrails that judge the whole answer as it streams (a token or length cap).
  const watch = watchResponse(call, output);
  const potentialStart = potentialStartOf(output);
  const stepAfter = (released: number) =>
    potentialStart ? Math.min(earlyStep(released), window) : window;
  const contextLength = potentialStart ? Math.min(EARLY_CONTEXT, window) : window;
  /**
   * The pending length at which the next check runs: `step` more characters,
   * or half as many again as are pending when a match holds much back (a
   * long PEM block), so checks over a growing text cost linear time in all.
   */
  const nextCheckAfter = (state: TextWindow) =>
    state.pending.length + Math.max(stepAfter(state.releasedCount), state.pending.length >> 1);
  /**
   * With early release, the most a check may leave held back, in characters
   * detectors read: each built-in hook holds at most its `maxMatchLength`
   * (no more than `window`), and `contentFilter` that plus `2 × TURNED_REACH`
   * around upside-down letters; twice the window leaves room for a cut moved
   * back over a match that spans it. Only a hold with no end of its own
   * passes it: a right-to-left override or another bidirectional entry
   * never closed in a long paragraph, a PEM private key block with no END
   * line. Past it the window fails closed (`heldPastBound`) instead of
   * holding the rest of the part (round 29: an RLO early in a 24,000
   * character line held all of it to the part's end). Never less than
   * `MIN_HOLD_BOUND`: a 4096-bit RSA key (about 3,300 characters between
   * BEGIN and END) or a paragraph after an override a model really wrote
   * streams as generate judges it, instead of blocking at 2,112 (216 with
   * `contentFilter` alone).
   */
  const holdBound = Math.max(2 * window + 2 * TURNED_REACH, MIN_HOLD_BOUND);

  function aggregate(state: TextWindow, result: ChainResult) {
    for (const record of result.records) {
      const previous = state.records.get(record.guardrail);
      if (!previous) {
        state.records.set(record.guardrail, { ...record });
        continue;
      }
      const durationMs = previous.durationMs + record.durationMs;
      if (STATUS_RANK[record.status] > STATUS_RANK[previous.status]) {
        state.records.set(record.guardrail, { ...record, durationMs });
      } else if (record.status === previous.status) {
        // Two checks that both modified (or both blocked) the part: the
        // part's record reports what either found, not only the last one.
        const info = mergeInfo(previous.info, record.info);
        state.records.set(record.guardrail, {
          ...record,
          durationMs,
          ...(info !== undefined && { info }),
        });
      } else {
        previous.durationMs = durationMs;
      }
    }
  }

  /** Reports the part's aggregated records (once, when the part ends or trips). */
  function report(state: TextWindow) {
    for (const record of state.records.values()) {
      call.records.push(record);
      emitEvent(call.onEvent, record);
    }
    state.records.clear();
  }

  /** Adds a delta of `state`'s part to `parts` (after its start, the first time). */
  function pushDelta(
    state: TextWindow,
    parts: Part[],
    delta: string,
    providerMetadata?: SharedV4ProviderMetadata,
  ) {
    if (!state.started) {
      state.started = true;
      parts.push(state.startPart);
    }
    const type = state.type === 'text' ? 'text-delta' : 'reasoning-delta';
    // A literal of its own for each shape: a spread of a condition builds the part key by key.
    parts.push(
      providerMetadata === undefined
        ? { type, id: state.id, delta }
        : { type, id: state.id, delta, providerMetadata },
    );
  }

  /**
   * The parts that release `released` in place of the first `consumed`
   * pending characters: one delta, cut after each model delta with metadata
   * that ends in them (`marks`), which then carries it. A mark inside the
   * unchanged start of the text cuts there; one after a change goes with
   * the rest of the released text (never before its own text).
   */
  function deltaParts(
    state: TextWindow,
    pending: string,
    consumed: number,
    released: string,
  ): Part[] {
    const { marks } = state;
    // Nearly every release (no model delta with metadata pending): one delta,
    // after the block's start the first time, in an array made to its size.
    if (marks === undefined || marks.length === 0) {
      if (released.length === 0) return [];
      const delta: Part = {
        type: state.type === 'text' ? 'text-delta' : 'reasoning-delta',
        id: state.id,
        delta: released,
      };
      if (state.started) return [delta];
      state.started = true;
      return [state.startPart, delta];
    }
    const parts: Part[] = [];
    let from = 0;
    let due = 0;
    while (due < marks.length && marks[due]!.at <= consumed) due++;
    if (due > 0) {
      const same = Math.min(consumed, commonPrefixLength(pending, released));
      for (const { at, metadata } of marks.splice(0, due)) {
        const to = at <= same ? at : released.length;
        pushDelta(state, parts, released.slice(from, to), metadata);
        from = to;
      }
    }
    for (const mark of marks) mark.at -= consumed;
    if (from < released.length)
      pushDelta(state, parts, from === 0 ? released : released.slice(from));
    return parts;
  }

  /**
   * The metadata held for the block's end (`heldMetadata`), as empty deltas
   * before it, as the model sent it: `guardStream` holds what may quote the
   * answer to the answer's end (`scrubbed`), its text judged.
   */
  function heldMetadataParts(state: TextWindow, parts: Part[]) {
    const held = state.heldMetadata;
    if (held === undefined) return;
    state.heldMetadata = undefined;
    for (const metadata of held) pushDelta(state, parts, '', metadata);
  }

  const chain = prefilteredChain(output);
  async function check(text: string, usage?: LanguageModelV4Usage) {
    // Ordinary prose in which no guardrail could find anything: no chain run.
    if (chain.verdictOf(text) !== MAY_MATCH) return chain.passed(text);
    return call.checkOutput(chain.guardrails, text, { report: false, ...(usage && { usage }) });
  }

  /**
   * Finds a cut at the last line break (else word break) at or before `cut`
   * where the guardrails' verdict on the text before it, alone, is a prefix
   * of their verdict on the whole window, the break itself is unchanged, and
   * the text after it starts unchanged: then no match straddles the break and
   * the text before it can be released as judged.
   */
  async function releaseAtBreak(
    state: TextWindow,
    tail: string,
    pending: string,
    modified: string,
    cut: number,
  ): Promise<{ consumed: number; released: string } | undefined> {
    const candidates: number[] = [];
    for (const breakChar of ['\n', ' ']) {
      const at = pending.lastIndexOf(breakChar, cut - 1);
      if (at >= 0) candidates.push(at + 1);
    }
    for (const consumed of candidates) {
      if (consumed <= 0 || !isGraphemeBoundary(pending, consumed)) continue;
      const result = await checkAfter(state, tail, pending.slice(0, consumed));
      if (result.trip) continue;
      const judged = result.content;
      if (
        judged.length > tail.length &&
        modified.startsWith(judged) &&
        judged.charCodeAt(judged.length - 1) === pending.charCodeAt(consumed - 1) &&
        modified.charCodeAt(judged.length) === pending.charCodeAt(consumed)
      ) {
        return { consumed, released: judged.slice(tail.length) };
      }
    }
    return undefined;
  }

  /**
   * Early release with a change past the cut: the guardrails' verdict on the
   * text before the cut alone. Released when it leaves the context as it was
   * and agrees with their verdict on the whole; otherwise nothing is
   * released yet (a later check, or the end of the part, decides), never
   * raw text up to the first change, which could cut a match whose start is
   * unchanged (`Authorization: Bearer` before its redacted value).
   */
  async function releaseAtCut(
    state: TextWindow,
    tail: string,
    pending: string,
    modified: string,
    cut: number,
  ): Promise<{ consumed: number; released: string }> {
    if (cut <= 0) return { consumed: 0, released: '' };
    const result = await checkAfter(state, tail, pending.slice(0, cut));
    const judged = result.content;
    if (result.trip || !judged.startsWith(tail) || !modified.startsWith(judged)) {
      return { consumed: 0, released: '' };
    }
    return { consumed: cut, released: judged.slice(tail.length) };
  }

  /** The end of the released text holding its last `2 × contextLength` characters read (all of it while fewer). */
  function releasedTailOf(state: TextWindow): string {
    const { releasedPieces } = state;
    const joined = releasedPieces.length === 1 ? releasedPieces[0]! : releasedPieces.join('');
    if (joined.length <= 2 * contextLength) return joined;
    const from = countedStart(joined, 2 * contextLength);
    return from === 0 ? joined : joined.slice(from);
  }

  /**
   * The left context of the next check: the released text from the last
   * word start at least `contextLength` characters back (all of it while
   * the answer is that short; else a later one), so the context never begins
   * inside a number, a token or a grapheme that a guardrail would judge
   * differently cut than whole, and holds what detectors read before a
   * match. The first word start inside the last `contextLength` characters
   * could be the last word of them: after `901 call\nthe ` (no word start
   * after a digit and a blank) the context was `the `, and a phone number
   * that followed lost its context word, redacted by generate but not
   * streamed.
   */
  function contextOf(state: TextWindow): string {
    const released = releasedTailOf(state);
    if (state.releasedAll) return released;
    const from = countedStart(released, contextLength);
    const joined = released + state.pending.slice(0, 2);
    let at = wordStartBefore(joined, from, 0);
    if (at < 0) at = wordStartAfter(joined, from + 1, released.length + 1);
    if (at < 0) at = graphemeBoundaryBefore(released, from);
    at = outsideSpacedRun(joined, at);
    return released.slice(Math.min(at, released.length));
  }

  /**
   * The raw text of a check's left context when a change lies in the
   * released text kept (`changedPieces`), as `generate` read it, and the
   * released text it was released as (which ends with `context`, and at
   * least as long): from the first word start of the raw pieces kept (their
   * start while they hold all released), a place in a piece its release
   * left unchanged before or after it, or mapped past each change
   * (`alignedOffset`), else from where `context` starts. Where that place
   * does not map either, the context reads that piece's part as released
   * and the pieces after it raw (round 49: `Smith Zed` released as
   * `[PERSON] [PERSON]` in a piece whose release changed words before and
   * after the context's start, read as placeholders, left the next line's
   * `York` raw where generate read an organisation). `from` (`RawStart`):
   * `FIRST_LINE`, from the first word start after a line break past the
   * first word start (undefined where there is none or it does not map);
   * `CONTEXT_START`, from where `context` starts only (also a restart past
   * a change, `contextPastChange`). Undefined with no change kept, with a
   * piece not kept raw, or when the context reads as released.
   */
  function rawContextOf(
    state: TextWindow,
    context: string,
    from: RawStart = FIRST_WORD,
  ): { raw: string; released: string } | undefined {
    if (state.changedPieces === 0) return undefined;
    const { releasedPieces: pieces } = state;
    const raws: string[] = [];
    for (const raw of state.rawPieces) {
      if (raw === undefined) return undefined;
      raws.push(raw);
    }
    // The first word start of the raw pieces, in the piece that holds it
    // (`FIRST_LINE`: the first after a line break past it).
    const rawJoined = raws.length === 1 ? raws[0]! : raws.join('');
    let start =
      from === CONTEXT_START
        ? -1
        : state.releasedAll
          ? 0
          : wordStartAfter(rawJoined, 1, rawJoined.length);
    if (from === FIRST_LINE && start >= 0) {
      const line = rawJoined.indexOf('\n', start + 1);
      if (line < 0) return undefined;
      start = wordStartAfter(rawJoined, line + 1, rawJoined.length);
      if (start < 0) return undefined;
    }
    if (start >= 0) start = outsideSpacedRun(rawJoined, start);
    if (start >= 0 && (start > 0 || state.releasedAll)) {
      let index = 0;
      let offset = start;
      while (index < raws.length - 1 && offset >= raws[index]!.length)
        offset -= raws[index++]!.length;
      let mapped = releasedOffset(pieces[index]!, raws[index]!, offset);
      if (mapped < 0)
        mapped = alignedOffset(
          raws[index]!,
          pieces[index]!,
          offset,
          2 * contextLength,
          PLACEHOLDER_REACH,
        );
      if (mapped >= 0) {
        let released = pieces[index]!.slice(mapped);
        for (let next = index + 1; next < pieces.length; next++) released += pieces[next]!;
        if (released.length >= context.length) {
          return { raw: rawJoined.slice(start), released };
        }
      }
    }
    if (from === FIRST_LINE) return undefined;
    // Else from where `context` starts, in the piece that holds it.
    let left = context.length;
    let index = pieces.length - 1;
    while (index > 0 && pieces[index]!.length < left) left -= pieces[index--]!.length;
    const piece = pieces[index]!;
    const raw = raws[index]!;
    if (left > piece.length) return undefined;
    let at = rawOffset(piece, raw, piece.length - left);
    if (at < 0)
      at = alignedOffset(piece, raw, piece.length - left, PLACEHOLDER_REACH, 2 * contextLength);
    // Where it does not map (changes before and after it in its piece), the
    // pieces after that one read raw, that one as released.
    let rawContext = at < 0 ? piece.slice(piece.length - left) : raw.slice(at);
    for (let next = index + 1; next < raws.length; next++) rawContext += raws[next]!;
    return rawContext === context ? undefined : { raw: rawContext, released: context };
  }

  /**
   * The guardrails' verdict on `context + text`, with the context read raw
   * when the released text kept holds a change (`rawContextOf`): `generate`
   * read the released names as written, not as placeholders, and the
   * tagger's features and label history near them follow what it reads.
   * Taken when it redacts the raw context exactly as it was released (its
   * content then starts with that released text, cut to `context` here);
   * else, or when it blocks (the context was judged already), or a record
   * counts what it changed (`countsChanges`: the context's changes, counted
   * when it was released, would be counted twice), the verdict on the
   * released context. A refused raw reading is tried again from the next of
   * `RAW_STARTS` (round 50), at most three raw readings a check.
   */
  async function checkAfter(
    state: TextWindow,
    context: string,
    text: string,
    usage?: LanguageModelV4Usage,
    widen = true,
  ): Promise<ChainResult> {
    let tried: string | undefined;
    for (const from of widen ? RAW_STARTS : CONTEXT_ONLY) {
      const raw = rawContextOf(state, context, from);
      if (raw === undefined) {
        if (from === FIRST_WORD && state.changedPieces === 0) break;
        continue;
      }
      // The same reading as one refused already (a start that fell back).
      if (raw.raw === tried) continue;
      tried = raw.raw;
      const result = await check(raw.raw + text, usage);
      if (result.trip || result.records.some(countsChanges)) break;
      if (result.content.startsWith(raw.released)) {
        const extra = raw.released.length - context.length;
        return extra === 0 ? result : { ...result, content: result.content.slice(extra) };
      }
    }
    const released = await check(context + text, usage);
    return state.lastRead === undefined
      ? released
      : redactingMore(state, context, text, released, usage);
  }

  /**
   * Round 50 (hK): fail closed after a release whose verdict changed text it
   * held back (`lastRead`). The tagger's reading of a name can turn on text further
   * back than any window keeps (a chain of STREET_ADDRESS runs, each cut at
   * `nerMaxLength.STREET_ADDRESS` characters from its start: where the cuts
   * fall is set by where the chain began), so a later check, reading from a
   * later start, can leave raw a name the last release's check redacted in
   * the text it held back (and generate, reading from the text's start,
   * redacts). `text` is read again after the last release's own context and
   * raw text (`lastRead`); when that reading releases them as they were
   * released and changes more of `text` (fewer of its characters kept at
   * either end), it is taken: the stream may redact more than generate
   * here, never less. One more check, only while `lastRead` is kept.
   */
  async function redactingMore(
    state: TextWindow,
    context: string,
    text: string,
    released: ChainResult,
    usage?: LanguageModelV4Usage,
  ): Promise<ChainResult> {
    const last = state.lastRead;
    if (last === undefined || released.trip || !released.content.startsWith(context))
      return released;
    const before = last.context + last.released;
    if (!before.endsWith(context)) return released;
    const result = await check(last.context + last.raw + text, usage);
    if (result.trip || result.records.some(countsChanges) || !result.content.startsWith(before)) {
      return released;
    }
    const judged = result.content.slice(before.length);
    if (keptAtEnds(text, judged) >= keptAtEnds(text, released.content.slice(context.length))) {
      return released;
    }
    return { ...result, content: context + judged };
  }

  /**
   * `at`, or an earlier word start when `at` is inside a spaced-out run the
   * fold joins into one word (round 38: a context starting at `k` of
   * `s k i l l yourself` read `kill yourself` and blocked what generate
   * passes): the run's first unit when that is a word start, else the word
   * start before it, until neither moves. Each step moves left, within the
   * released text kept (`releasedTailOf`); with no word start before, the
   * context is all of it (it then reads a run longer than any entry, which
   * can block, never pass, what generate blocks).
   */
  function outsideSpacedRun(joined: string, at: number): number {
    for (;;) {
      const start = spacedRunStart(joined, at, 0);
      if (start === at) return at;
      if (isWordStart(joined, start)) at = start;
      else {
        const word = wordStartBefore(joined, start - 1, 0);
        if (word < 0) return 0;
        at = word;
      }
    }
  }

  /**
   * The text the filters read when their verdict on the text before holds
   * (`state.clean`; see `releaseUnmatched`): with reaches, when all said
   * false about the text before, only its tail and what came since (by the
   * contract of `mayMatchReach`, their verdict on the whole); when the one
   * scan goes on where it stopped (`state.scan`), what its tests read behind
   * that point and what came since. Built to end with the whole pending text
   * wherever it can (`filteredFrom`: where that starts in it, else -1), so
   * the scan flattens one string (not the deltas joined, then a second copy)
   * and its verdict covers all of what the hooks read.
   */
  function filteredSince(state: TextWindow, before: string): string {
    const { pending } = state;
    if (before.length >= state.filtered) {
      // `before` ends with the pending text the filters saw (both end the text they saw).
      const head = before.slice(0, before.length - state.filtered);
      filteredFrom = head.length;
      return head + pending;
    }
    filteredFrom = -1;
    return before + pending.slice(state.filtered);
  }
  /** Where the pending text starts in `filteredSince`'s text (-1: it holds only its end). */
  let filteredFrom = -1;

  /**
   * The one scan resumed over what came since the last check (`state.scan`
   * set), before the check is decided: its verdict, and when it rules a
   * match out, its text kept for `releaseUnmatched` (`prescanned`). Ruled
   * out, every character it read is printable ASCII, a tab or a line break,
   * each read one (`readCount`): the step's count is its length. Else the
   * scan's state is left as it was (the check may be deferred, and the scan
   * then goes on from there next time).
   */
  function scanAhead(state: TextWindow, resumed: ScanState, scan: ResumableScan): number {
    const filtered = filteredSince(state, state.clean!);
    const { at, row, runs, letters, noted } = resumed;
    const verdict = scan.scan(filtered, resumed);
    if (verdict === MAY_MATCH) {
      resumed.at = at;
      resumed.row = row;
      resumed.runs = runs;
      resumed.letters = letters;
      resumed.noted = noted;
    } else {
      prescanned = filtered;
    }
    return verdict;
  }
  /** `scanAhead`'s text when it ruled a match out, for the check that follows (undefined otherwise). */
  let prescanned: string | undefined;

  /**
   * Early release when no guardrail may match the checked text (their
   * `mayMatch` says so): the check would pass it unchanged, so release up
   * to the hooks' cut at once, as `release` would, without a promise.
   * Undefined when a guardrail may match (then `release` runs the check).
   * `ahead`: what `scanAhead` said of this check's text (`MAY_MATCH`
   * there: the resumed scan is not asked again), undefined when not asked.
   */
  function releaseUnmatched(
    state: TextWindow,
    potentialStart: (pending: string, changedTo: number, filtered?: Filtered) => number,
    ahead?: number,
  ): ProcessorStep | undefined {
    const { reach, resumable } = chain;
    const { clean: before, scan: resumed } = state;
    let { pending } = state;
    // The filters' text (`filteredSince`): else the context and the pending
    // text, as the check would see them.
    let filtered: string;
    let at = -1;
    let scan: ScanState | undefined;
    let verdict: number;
    if (ahead !== undefined && ahead !== MAY_MATCH) {
      // The one scan, resumed, ruled everything since it began out (`scanAhead`).
      filtered = prescanned!;
      at = filteredFrom;
      scan = resumed;
      verdict = ahead;
    } else {
      if (before === undefined || (reach === undefined && resumed === undefined)) {
        const context = contextOf(state);
        filtered = context + pending;
        at = context.length;
      } else if (ahead === undefined) {
        filtered = filteredSince(state, before);
        at = filteredFrom;
      } else {
        filtered = '';
      }
      if (resumed !== undefined && resumable !== undefined) {
        scan = resumed;
        verdict = ahead ?? resumable.scan(filtered, scan);
        // Something since the scan began may match: the check's own text, from its start.
        if (verdict === MAY_MATCH) {
          const context = contextOf(state);
          filtered = context + pending;
          at = context.length;
          scan = scanStart();
          verdict = chain.verdictOf(filtered, scan);
        }
      } else {
        scan = resumable && scanStart();
        verdict = chain.verdictOf(filtered, scan);
      }
    }
    prescanned = undefined;
    state.scan = undefined;
    if (verdict === MAY_MATCH) {
      state.clean = undefined;
      return undefined;
    }
    if (verdict >= 0 && scan !== undefined) {
      // The one scan ruled it out: it goes on where it stopped next time,
      // from a `clean` that holds what its tests read behind that point
      // and the text left pending (set below, once the cut is known).
      state.scan = scan;
    } else if (reach !== undefined) {
      const clean = reachTail(filtered, reach);
      // A tail longer than the context a check reads (a long reach, or long
      // runs of blanks) is not kept: the next check filters its whole text,
      // so a check never reads more than without a reach.
      state.clean = clean.length <= 2 * contextLength ? clean : undefined;
    } else {
      state.clean = undefined;
    }
    // A pass adds nothing to a record the part already has.
    if (state.records.size < chain.count) {
      for (const record of chain.passed(filtered).records) {
        if (!state.records.has(record.guardrail)) state.records.set(record.guardrail, record);
      }
    }
    // Every filter said false about text ending with `pending`: the filtered
    // hooks; the fused ones when the one scan said so about a text ending
    // with all of it (read from the scanned string, flat by now).
    let hooks: Filtered = FILTERED;
    if (at >= 0) {
      pending = at === 0 ? filtered : filtered.slice(at);
      if (verdict >= 0) hooks = verdict > at ? SCANNED_NOTED : SCANNED;
    }
    // Read by the one scan, which ruled a match out: plain, so the hooks' chains skip their own test.
    if (hooks !== FILTERED) readsPlain(pending);
    const cut = cutBefore(state, pending, potentialStart(pending, 0, hooks));
    if (state.scan !== undefined) {
      // From what the scan's tests read behind where it goes on, or from
      // the text left pending, whichever starts first.
      const held = pending.length - cut;
      const from = Math.max(0, Math.min(state.scan.at - resumable!.left, filtered.length - held));
      state.clean = from === 0 ? filtered : filtered.slice(from);
      shiftScan(state.scan, -from);
    }
    // Ruled out by the one scan: printable ASCII, tabs and line breaks only, each read.
    const step = releaseText(state, pending, cut, pending.slice(0, cut), verdict >= 0);
    state.filtered = state.pending.length;
    return step;
  }

  /**
   * The last grapheme boundary at or before `at` in `pending`, which
   * follows the released text: decided on `pending` alone when the
   * characters around `at` join nothing (nearly always), else with the
   * released text before it (a flag's indicators may start there).
   */
  function cutBefore(state: TextWindow, pending: string, at: number): number {
    if (at <= 0) return 0;
    if (at >= pending.length) return pending.length;
    if (pending.charCodeAt(at) < 0x300 && pending.charCodeAt(at - 1) !== 0x200d) return at;
    const before = releasedTailOf(state);
    return (
      graphemeBoundaryBefore(before + pending, before.length + at, before.length) - before.length
    );
  }

  /**
   * The check of `pending` after a context (`tail`) the guardrails changed
   * at `changedAt`. A change inside text already released can only come
   * from where the context was cut (a match is never longer than the window
   * that followed it), and released text never changes: the context is
   * started again at the first word start after the change, up to
   * `CONTEXT_ROUNDS` times, and the first check that leaves its context as
   * it was is the verdict; else (no word start left, a block) the pending
   * text is judged on its own. Each restarted context is read raw where it
   * can be (`checkAfter` from where it starts; round 49: read with its
   * names as placeholders, `New York` ending a list of places stayed raw
   * where generate read an organisation).
   */
  async function contextPastChange(
    state: TextWindow,
    tail: string,
    pending: string,
    changedAt: number,
    usage: LanguageModelV4Usage | undefined,
  ): Promise<{ tail: string; text: string; result: ChainResult }> {
    for (let round = 0; round < CONTEXT_ROUNDS; round++) {
      const joined = tail + pending.slice(0, 2);
      let at = wordStartAfter(joined, changedAt + 1, tail.length);
      if (at < 0) break;
      at = outsideSpacedRun(joined, at);
      if (at <= changedAt) break;
      tail = tail.slice(at);
      const text = tail + pending;
      const result = await checkAfter(state, tail, pending, usage, false);
      if (result.trip) break;
      changedAt = commonPrefixLength(text, result.content);
      if (changedAt >= tail.length) return { tail, text, result };
    }
    return { tail: '', text: pending, result: await check(pending, usage) };
  }

  /** Releases what can no longer change. `final`: the part ended, release everything. */
  async function release(
    state: TextWindow,
    final: boolean,
    usage?: LanguageModelV4Usage,
  ): Promise<ProcessorStep> {
    const { pending } = state;
    let tail = contextOf(state);
    let text = tail + pending;
    let result = await checkAfter(state, tail, pending, usage);
    if (result.trip && !final) {
      // The block may come from a word cut by the end of the checked text
      // ("ass" of "assistant"): confirm on the text up to its last break
      // (before a spaced-out run that more text may continue).
      const lastBreak = lastSettledBreak(text);
      if (lastBreak <= tail.length) return deferred(state);
      result = await check(text.slice(0, lastBreak));
      if (!result.trip) return deferred(state);
    }
    const changedAt = result.trip ? text.length : commonPrefixLength(text, result.content);
    if (changedAt < tail.length) {
      ({ tail, text, result } = await contextPastChange(state, tail, pending, changedAt, usage));
    }
    // A record that counts what it changed (`invisibleText`'s `count`) counts
    // the held-back text too, which the next check reads and counts again:
    // such a check's records are taken for the text it releases (below).
    const counted = !final && !result.trip && result.records.some(countsChanges);
    if (!counted) aggregate(state, result);
    if (result.trip) {
      report(state);
      return { parts: [], trip: result.trip };
    }
    const modified = result.content;
    let released: string;
    let consumed: number;
    if (final) {
      released = modified.slice(tail.length);
      consumed = pending.length;
    } else {
      // Early: cut where the guardrails said, at a grapheme boundary. Else cut
      // `window` characters before the end at a word start, else a grapheme
      // boundary, so the next context can begin where this release ends and
      // no emoji is split.
      // The window counts the characters detectors read: a value with junk
      // between its characters is held back whole (round 24).
      const bound = potentialStart ? 0 : countedStart(text, window);
      const word = potentialStart
        ? -1
        : wordStartBefore(text, bound, Math.max(tail.length, countedStart(text, window, bound)));
      // The changes lie between `prefix` and `changeEnd` of `text`.
      // (Computed once: `modifiedCut` reads them too.)
      const prefix = commonPrefixLength(text, modified);
      const suffix =
        modified === text
          ? 0
          : commonSuffixLength(text, modified, Math.min(text.length, modified.length) - prefix);
      const changeEnd = modified === text ? 0 : text.length - suffix;
      const rawCut = potentialStart
        ? tail.length +
          potentialStart(
            pending,
            changeEnd - tail.length,
            UNFILTERED,
            modifiedCut(text, modified, tail.length, prefix, suffix, potentialStart) - tail.length,
            chain.ruledOut(text),
          )
        : bound;
      const cut =
        (word > tail.length ? word : graphemeBoundaryBefore(text, rawCut, tail.length)) -
        tail.length;
      if (prefix >= tail.length + cut) {
        consumed = cut;
        released = pending.slice(0, cut);
      } else if (changeEnd <= tail.length + cut) {
        // Every change ends before the cut: release the modified text up to it.
        consumed = cut;
        released = modified.slice(tail.length, tail.length + cut + (modified.length - text.length));
      } else if (potentialStart) {
        // A change reaches past the cut (a value still held is redacted in
        // the whole): no match straddles the cut, so the text before it is
        // judged alone, and released if that agrees with the whole.
        ({ consumed, released } = await releaseAtCut(state, tail, pending, modified, cut));
      } else {
        // A change reaches into the held-back window (text full of addresses
        // changes everywhere): cut at a line or word break instead, if the
        // text up to it is judged the same alone as within the whole.
        const atBreak = await releaseAtBreak(state, tail, pending, modified, cut);
        if (atBreak) {
          ({ consumed, released } = atBreak);
        } else {
          // No safe break: release only what precedes the first change.
          consumed = Math.max(0, graphemeBoundaryBefore(text, prefix, tail.length) - tail.length);
          released = pending.slice(0, consumed);
        }
      }
    }
    if (counted && consumed > 0) {
      // (A block of the shorter text is not this check's verdict: then its own records.)
      const part =
        consumed === pending.length ? result : await check(tail + pending.slice(0, consumed));
      aggregate(state, part.trip ? result : part);
    }
    const step = releaseText(state, pending, consumed, released);
    // Kept only when the verdict changed text it held back (what a later check must not release raw).
    if (
      !final &&
      consumed > 0 &&
      modified.slice(tail.length + released.length) !== pending.slice(consumed)
    ) {
      state.lastRead = { context: tail, raw: pending.slice(0, consumed), released };
    }
    return step;
  }

  /**
   * Releases `released` in place of the first `consumed` pending characters.
   * `plain`: it holds only characters a detector reads one each (the one
   * scan saw nothing else), so its count is its length.
   */
  function releaseText(
    state: TextWindow,
    pending: string,
    consumed: number,
    released: string,
    plain = false,
  ): ProcessorStep {
    state.releasedCount += released.length;
    state.lastRead = undefined;
    if (released.length > 0) {
      const pieces = state.releasedPieces;
      const reads = state.releasedPiecesRead;
      const read = plain
        ? Math.min(released.length, 2 * contextLength)
        : readCount(released, 0, 2 * contextLength);
      const raw = pending.slice(0, consumed);
      pieces.push(released);
      // A raw text longer than its release by more than twice the context
      // (a long value held, then redacted) is not kept (bounded memory):
      // no check reads the raw context while its piece is kept.
      state.rawPieces.push(
        raw === released
          ? released
          : raw.length <= released.length + 2 * contextLength
            ? raw
            : undefined,
      );
      if (raw !== released) state.changedPieces++;
      reads.push(read);
      state.releasedPiecesReadSum += read;
      // Fewer than `2 × contextLength` read (each piece's count stops there): all of it is kept.
      state.releasedAll &&= state.releasedPiecesReadSum < 2 * contextLength;
      // Pieces before those that hold the last `2 × contextLength` characters read go.
      while (state.releasedPiecesReadSum - reads[0]! >= 2 * contextLength) {
        state.releasedPiecesReadSum -= reads.shift()!;
        if (pieces.shift() !== state.rawPieces.shift()) state.changedPieces--;
      }
    }
    state.pending = pending.slice(consumed);
    state.nextCheckAt = nextCheckAfter(state);
    state.checkedTo = state.pending.length;
    state.readSince = -1;
    state.waited = false;
    return { parts: deltaParts(state, pending, consumed, released) };
  }

  /**
   * The hooks held back more than `holdBound` characters read: what is held
   * is judged (its context and the pending text), and a block there trips
   * as any window check's would; otherwise the part trips here, failing
   * closed, since no check of a bounded window can judge the text after it
   * as `generate` would (an open override turns what follows; a PEM block
   * is matched to the end of the text). The record names the guardrail whose
   * hook holds back the most and says why, without the held text; it
   * replaces that guardrail's window record (one record per guardrail).
   */
  async function heldPastBound(state: TextWindow): Promise<ProcessorStep> {
    const result = await check(contextOf(state) + state.pending);
    aggregate(state, result);
    if (result.trip) {
      report(state);
      return { parts: [], trip: result.trip };
    }
    let holder = output[0]!;
    let earliest = Number.POSITIVE_INFINITY;
    for (const guardrail of output) {
      let at: number;
      try {
        at = guardrail.potentialMatchStart!(state.pending);
      } catch {
        at = 0;
      }
      if (!Number.isInteger(at) || at < 0) at = 0;
      if (at < earliest) {
        earliest = at;
        holder = guardrail;
      }
    }
    const trip: GuardrailRecord = {
      guardrail: holder.name,
      kind: 'output',
      status: 'blocked',
      reason: `window mode: more than ${holdBound} characters held back by a match that does not end (an open bidirectional override, a PEM block without its END line); stream such answers in 'hold' mode or with a larger stream.window`,
      info: { heldBack: readCount(state.pending, 0, state.pending.length), bound: holdBound },
      durationMs: 0,
    };
    state.records.delete(trip.guardrail);
    report(state);
    call.records.push(trip);
    emitEvent(call.onEvent, trip);
    return { parts: [], trip };
  }

  function deferred(state: TextWindow): ProcessorStep {
    state.nextCheckAt = nextCheckAfter(state);
    state.checkedTo = state.pending.length;
    state.readSince = -1;
    state.waited = false;
    return { parts: [] };
  }

  /**
   * A watcher tripped: nothing more is released. The parts' records so far
   * are reported, then the trip, which replaces its guardrail's own window
   * record (one record per guardrail).
   */
  function watchTripped(trip: GuardrailRecord): ProcessorStep {
    for (const state of windows.values()) {
      state.records.delete(trip.guardrail);
      report(state);
    }
    call.records.push(trip);
    emitEvent(call.onEvent, trip);
    return { parts: [], trip };
  }

  async function endPart(key: string, state: TextWindow, endPart: Part): Promise<ProcessorStep> {
    const ended = watch?.partEnd({ type: state.type, id: state.id, judged: true });
    const trip = ended && (await ended);
    if (trip) return watchTripped(trip);
    const step = await release(state, true);
    if (step.trip) return step;
    windows.delete(key);
    report(state);
    heldMetadataParts(state, step.parts);
    if (!state.started) step.parts.push(state.startPart);
    step.parts.push(endPart);
    return step;
  }

  /** The window of the last delta: the next delta most likely belongs to it too. */
  let recent: TextWindow | undefined;

  function accept(part: Part): Promise<ProcessorStep> | ProcessorStep {
    if (
      recent !== undefined &&
      (part.type === 'text-delta' || part.type === 'reasoning-delta') &&
      part.id === recent.id &&
      (part.type === 'text-delta') === (recent.type === 'text')
    ) {
      return part.providerMetadata === undefined
        ? acceptDelta(recent, part.delta)
        : acceptMarked(recent, part.delta, part.providerMetadata);
    }
    const key = blockKey(part, judged);
    if (key === undefined) return { parts: [part] };
    if (part.type === 'text-start' || part.type === 'reasoning-start') {
      recent = undefined;
      windows.set(key, {
        type: part.type === 'text-start' ? 'text' : 'reasoning',
        id: part.id,
        startPart: part,
        started: false,
        pending: '',
        releasedPieces: [''],
        rawPieces: [''],
        changedPieces: 0,
        releasedPiecesRead: [0],
        releasedPiecesReadSum: 0,
        releasedAll: true,
        nextCheckAt: potentialStart ? stepAfter(0) : 2 * window,
        checkedTo: 0,
        readSince: -1,
        waited: false,
        releasedCount: 0,
        records: new Map(),
        clean: undefined,
        filtered: 0,
        scan: undefined,
        marks: undefined,
        heldMetadata: undefined,
      });
      return { parts: [] };
    }
    const state = windows.get(key);
    if (!state) return { parts: [part] }; // a delta without its start: nothing to hold it against
    if (part.type === 'text-delta' || part.type === 'reasoning-delta') {
      recent = state;
      return part.providerMetadata === undefined
        ? acceptDelta(state, part.delta)
        : acceptMarked(state, part.delta, part.providerMetadata);
    }
    recent = undefined;
    return endPart(key, state, part); // text-end / reasoning-end
  }

  /**
   * A delta with provider metadata: its metadata goes with the release of
   * its last character when it cannot quote the answer, else at the block's
   * end (`heldMetadata`), as do all after it.
   */
  function acceptMarked(
    state: TextWindow,
    delta: string,
    metadata: SharedV4ProviderMetadata,
  ): Promise<ProcessorStep> | ProcessorStep {
    if (state.heldMetadata === undefined && quotesNothing(metadata)) {
      state.marks ??= [];
      state.marks.push({ at: state.pending.length + delta.length, metadata });
    } else {
      state.heldMetadata ??= [];
      state.heldMetadata.push(metadata);
    }
    return acceptDelta(state, delta);
  }

  function acceptDelta(state: TextWindow, delta: string): Promise<ProcessorStep> | ProcessorStep {
    state.pending += delta;
    if (state.readSince >= 0) state.readSince += readCount(delta, 0, delta.length);
    if (state.pending.length < state.nextCheckAt) return HELD;
    return checkDelta(state, delta.length);
  }

  /** A delta reached the next check's length: a check, unless the step's characters read fall short. */
  function checkDelta(state: TextWindow, delta: number): Promise<ProcessorStep> | ProcessorStep {
    // The step counts the characters detectors read, as the window does
    // (round 27): text with junk between its letters (a ZWSP flood,
    // combining marks) is checked once per step of what a detector reads,
    // not once per 72 code units, each check then re-reading its context
    // and held-back text for a few new characters read. Counted once over
    // the step's text, then delta by delta.
    // A check of text that ends in punctuation waits for one more delta,
    // once a step (round 46). The filters' tests at punctuation read the
    // characters after it (`.` of `e.` may begin a host name, `-` a range):
    // at the text's end they say maybe, and the check then asks each filter
    // and starts the one scan again, about one check in a hundred on prose,
    // each costing several checks' work. Decided on the text alone (and
    // the delta's length), so the window releases at the same points with
    // or without the one scan. Only after a short delta (`WAIT_DELTA`):
    // waiting for the next of long deltas would hold all of it back too.
    if (!state.waited && delta <= WAIT_DELTA && endsInPunctuation(state.pending)) {
      state.waited = true;
      state.nextCheckAt = state.pending.length + 1;
      return HELD;
    }
    const step = stepAfter(state.releasedCount);
    // Nearly every check of prose: the one scan, resumed over what came
    // since (it reads those characters anyway), rules a match out, so they
    // are plain and the step's count is its length (at least `step` here):
    // no `readCount` over the step first (round 37).
    let ahead: number | undefined;
    const { scan, clean } = state;
    if (
      state.readSince < 0 &&
      scan !== undefined &&
      clean !== undefined &&
      chain.resumable !== undefined &&
      potentialStart &&
      state.pending.length - state.checkedTo >= step
    ) {
      ahead = scanAhead(state, scan, chain.resumable);
    }
    if (ahead === undefined || ahead === MAY_MATCH) {
      if (state.readSince < 0) state.readSince = readCount(state.pending, state.checkedTo, step);
      if (state.readSince < step) {
        state.nextCheckAt = state.pending.length + step - state.readSince;
        return HELD;
      }
    }
    // What the last check left held back (the first `checkedTo` pending
    // characters) is past the bound: judged, then blocked unless released.
    if (
      potentialStart &&
      state.checkedTo > holdBound &&
      readCount(state.pending, 0, holdBound + 1, state.checkedTo) > holdBound
    ) {
      prescanned = undefined;
      return heldPastBound(state);
    }
    return (
      (potentialStart && releaseUnmatched(state, potentialStart, ahead)) || release(state, false)
    );
  }

  return {
    // Not async: a delta that stays within the window (and trips no watcher) is held without a promise.
    push(part) {
      // Nearly every part: a text delta of the last delta's part, with no
      // watcher and no metadata, that stays short of the next check. Held
      // here, without `accept`'s and `acceptDelta`'s tests.
      const state = recent;
      if (
        watch === undefined &&
        state !== undefined &&
        part.type === 'text-delta' &&
        state.readSince < 0 &&
        part.id === state.id &&
        state.type === 'text' &&
        part.providerMetadata === undefined
      ) {
        const pending = state.pending + part.delta;
        state.pending = pending;
        if (pending.length < state.nextCheckAt) return HELD;
        return checkDelta(state, part.delta.length);
      }
      if (watch !== undefined && (part.type === 'text-delta' || part.type === 'reasoning-delta')) {
        const type = part.type === 'text-delta' ? 'text' : 'reasoning';
        const watched = watch.delta(part.delta, { type, id: part.id, judged: judged(type) });
        if (watched !== undefined) {
          return watched.then(trip => (trip ? watchTripped(trip) : accept(part)));
        }
      }
      return accept(part);
    },

    async end() {
      // Parts the model left open are judged and released as they are: open,
      // their start released even with no text (as hold mode releases it);
      // no end is made up for them.
      recent = undefined;
      const parts: Part[] = [];
      /** Whether each part released here had released anything before: a trip drops what it released here. */
      const startedBefore = new Map<TextWindow, boolean>();
      const tripped = (step: ProcessorStep): ProcessorStep => {
        // What this end released is dropped with the trip: `close` ends only
        // the parts released before it (all of them, the ones judged here too).
        for (const [state, started] of startedBefore) state.started = started;
        return { ...step, parts: [] };
      };
      for (const state of windows.values()) {
        const ended = watch?.partEnd({ type: state.type, id: state.id, judged: true });
        const trip = ended && (await ended);
        if (trip) return tripped(watchTripped(trip));
        startedBefore.set(state, state.started);
        const step = await release(state, true);
        if (step.trip) return tripped(step);
        report(state);
        heldMetadataParts(state, step.parts);
        if (!state.started) {
          state.started = true;
          parts.push(state.startPart);
        }
        parts.push(...step.parts);
      }
      windows.clear();
      return { parts };
    },

    close() {
      recent = undefined;
      const parts: Part[] = [];
      for (const state of windows.values()) {
        if (state.started) parts.push({ type: `${state.type}-end`, id: state.id } as Part);
      }
      windows.clear();
      return parts;
    },
  };
}
