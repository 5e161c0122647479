import type {
  LanguageModelV4CallOptions,
  LanguageModelV4Prompt,
  LanguageModelV4ToolResultOutput,
  LanguageModelV4ToolResultPart,
} from '@ai-sdk/provider';
import { type ChainContext, runChain } from '../core/chain';
import { emitEvent } from '../core/events';
import { sha256Hex } from '../core/sha256-hex';
import {
  cutServerId,
  cutToolName,
  shownToolCallIdOf,
  shownToolName,
} from '../core/shown-tool-calls';
import type {
  Guardrail,
  GuardrailEventListener,
  GuardrailMetadata,
  GuardrailRecord,
} from '../core/types';
import { defaultBlockedMessage } from '../tools/blocked-output';
import { canonicalJson } from '../tools/canonical-json';
import {
  type CharCodeArray,
  MIN_CODES,
  restoreCharCodeArrays,
  withCharCodeTexts,
} from '../tools/char-code-text';
import {
  checkModelOutputTexts,
  foundByModifiers,
  type Judged,
  modelOutputMemo,
  UNREADABLE_FILE,
  type UnreadableFiles,
  unreadableFileReason,
} from '../tools/model-output-check';
import { parseModifiedJson } from '../tools/quote-redacted-literals';
import { serverIdOf } from './tool-definitions';
import {
  type CachedVerdict,
  cachedBlockRecord,
  toCachedVerdict,
  type VerdictCache,
  type VerdictSlot,
} from './verdict-cache';

/** Most characters of text judged in one tool result (all its texts together); a longer one is withheld. */
export const DEFAULT_MAX_TOOL_OUTPUT_LENGTH = 1_000_000;
/** Deepest nesting of a JSON tool result judged; a deeper one is withheld. */
export const MAX_TOOL_OUTPUT_DEPTH = 64;
/** Most texts (`content` parts) judged in one tool result; more is withheld. */
export const MAX_TOOL_OUTPUT_TEXTS = 1_000;
/** Longest tool name or tool call id a judged tool result may carry (both go into records). */
export const MAX_TOOL_ID_LENGTH = 256;
/** Name of the record of a tool result the middleware could not read within its limits. */
export const TOOL_OUTPUT_UNREADABLE = 'tool-output-unreadable';

/** Everything judging the tool results of one call's prompt needs. */
export interface ToolOutputJudgeOptions {
  /** The `tool_output` guardrails, in order. */
  guardrails: readonly Guardrail[];
  /** Verdicts by tool name and text hash (a cache of its own, apart from input verdicts). */
  cache: VerdictCache;
  /** The prompt to judge (after the input guardrails' modifications). */
  prompt: LanguageModelV4Prompt;
  /** The call's tools: a tool `guardTools` gave a `serverId` gets it in records. */
  tools: LanguageModelV4CallOptions['tools'];
  metadata: GuardrailMetadata;
  state: Map<string, unknown>;
  step: number | undefined;
  abortSignal: AbortSignal;
  onEvent: GuardrailEventListener | undefined;
  defaultTimeoutMs: number;
  /** Most characters judged per tool result. Default {@link DEFAULT_MAX_TOOL_OUTPUT_LENGTH}. */
  maxLength?: number;
  /** `'block'`: a result holding a file no guardrail reads is withheld. Default `'pass'`. */
  unreadableFiles?: UnreadableFiles;
  /** With `retry`: the attempt whose response holds the results (a provider-executed tool's), tagged on the records. */
  attempt?: number;
}

/** The prompt after its tool results were judged. */
export interface ToolOutputResult {
  /** The prompt with modified outputs put back and withheld ones replaced (the given prompt when none was). */
  prompt: LanguageModelV4Prompt;
  records: GuardrailRecord[];
  /** The record of the first tool result withheld (blocked or unreadable), if any. */
  trip?: GuardrailRecord;
  /** How many tool results were withheld. */
  withheld: number;
  /** How many verdicts came from the cache instead of a new judgment. */
  cachedVerdicts: number;
}

/** How a text was judged: as a text the model reads, or as the canonical JSON of a value. */
type JudgedForm = 'text' | 'json';

/** Ends the lookup pass over an output early (never reported: the judging pass decides). */
const PREFETCH_STOP: GuardrailRecord = {
  guardrail: TOOL_OUTPUT_UNREADABLE,
  kind: 'tool_output',
  status: 'error',
  durationMs: 0,
};

