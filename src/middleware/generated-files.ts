import type {
  LanguageModelV4Content,
  LanguageModelV4GenerateResult,
  LanguageModelV4StreamPart,
  LanguageModelV4Usage,
} from '@ai-sdk/provider';
import { type ChainContext, runChain } from '../core/chain';
import { emitEvent } from '../core/events';
import type { Guardrail, GuardrailEventListener, GuardrailRecord } from '../core/types';
import { mediaTypeReading } from '../tools/media-type-reading';
import { isPlainMediaType, isTextMediaType, releasedMediaType } from '../tools/model-output-check';
import { readFileText, withFileText } from './prompt-texts';
import { withheld } from './tool-calls';
import { DEFAULT_MAX_TOOL_OUTPUT_LENGTH } from './tool-outputs';

type Part = LanguageModelV4StreamPart;
/** A file the model generated: a `file` part (or a `reasoning-file` part, with `checkReasoning`). */
type FilePart = Extract<LanguageModelV4Content, { type: 'file' | 'reasoning-file' }>;

/** Name of the record of a generated file the output guardrails could not read (withheld). */
export const OUTPUT_UNREADABLE = 'output-unreadable';

/** What judging the files of a model's response needs (the middleware's `output` guardrails). */
export interface GeneratedFileJudge {
  /** The output guardrails, in order (per-call ones, settled once per response, left out). */
  guardrails: readonly Guardrail[];
  /** The call's context for the chain: prompt, metadata, state, step. */
  context: Omit<ChainContext, 'kind' | 'part' | 'file' | 'usage'>;
  abortSignal: AbortSignal;
  onEvent: GuardrailEventListener | undefined;
  defaultTimeoutMs: number;
  /** Where the records go (the call's records). */
  records: GuardrailRecord[];
  /** Called when a file was modified or withheld: the caller gets another response than the model's. */
  changed: () => void;
  /** With `onTrip: 'throw'`: the error a withheld file ends the call with (else undefined). */
  tripError: ((record: GuardrailRecord) => Error) | undefined;
  /** Reasoning files are judged too (`checkReasoning`). */
  checkReasoning: boolean;
  /** AI SDK 6 (spec v3): a file's bytes or base64 are its `data` itself. */
  v3Data: boolean;
  /**
   * With `retry`: the attempt whose response is judged, tagged on its file
   * records as on its text's (round 24: a blocked answer's file records
   * could not be told from the retry's).
   */
  attempt?: () => number | undefined;
}

type Judged = { part: FilePart; trip?: undefined } | { trip: GuardrailRecord };

/** Whether a part is a generated file the output guardrails judge. */
export function isJudgedFile(part: { type: string }, guard: GeneratedFileJudge): boolean {
  return part.type === 'file' || (guard.checkReasoning && part.type === 'reasoning-file');
}

/**
 * Whether the bytes (or base64) a file's text was read from are not UTF-8:
 * a lossy read gave U+FFFD for them, which no reader is bound to give.
 */
function hasBadUtf8(
  part: { data?: unknown; mediaType?: unknown },
  text: string,
  v3Data: boolean,
): boolean {
  // A file of no text type may have been read without its junk bytes
  // (every second or third character, round 22): its text shows none.
  if (!text.includes('\uFFFD') && isTextMediaType(part.mediaType)) return false;
  const data = part.data as { type?: unknown; data?: unknown } | Uint8Array | string | undefined;
  const raw =
    v3Data && (data instanceof Uint8Array || typeof data === 'string')
      ? data
      : (data as { type?: unknown; data?: unknown } | undefined)?.type === 'data'
        ? (data as { data?: unknown }).data
        : undefined;
  let bytes: Uint8Array;
  if (raw instanceof Uint8Array) bytes = raw;
  else if (typeof raw === 'string') {
    let binary: string;
    try {
      // URL-safe base64 as the reader took it (`-` and `_` for `+` and `/`).
      binary = atob(raw.replace(/[-_]/g, char => (char === '-' ? '+' : '/')));
    } catch {
      return true;
    }
    bytes = new Uint8Array(binary.length);
    for (let i = 0; i < binary.length; i++) bytes[i] = binary.charCodeAt(i);
  } else return false; // inline text: no bytes
  try {
    new TextDecoder('utf-8', { fatal: true }).decode(bytes);
    return false;
  } catch {
    return true;
  }
}

/**
 * Judges one file the model generated (kind `output`, `ctx.part` `'file'`,
 * `ctx.file` its media type and index) before anyone sees it. A file the
 * input side reads as text ({@link readFileText}: a text media type, JSON,
 * XML, CSV, YAML, JavaScript..., or bytes of no type or
 * `application/octet-stream` that are UTF-8), and the bytes of a file of
 * any other type that are text all the same (strict UTF-8, or UTF-16 after
 * its byte order mark: the model names the type, and `image/png` or
 * `application/x-pem-file` text passed unread), is judged as its text; a
 * modification goes back in the form the data came in. Images, audio, PDFs
 * and other binary bytes, and files of no text type given by URL, pass
 * unjudged. A text file that cannot be read (bytes that are not UTF-8 in
 * the encoding its type names, undecodable base64, over 1,000,000
 * characters, given by URL: the AI SDK downloads it after the guardrails
 * ran) is not judged: an `error` record (`output-unreadable`), withheld.
 * A file a guardrail modified loses its `providerMetadata` (the provider
 * may echo the file's content there). A media type other than a plain
 * `type/subtype` (parameters but a charset, capitals, other signs, a
 * value's digits or word in the type) is judged first as text: a block withholds the file, a change releases it
 * as its bare type (`text/plain`) or `application/octet-stream`. Records
 * never carry the file's text.
 */
export async function judgeGeneratedFile(
  part: FilePart,
  index: number,
  guard: GeneratedFileJudge,
  usage?: LanguageModelV4Usage,
): Promise<Judged> {
  const mediaType = typeof part.mediaType === 'string' ? part.mediaType : '';
  if (mediaType === '' || isPlainMediaType(mediaType)) {
    return judgeFileData(part, index, guard, usage);
  }
  // The model writes the media type too: its parameters (`; name="AKIA…"`)
  // or subtype carry text as the bytes do, into result.files and the UI;
  // parameters encoded to read otherwise decoded are judged decoded too.
  // A file's text has its limit, its media type too (round 25: a media type of
  // any length was judged whole, a prompt's is refused past the limit).
  if (mediaType.length > DEFAULT_MAX_TOOL_OUTPUT_LENGTH) {
    return withheldUnread(
      guard,
      index,
      `its media type is longer than ${DEFAULT_MAX_TOOL_OUTPUT_LENGTH} characters`,
    );
  }
  const reading = mediaTypeReading(mediaType);
  if (reading.unreadable !== undefined) return withheldUnread(guard, index, reading.unreadable);
  const attempt = guard.attempt?.();
  const judgedType = await runChain(
    guard.guardrails,
    reading.text,
    {
      ...guard.context,
      ...(attempt !== undefined && { attempt }),
      kind: 'output',
      part: 'file',
      file: { type: part.type, mediaType, index },
      ...(usage && { usage }),
    },
    {
      abortSignal: guard.abortSignal,
      onEvent: guard.onEvent,
      defaultTimeoutMs: guard.defaultTimeoutMs,
    },
  );
  // A type that passed unchanged adds no record: one file, one verdict.
  if (judgedType.trip) {
    guard.records.push(...judgedType.records);
    return { trip: judgedType.trip };
  }
  const typeChanged = judgedType.content !== reading.text;
  if (typeChanged) guard.records.push(...judgedType.records);
  const judged = await judgeFileData(part, index, guard, usage);
  if (judged.trip || !typeChanged) return judged;
  // A changed media type is released as its bare type (no parameters), or
  // as application/octet-stream when that is not a plain one either.
  guard.changed();
  const { providerMetadata: _echo, ...rest } = judged.part;
  return {
    part: { ...rest, mediaType: releasedMediaType(reading.text, judgedType.content) } as FilePart,
  };
}

/** A file withheld because it could not be read: its `error` record (reason, never a value). */
function withheldUnread(
  guard: GeneratedFileJudge,
  index: number,
  why: string,
  judged = false,
  attempt = guard.attempt?.(),
): Judged {
  const record: GuardrailRecord = {
    guardrail: OUTPUT_UNREADABLE,
    kind: 'output',
    status: 'error',
    reason: `file ${index} of the response was withheld${judged ? '' : ' unjudged'}: ${why}`,
    part: 'file',
    durationMs: 0,
    ...(attempt !== undefined && { attempt }),
  };
  guard.records.push(record);
  emitEvent(guard.onEvent, record);
  return { trip: record };
}