/** Where one tool result sits in the prompt. */
interface ToolResultPlace {
  message: number;
  part: number;
  result: LanguageModelV4ToolResultPart;
}

/**
 * The tool results of a prompt, in prompt order: every `tool-result` part of
 * a tool message, and those a provider-executed tool left in an assistant
 * message.
 */
function toolResultsOf(prompt: LanguageModelV4Prompt): ToolResultPlace[] {
  const places: ToolResultPlace[] = [];
  prompt.forEach((message, index) => {
    if (message.role !== 'tool' && message.role !== 'assistant') return;
    message.content.forEach((part, p) => {
      if (part.type === 'tool-result') places.push({ message: index, part: p, result: part });
    });
  });
  return places;
}

/**
 * What one walk of a JSON value against the limits found, enough to tell
 * the problem under any budget up to `maxLength` ({@link jsonLimitProblem}):
 * both passes over a tool result share one walk.
 */
export interface JsonWalk {
  /** Stopped longer than `maxLength` at a size check, before any member too deep. */
  tooLong: boolean;
  /** Stopped at a member nested deeper than {@link MAX_TOOL_OUTPUT_DEPTH}. */
  tooDeep: boolean;
  /** The size at the last size check before that member (-1: none), else the size. */
  size: number;
}

/**
 * Walks a JSON value for the limits: its depth (nested deeper than
 * {@link MAX_TOOL_OUTPUT_DEPTH}) and a lower bound of its length as JSON
 * (every value is at least one character, every string at least its
 * length). Iterative, so depth costs no call stack, and it stops at the
 * first limit, so a 10 MB value costs at most `maxLength` steps before
 * canonical JSON (recursive) is built. The size is checked at the same
 * points as ever, and only grows, so the size at the last check before a
 * member too deep says whether a smaller budget was met first.
 */
export function walkJson(value: unknown, maxLength: number): JsonWalk {
  // Only arrays and objects go on the stack (with their depth); leaves are counted in place.
  const objects: object[] = [];
  const depths: number[] = [];
  let size = 0;
  let checked = -1;
  const over = () => {
    checked = size;
    return size > maxLength;
  };
  const long = () => ({ tooLong: true, tooDeep: false, size });
  const deep = () => ({ tooLong: false, tooDeep: true, size: checked });
  /** Counts one value: its size now, and later its members when it is an array or object. */
  const visit = (item: unknown, depth: number): boolean => {
    if (typeof item === 'string') {
      size += item.length + 2;
    } else {
      size += 1;
      if (item !== null && typeof item === 'object') {
        if (depth > MAX_TOOL_OUTPUT_DEPTH) return false;
        objects.push(item);
        depths.push(depth);
      }
    }
    return true;
  };
  visit(value, 0);
  while (objects.length > 0) {
    if (over()) return long();
    const current = objects.pop()!;
    const depth = depths.pop()!;
    if (Array.isArray(current)) {
      // Each item is at least one character and a comma: a huge array is refused before it is walked.
      size += current.length;
      if (over()) return long();
      for (const item of current) if (!visit(item, depth + 1)) return deep();
      continue;
    }
    for (const key in current) {
      if (!Object.hasOwn(current, key)) continue;
      const item = (current as Record<string, unknown>)[key];
      // A member JSON drops (undefined, a function) adds nothing.
      if (item === undefined || typeof item === 'function' || typeof item === 'symbol') continue;
      size += key.length + 3;
      if (over()) return long();
      if (!visit(item, depth + 1)) return deep();
    }
  }
  return { tooLong: size > maxLength, tooDeep: false, size };
}

/**
 * Why a walked JSON value cannot be judged within `budget` (what is left of
 * `maxLength` for this result), or undefined when it can: what a walk that
 * stopped at `budget` would have said.
 */
export function jsonLimitProblem(
  walk: JsonWalk,
  budget: number,
  maxLength: number,
): string | undefined {
  const tooLong = `the text is longer than ${maxLength} characters`;
  if (walk.tooLong) return tooLong;
  if (walk.tooDeep) {
    return walk.size > budget
      ? tooLong
      : `the JSON is nested deeper than ${MAX_TOOL_OUTPUT_DEPTH} levels`;
  }
  return walk.size > budget ? tooLong : undefined;
}