/** {@link judgeGeneratedFile} for the file's data: read, judged, rewritten or withheld. */
async function judgeFileData(
  part: FilePart,
  index: number,
  guard: GeneratedFileJudge,
  usage?: LanguageModelV4Usage,
): Promise<Judged> {
  const attempt = guard.attempt?.();
  const unreadable = (why: string, judged = false): Judged =>
    withheldUnread(guard, index, why, judged, attempt);
  const max = DEFAULT_MAX_TOOL_OUTPUT_LENGTH;
  const read = readFileText(part, max, guard.v3Data);
  if (read.notText !== undefined) {
    // A URL of a text type: the AI SDK downloads it and hands its text on, unjudged.
    if (read.notText === 'binary' || !isTextMediaType(part.mediaType)) return { part };
    return unreadable('a file of a text type given by URL is fetched after the guardrails ran');
  }
  if (read.unreadable !== undefined) return unreadable(read.unreadable);
  // The text outside a PNG's or PDF's structure: the format's bytes are no UTF-8, nor need be.
  if (!read.notUtf8 && !read.partial && hasBadUtf8(part, read.text, guard.v3Data)) {
    return unreadable('its bytes are not UTF-8 text');
  }
  const mediaType = typeof part.mediaType === 'string' ? part.mediaType : '';
  const result = await runChain(
    guard.guardrails,
    read.text,
    {
      ...guard.context,
      ...(attempt !== undefined && { attempt }),
      kind: 'output',
      part: 'file',
      file: { type: part.type, mediaType, index },
      ...(usage && { usage }),
    },
    {
      abortSignal: guard.abortSignal,
      onEvent: guard.onEvent,
      defaultTimeoutMs: guard.defaultTimeoutMs,
    },
  );
  guard.records.push(...result.records);
  if (result.trip) return { trip: result.trip };
  if (result.content === read.text && !read.notUtf8) return { part };
  if (read.binary) {
    // Bytes that are not a text file's are never rewritten (round 23): withheld instead.
    return unreadable(
      'a guardrail changed the text read from a file that is not text, whose bytes are never rewritten',
      true,
    );
  }

  guard.changed();
  const rewritten = withFileText(part, result.content, read.notUtf8);
  if (result.content === read.text || rewritten.providerMetadata === undefined) {
    return { part: rewritten };
  }
  // The provider's own data of the file may echo what the guardrail hid.
  const { providerMetadata: _echo, ...scrubbed } = rewritten;
  return { part: scrubbed as FilePart };
}

/**
 * The response with each file the model generated judged (see
 * {@link judgeGeneratedFile}): a modified file's data is replaced, a
 * withheld file is dropped and the response goes on, or, with
 * `onTrip: 'throw'`, the call throws.
 */
export async function judgeResponseFiles(
  result: LanguageModelV4GenerateResult,
  guard: GeneratedFileJudge,
): Promise<LanguageModelV4GenerateResult> {
  if (!result.content.some(part => isJudgedFile(part, guard))) return result;
  const content: LanguageModelV4Content[] = [];
  const counts = { file: 0, 'reasoning-file': 0 };
  for (const part of result.content) {
    if (!isJudgedFile(part, guard)) {
      content.push(part);
      continue;
    }
    const file = part as FilePart;
    const judged = await judgeGeneratedFile(file, counts[file.type]++, guard, result.usage);
    if (judged.trip) {
      const error = withheld(judged.trip, guard);
      if (error) throw error;
      continue;
    }
    content.push(judged.part);
  }
  return { ...result, content };
}

/** How many files (and reasoning files) of one response were judged: a file's index. */
export type FileCounts = { file: number; 'reasoning-file': number };

/**
 * Judges one streamed file part (see {@link judgeGeneratedFile}): the part
 * to release, an `error` part in its place (withheld, `onTrip: 'throw'`),
 * or undefined (withheld: never released).
 */
export async function judgeStreamedFile(
  part: Part,
  counts: FileCounts,
  guard: GeneratedFileJudge,
): Promise<Part | undefined> {
  const file = part as FilePart;
  const judged = await judgeGeneratedFile(file, counts[file.type]++, guard);
  if (!judged.trip) return judged.part as Part;
  const error = withheld(judged.trip, guard);
  return error ? { type: 'error', error } : undefined;
}