/**
 * A modified JSON value (the parse of a modified canonical JSON text, whose
 * keys are sorted) in the key order of the original wherever an object kept
 * the same keys, so a redaction changes the values it redacted and nothing
 * else the model reads. Recursion follows the original, whose depth the
 * limits bound.
 */
export function inKeyOrderOf(original: unknown, modified: unknown): unknown {
  if (Array.isArray(original) && Array.isArray(modified)) {
    return original.length === modified.length
      ? modified.map((item, i) => inKeyOrderOf(original[i], item))
      : modified;
  }
  // From here on both must be objects that are not arrays.
  if (typeof original !== 'object' || original === null || Array.isArray(original)) {
    return modified;
  }
  if (typeof modified !== 'object' || modified === null || Array.isArray(modified)) {
    return modified;
  }
  const keys = Object.keys(original).filter(key => Object.hasOwn(modified, key));
  if (keys.length !== Object.keys(modified).length) return modified;
  const ordered: Record<string, unknown> = {};
  for (const key of keys) {
    // Defined, not assigned: `ordered.__proto__ = x` would set the prototype and drop the key.
    Object.defineProperty(ordered, key, {
      value: inKeyOrderOf(
        (original as Record<string, unknown>)[key],
        (modified as Record<string, unknown>)[key],
      ),
      enumerable: true,
      writable: true,
      configurable: true,
    });
  }
  return ordered;
}

/**
 * In canonical JSON: an array that starts with {@link MIN_CODES} numbers,
 * in it or in arrays in it (`[[52,49,49,49],[49,…`: it may be character
 * codes, read whole by `withCharCodeTexts`, other numbers among them).
 */
const MAYBE_CHAR_CODES = new RegExp(`\\[(?:\\[*-?\\d[\\d.eE+-]*\\]*,){${MIN_CODES - 1}}\\[*-?\\d`);

/**
 * Judges every tool result in a call's prompt with the `tool_output`
 * guardrails, before the model reads it: the text of its output by type (the
 * extraction `guardTools` uses for `toModelOutput`: `text`, `error-text`, an
 * `execution-denied` reason and each text of a `content` output as they are;
 * `json` and `error-json` as canonical JSON). Each text runs the chain in
 * order, with verdicts remembered by guardrail, tool name and text hash (a
 * re-sent history is not judged again). A modification is put back in place
 * (a JSON one must still parse); a block, an `error`, or an output that
 * cannot be read within the limits withholds that output: the model reads
 * the blocked message instead, as for a result `guardTools` withheld.
 * Records name the tool and the call, never the output.
 */
export async function judgeToolOutputs(options: ToolOutputJudgeOptions): Promise<ToolOutputResult> {
  const { prompt, guardrails, cache, metadata, onEvent } = options;
  const maxLength = options.maxLength ?? DEFAULT_MAX_TOOL_OUTPUT_LENGTH;
  const places = toolResultsOf(prompt);
  const records: GuardrailRecord[] = [];
  if (places.length === 0 || guardrails.length === 0) {
    return { prompt, records, withheld: 0, cachedVerdicts: 0 };
  }
  const serverIds = new Map<string, string>();
  for (const tool of options.tools ?? []) {
    const serverId = tool.type === 'function' ? serverIdOf(tool) : undefined;
    if (serverId !== undefined) serverIds.set(tool.name, serverId);
  }

  // Remembered verdicts, looked up once per guardrail and text: the lookups of
  // every text as sent start together (one round trip, not one per text).
  const hashes = new Map<string, Promise<string>>();
  type Lookup = { slot?: VerdictSlot; verdict?: CachedVerdict };
  const lookups = new Map<string, Promise<Lookup>>();
  /**
   * What a verdict is remembered for: the tool's name (one text from two tools
   * is two verdicts), the form (a JSON result's text is judged with its parsed
   * value in `ctx.value`, a text result's with the string) and the text. The
   * name's length comes first: the client writes names, and "a\0b" + "c"
   * must not meet "a" + "b\0c".
   */
  const judgedAs = (toolName: string, form: JudgedForm, text: string) =>
    `${toolName.length}:${toolName}\u0000${form}\u0000${text}`;
  const lookupKey = (index: number, toolName: string, form: JudgedForm, text: string) =>
    `${index}\u0000${judgedAs(toolName, form, text)}`;
  const lookup = (index: number, toolName: string, form: JudgedForm, text: string) => {
    const named = judgedAs(toolName, form, text);
    const key = lookupKey(index, toolName, form, text);
    let found = lookups.get(key);
    if (!found) {
      found = (async () => {
        let hashed = hashes.get(named);
        if (!hashed) {
          hashed = sha256Hex(named);
          hashes.set(named, hashed);
        }
        const hash = await hashed;
        const slot = await cache.slot(guardrails[index]!, hash, 'tool_output', metadata);
        return slot ? { slot, verdict: await cache.get(slot) } : {};
      })().catch(() => ({})); // a lookup that fails is a miss: the text is judged
      lookups.set(key, found);
    }
    return found;
  };
  // The limit walk of each JSON value, done once for both passes.
  const walks = new Map<unknown, JsonWalk>();
  const walkOf = (value: unknown) => {
    let walk = walks.get(value);
    if (!walk) {
      walk = walkJson(value, maxLength);
      walks.set(value, walk);
    }
    return walk;
  };
  // A text file's decoded text and a content part's fields, computed once for both passes.
  const memo = modelOutputMemo();
  // What each JSON output is judged as, built once: its canonical JSON, with
  // arrays of character codes read as their text (as `guardTools` reads a
  // result's: round 21, a forged `{ data: [99,97,114,100,…] }` reached the
  // model unread). The value itself is read once, by canonical JSON; the
  // arrays are looked for in a parse of that text, only when it has a run
  // of numbers one could be.
  type JsonReading = { text: string; reading: unknown; arrays: CharCodeArray[] };
  const canonical = new Map<unknown, JsonReading>();
  const canonicalOf = (value: unknown) => {
    let judged = canonical.get(value);
    if (judged === undefined) {
      const text = canonicalJson(value);
      judged = { text, reading: value, arrays: [] };
      if (MAYBE_CHAR_CODES.test(text)) {
        const { reading, arrays } = withCharCodeTexts(JSON.parse(text));
        if (arrays.length > 0) judged = { text: canonicalJson(reading), reading, arrays };
      }
      canonical.set(value, judged);
    }
    return judged;
  };
  /** A tool name and call id records may carry: strings, and short (the client wrote them). */
  const validIds = ({ toolName, toolCallId }: LanguageModelV4ToolResultPart) =>
    typeof toolName === 'string' &&
    typeof toolCallId === 'string' &&
    toolName.length <= MAX_TOOL_ID_LENGTH &&
    toolCallId.length <= MAX_TOOL_ID_LENGTH;

  await Promise.all(
    places.map(({ result }) => {
      if (!validIds(result)) return undefined;
      // The limits of one result hold here too: past them the judging pass
      // refuses it, so the texts after them are not hashed or looked up (a
      // result of 20,000 tiny texts cost 20,000 store reads per guardrail).
      let texts = 0;
      let length = 0;
      const withinLimits = (added: number) => {
        texts++;
        length += added;
        return texts <= MAX_TOOL_OUTPUT_TEXTS && length <= maxLength;
      };
      return checkModelOutputTexts(result.output, {
        memo,
        // A file whose text cannot fit is not decoded here: the pass below refuses it.
        beforeDecoding: fewest => (fewest > maxLength ? { trip: PREFETCH_STOP } : undefined),
        text: async text => {
          if (!withinLimits(text.length)) return { trip: PREFETCH_STOP };
          guardrails.forEach((_, index) => void lookup(index, result.toolName, 'text', text));
          return { value: text };
        },
        json: async value => {
          try {
            if (jsonLimitProblem(walkOf(value), maxLength - length, maxLength) === undefined) {
              const { text } = canonicalOf(value);
              if (!withinLimits(text.length)) return { trip: PREFETCH_STOP };
              guardrails.forEach((_, index) => void lookup(index, result.toolName, 'json', text));
            }
          } catch {
            // Judged (and failed closed) below.
          }
          return { value };
        },
      });
    }),
  );

  let output: LanguageModelV4Prompt | undefined;
  let trip: GuardrailRecord | undefined;
  let withheld = 0;
  let cachedVerdicts = 0;
  /** Puts `replacement` in place of the output of the tool result at `place`. */
  const replace = (place: ToolResultPlace, replacement: LanguageModelV4ToolResultOutput) => {
    output ??= [...prompt];
    const message = output[place.message] as Extract<
      LanguageModelV4Prompt[number],
      { role: 'tool' | 'assistant' }
    >;
    const content = [...message.content] as typeof message.content;
    content[place.part] = { ...place.result, output: replacement };
    output[place.message] = { ...message, content } as LanguageModelV4Prompt[number];
  };

  for (const place of places) {
    if (!validIds(place.result)) {
      // Records carry the tool name and call id: a huge or non-string one is not copied into them.
      const record: GuardrailRecord = {
        guardrail: TOOL_OUTPUT_UNREADABLE,
        kind: 'tool_output',
        status: 'error',
        reason: `a tool result was not judged: its tool name or call id is not a string of at most ${MAX_TOOL_ID_LENGTH} characters`,
        durationMs: 0,
      };
      if (options.attempt !== undefined) record.attempt = options.attempt;
      records.push(record);
      emitEvent(onEvent, record);
      trip ??= record;
      withheld++;
      replace(place, { type: 'text', value: defaultBlockedMessage(record) });
      continue;
    }
    const { toolName, toolCallId } = place.result;
    const serverId = serverIds.get(toolName);
    const context: ChainContext = {
      kind: 'tool_output',
      messages: prompt,
      metadata,
      state: options.state,
      toolName,
      toolCallId,
      ...(serverId !== undefined && { serverId }),
      ...(options.step !== undefined && { step: options.step }),
      ...(options.attempt !== undefined && { attempt: options.attempt }),
    };
    const ownRecord = (
      guardrail: string,
      status: 'blocked' | 'error',
      reason: string,
    ): GuardrailRecord => {
      const record: GuardrailRecord = {
        guardrail,
        kind: 'tool_output',
        status,
        reason,
        durationMs: 0,
        toolName: cutToolName(toolName),
        toolCallId: shownToolCallIdOf(options.state, toolCallId),
      };
      if (serverId !== undefined) record.serverId = cutServerId(serverId);
      if (options.attempt !== undefined) record.attempt = options.attempt;
      records.push(record);
      emitEvent(onEvent, record);
      return record;
    };
    const unreadable = (why: string) =>
      ownRecord(
        TOOL_OUTPUT_UNREADABLE,
        'error',
        `the result of tool ${shownToolName(toolName)} was not judged: ${why}`,
      );

    /** Runs the guardrails over one text, with the cache; `json`: a modification must parse. */
    const judgeText = async (
      text: string,
      json: boolean,
      value: unknown,
    ): Promise<Judged<string>> => {
      let current = text;
      let currentValue = value;
      for (let index = 0; index < guardrails.length; index++) {
        const guardrail = guardrails[index]!;
        const { slot, verdict } = await lookup(index, toolName, json ? 'json' : 'text', current);
        let next: string;
        if (verdict?.action === 'block') {
          const record = cachedBlockRecord(guardrail, verdict, 'tool_output', {
            toolName: cutToolName(toolName),
            toolCallId: shownToolCallIdOf(options.state, toolCallId),
            ...(serverId !== undefined && { serverId }),
          });
          if (options.attempt !== undefined) record.attempt = options.attempt;
          records.push(record);
          emitEvent(onEvent, record);
          cachedVerdicts++;
          return { trip: record };
        }
        if (verdict) {
          cachedVerdicts++;
          next = verdict.action === 'modify' ? verdict.content : current;
        } else {
          const result = await runChain(
            [guardrail],
            current,
            { ...context, value: currentValue },
            {
              abortSignal: options.abortSignal,
              onEvent,
              defaultTimeoutMs: options.defaultTimeoutMs,
            },
          );
          records.push(...result.records);
          const record = result.records[0];
          if (slot && record) {
            const remembered = toCachedVerdict(record, result.content);
            if (remembered) {
              await cache.set(slot, remembered);
              // The same text again in this prompt (one result sent twice) takes this verdict.
              lookups.set(
                lookupKey(index, toolName, json ? 'json' : 'text', current),
                Promise.resolve({ slot, verdict: remembered }),
              );
            }
          }
          if (result.trip) return { trip: result.trip };
          next = result.content;
        }
        if (next === current) continue;
        if (json) {
          try {
            // A redacted bare number (`"phone":[PHONE_NUMBER]`) becomes a JSON string.
            ({ text: next, value: currentValue } = parseModifiedJson(current, next));
          } catch {
            // The model would read text that is not the JSON output any more: withheld.
            return {
              trip: ownRecord(
                guardrail.name,
                'blocked',
                `modified the result of tool ${shownToolName(toolName)} into text that is not valid JSON`,
              ),
            };
          }
        } else {
          currentValue = next;
        }
        current = next;
      }
      return { value: current };
    };

    let length = 0;
    let texts = 0;
    /** The limits of one tool result: a text past them fails closed before any guardrail runs. */
    const overLimit = (added: number, binaryText?: string): GuardrailRecord | undefined => {
      length += added;
      if (++texts > MAX_TOOL_OUTPUT_TEXTS) {
        return unreadable(`it holds more than ${MAX_TOOL_OUTPUT_TEXTS} texts`);
      }
      if (length > maxLength) {
        // A binary file's readable text says what it is (as the middleware's reason does).
        const what = binaryText !== undefined && added > maxLength ? binaryText : 'the text is';
        return unreadable(`${what} longer than ${maxLength} characters`);
      }
      return undefined;
    };

    const judgedFrom = records.length;
    const checked = await checkModelOutputTexts(place.result.output, {
      memo,
      ...(options.unreadableFiles === 'block' && {
        unreadableFile: (mediaType: unknown) => ({
          trip: ownRecord(
            UNREADABLE_FILE,
            'blocked',
            `${unreadableFileReason(mediaType)}, was withheld (unreadableFiles: 'block')`,
          ),
        }),
      }),
      // Fewer characters than the text will have: past the limit, it is refused undecoded
      // with the record a decoded text that long gets.
      beforeDecoding: (fewest, binaryText) =>
        length + fewest > maxLength ? { trip: overLimit(fewest, binaryText)! } : undefined,
      text: async text => {
        const limit = overLimit(text.length);
        if (limit) return { trip: limit };
        return judgeText(text, false, text);
      },
      json: async value => {
        // The texts of one result share the length limit.
        const problem = jsonLimitProblem(walkOf(value), maxLength - length, maxLength);
        if (problem) return { trip: unreadable(problem) };
        let judgedAs: JsonReading;
        try {
          judgedAs = canonicalOf(value);
        } catch (error) {
          return {
            trip: unreadable(
              `it could not be serialised as JSON (${error instanceof Error ? error.name : typeof error})`,
            ),
          };
        }
        const { text: content, reading, arrays } = judgedAs;
        const limit = overLimit(content.length);
        if (limit) return { trip: limit };
        const judged = await judgeText(content, true, reading);
        if (judged.trip) return judged;
        if (judged.value === content) return { value };
        // The arrays whose text no guardrail changed go on as their numbers.
        const modified = restoreCharCodeArrays(JSON.parse(judged.value), arrays);
        return { value: inKeyOrderOf(value, modified) };
      },
    });

    let replacement: LanguageModelV4ToolResultOutput | undefined;
    if (checked.unreadable !== undefined) {
      // The client wrote the type too: it is named only when it reads as a type name.
      const type = (place.result.output as { type?: unknown } | null)?.type;
      const named = typeof type === 'string' && /^[a-z][a-z0-9-]{0,39}$/.test(type);
      // A file of a readable output withheld: where, what, and what was found there (round 24).
      const record =
        checked.withheld !== undefined
          ? ownRecord(
              TOOL_OUTPUT_UNREADABLE,
              'error',
              `the result of tool ${shownToolName(toolName)} was withheld: ${checked.withheld}${foundByModifiers(records.slice(judgedFrom))}`,
            )
          : unreadable(
              `its output is not a tool result output the guardrails can read (${
                named ? `type "${type}"` : 'no type name'
              })`,
            );
      trip ??= record;
      replacement = { type: 'text', value: defaultBlockedMessage(record) };
    } else if (checked.trip) {
      trip ??= checked.trip;
      // What the model reads for a result guardTools withheld: the block's message, else the default.
      replacement = {
        type: 'text',
        value: checked.trip.message ?? defaultBlockedMessage(checked.trip),
      };
    } else if (checked.value !== place.result.output) {
      replacement = checked.value as LanguageModelV4ToolResultOutput;
    }
    if (!replacement) continue;
    if (checked.unreadable !== undefined || checked.trip) withheld++;
    replace(place, replacement);
  }
  return {
    prompt: output ?? prompt,
    records,
    ...(trip && { trip }),
    withheld,
    cachedVerdicts,
  };
}
