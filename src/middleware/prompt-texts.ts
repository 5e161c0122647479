import type { LanguageModelV4Message, LanguageModelV4Prompt } from '@ai-sdk/provider';
import type { GuardrailInputPart, GuardrailInputRole } from '../core/types';
import { canonicalJson } from '../tools/canonical-json';
import { mediaTypeReading } from '../tools/media-type-reading';
import {
  binaryTextWhat,
  decodedByteLength,
  decodeFileText,
  encodeFileText,
  type FileBytesText,
  fewestTextCharacters,
  fileBytesText,
  headOpensBinaryFormat,
  isPlainMediaType,
  isTextMediaType,
  isUntypedMediaType,
  isUnwalkable,
  NOT_UTF8,
  releasedMediaType,
  standardBase64,
  TOO_LONG,
  textOutsideFormat,
  unreadableFileReason,
  utf8MediaType,
} from '../tools/model-output-check';
import {
  DEFAULT_MAX_TOOL_OUTPUT_LENGTH,
  inKeyOrderOf,
  jsonLimitProblem,
  MAX_TOOL_ID_LENGTH,
  walkJson,
} from './tool-outputs';

type AssistantContent = Extract<LanguageModelV4Message, { role: 'assistant' }>['content'];
type ToolContent = Extract<LanguageModelV4Message, { role: 'tool' }>['content'];

/**
 * One text of a prompt that input guardrails judge: a system message, all
 * the text parts of one user or assistant message joined as the model reads
 * them, all the reasoning parts of one assistant message, one file part the
 * model reads as text, the input of one tool call in an assistant message
 * (as canonical JSON), or the reason of one tool-approval-response.
 */
export interface PromptText {
  /** Index of the message in the prompt. */
  message: number;
  role: GuardrailInputRole;
  part: GuardrailInputPart;
  /** The parts' texts joined without a separator (the system message's content). */
  text: string;
  /** Index of each judged part in the message's content, in order. */
  parts: number[];
  /** Length of each of those parts' texts. */
  lengths: number[];
  /** A file read in an encoding other than UTF-8: a modified text goes back as UTF-8, the media type saying so. */
  notUtf8?: true;
  /** A file whose bytes are not a text file's ({@link FileRead}): a modification blocks the call. */
  binary?: true;
  /** A file part's media type, judged as text (`part: 'file'`): a change sends the file on as its bare type or `application/octet-stream`. */
  mediaType?: true;
  /** A tool call's input (`ctx.value`); its tool name and call id. */
  value?: unknown;
  toolName?: string;
  toolCallId?: string;
  /**
   * Why the text cannot be judged (a part of a type the AI SDK does not
   * define, a tool call input past the limits or not JSON): the call fails
   * closed before any guardrail runs. Names no value of the prompt.
   */
  unreadable?: string;
  /**
   * A file no guardrail reads (a PDF, an image, a URL), refused because
   * `unreadableFiles` is `'block'`: the call is blocked before any
   * guardrail runs. Names the media type only.
   */
  refused?: string;
}

/** A part type, named in a reason only when it reads as a type name (the client wrote it). */
function typeName(part: unknown): string {
  const type = (part as { type?: unknown } | null)?.type;
  return typeof type === 'string' && /^[a-z][a-z0-9-]{0,39}$/.test(type)
    ? `type "${type}"`
    : 'no type name';
}

/** The parts of one kind (text, reasoning) of one message, to be judged joined as one text. */
class JoinedParts {
  readonly parts: number[] = [];
  readonly lengths: number[] = [];
  readonly pieces: string[] = [];
  add(index: number, text: string) {
    this.parts.push(index);
    this.lengths.push(text.length);
    this.pieces.push(text);
  }
}

/**
 * What reading a file part as text gave ({@link readFileText}): its text
 * (and whether its bytes were in another encoding than UTF-8), `notText`
 * for a file no guardrail reads (an image, a PDF, bytes of no type that are
 * not UTF-8: `'binary'`; a URL or provider reference: `'url'`), or why a
 * file read as text could not be read (`unreadable`, naming no value).
 */
export type FileRead =
  | {
      text: string;
      notUtf8: boolean;
      /**
       * The bytes are not a text file's (a PNG's or PDF's text outside its
       * structure, compiled or binary data with control characters): a
       * modification never rewrites them, it withholds the file
       * ({@link FileBytesText}).
       */
      binary?: true;
      /** Only the bytes outside a PNG's or PDF's structure were read: still a file no guardrail reads. */
      partial?: true;
      notText?: undefined;
      unreadable?: undefined;
    }
  | { notText: 'binary' | 'url'; text?: undefined; unreadable?: undefined; partial?: undefined }
  | { unreadable: string; text?: undefined; notText?: undefined; partial?: undefined };

/**
 * The text of a `file` (or `reasoning-file`) part read as text: inline
 * text (`{ type: 'text' }` data, whatever the media type), or the bytes or
 * base64 of a text media type (`text/*`, JSON, XML, CSV, ...) decoded
 * (UTF-8, or the encoding its byte order mark or `charset` names), as
 * `guardTools` reads a file in a tool's model output; the bytes of a file
 * of any other type, or of none, when they are text whatever the type
 * says ({@link textOfAnyType}; a file that opens a binary format a
 * provider parses, signature and structure, is not). `notText` for a file
 * that is not read as text (an image, a PDF, a URL or provider reference
 * the provider fetches). Data of a form the AI SDK does not define,
 * text-type data that is neither bytes nor base64, a `data:` URL that may
 * be text, or text longer than `maxLength` is `unreadable` (fails closed).
 * With `v3Data` (AI SDK 6) the bytes, base64 or URL may be the data itself.
 * The one reader of files as text: the prompt's files (input) and the
 * files a model generates (output) are read alike.
 */
export function readFileText(
  part: { mediaType?: unknown; data?: unknown },
  maxLength: number,
  v3Data = false,
): FileRead {
  const { mediaType } = part;
  let { data } = part;
  // AI SDK 6 (spec v3) gives the bytes, base64 or URL as the part's data
  // itself: read as AI SDK 7's `{ type: 'data' }` / `{ type: 'url' }` (a
  // clean text/plain file was not read and the call failed closed).
  if (v3Data) {
    if (data instanceof Uint8Array || typeof data === 'string') data = { type: 'data', data };
    else if (data instanceof URL) data = { type: 'url', url: data };
  }
  const kind = (data as { type?: unknown } | null)?.type;
  const tooLong = { unreadable: `a text file is longer than ${maxLength} characters` };
  if (kind === 'url' && isDataUrl((data as { url?: unknown }).url, mediaType)) {
    // Inline content a provider reads (generateText turns it into bytes first).
    return { unreadable: 'a file given as a data: URL is not read (give its bytes)' };
  }
  if (kind === 'url' || kind === 'reference') return { notText: 'url' };
  let text: string | undefined;
  let notUtf8 = false;
  if (kind === 'text') {
    const inline = (data as { text?: unknown }).text;
    if (typeof inline === 'string') text = inline;
  } else if (kind === 'data' && !isTextMediaType(mediaType)) {
    // Bytes of any other type, or of none: judged as text when they are
    // text, whatever the type says ({@link textOfAnyType}).
    return textOfAnyType((data as { data?: unknown }).data, mediaType, maxLength, tooLong);
  } else if (kind === 'data') {
    const bytes = (data as { data?: unknown }).data;
    // Refused before decoding when even its fewest characters are too many: never 100 MB read.
    const byteLength = decodedByteLength(bytes);
    if (byteLength !== undefined && fewestTextCharacters(byteLength, mediaType) > maxLength)
      return tooLong;
    const decoded = decodeFileText(bytes, mediaType);
    text = decoded?.text;
    notUtf8 = decoded?.utf8 === false;
  } else if (!isTextMediaType(mediaType)) {
    // Bytes given as the part's data itself (AI SDK 6's form) under the v4
    // specification that are text: not read, so they fail closed below, as
    // a text file's bytes in that form do.
    const read = textOfAnyType(data, mediaType, maxLength, tooLong);
    if (read.text === undefined) return read === tooLong ? read : { notText: 'binary' };
  }
  if (text === undefined) {
    return { unreadable: 'a file part the model reads as text could not be read' };
  }
  if (text.length > maxLength) return tooLong;
  return { text, notUtf8 };
}

/**
 * The bytes or base64 (URL-safe too) of a file of no text type, read as
 * text when they are text ({@link fileBytesText}), whatever the type:
 * `notText` `'binary'` when they are not (an image, a PDF, random bytes).
 * Data that is neither bytes nor base64 is binary for a typed file and
 * `unreadable` for an untyped one (which the model may read as text). The
 * first 65,536 bytes of a file longer than `maxLength` characters can be
 * are probed first: text there fails closed as too long, and an image is
 * never decoded whole.
 */
function textOfAnyType(
  given: unknown,
  mediaType: unknown,
  maxLength: number,
  tooLong: FileRead,
): FileRead {
  const bytes = standardBase64(given);
  const untyped = isUntypedMediaType(mediaType);
  // An image's head says it is one before its size is measured.
  if (headOpensBinaryFormat(bytes, untyped)) return { notText: 'binary' };
  // A PNG or a PDF: the text outside its structure, its length known (never measured whole).
  // Its walk stops where its text is past the limit (round 27: a 10 MB base64 PDF was decoded whole first).
  const walked = textOutsideFormat(bytes, untyped, characters => characters > maxLength);
  if (walked === TOO_LONG) {
    return { unreadable: `${binaryTextWhat(mediaType, true)} longer than ${maxLength} characters` };
  }
  const outside = walked;
  const byteLength = outside === undefined ? decodedByteLength(bytes) : undefined;
  // UTF-8's bound is the lowest (UTF-16 has more characters per byte).
  const long = byteLength !== undefined && fewestTextCharacters(byteLength) > maxLength;
  const read = outside ?? fileBytesText(bytes, long, untyped);
  if (read === TOO_LONG) return tooLong;
  // A part of its structure that may hold text could not be read (round 24): fails closed.
  if (isUnwalkable(read)) return { unreadable: read.unwalkable };
  if (read === undefined) {
    return untyped
      ? { unreadable: 'a file part the model reads as text could not be read' }
      : { notText: 'binary' };
  }
  if (read === NOT_UTF8) return { notText: 'binary' };
  if (read.text.length > maxLength) {
    // Round 25: a binary file's text said `a text file is longer than…` (9 MB
    // of random bytes has more than 1,000,000 characters of readable runs).
    if (!read.binary || !read.partial) return tooLong;
    const what = binaryTextWhat(mediaType, outside !== undefined);
    return { unreadable: `${what} longer than ${maxLength} characters` };
  }
  // Bytes that are not a text file's are never rewritten, so never re-encoded either.
  if (read.binary) return { text: read.text, notUtf8: false, binary: true, partial: read.partial };
  return { text: read.text, notUtf8: !read.utf8 };
}

/**
 * A file part with `text` in place of the text {@link readFileText} read:
 * in the form its data came in (inline text, bytes, base64, AI SDK 6's
 * bytes or base64 as the data itself), as UTF-8, its media type saying so
 * when it was read in another encoding (`notUtf8`).
 */
export function withFileText<PART extends { mediaType: string; data: unknown }>(
  part: PART,
  text: string,
  notUtf8: boolean,
): PART {
  const original = part.data as { type: string; data?: unknown } | Uint8Array | string;
  const data =
    // AI SDK 6's bytes or base64 as the data itself go back in that form.
    original instanceof Uint8Array || typeof original === 'string'
      ? encodeFileText(text, original)
      : original.type === 'text'
        ? { ...original, text }
        : { ...original, data: encodeFileText(text, original.data) };
  // A file of no type (a direct call may give none) keeps none: there is no type to say UTF-8 in.
  const mediaType =
    notUtf8 && typeof part.mediaType === 'string' && part.mediaType !== ''
      ? utf8MediaType(part.mediaType)
      : part.mediaType;
  return { ...part, mediaType, data };
}

/**
 * The text of a `file` (or `reasoning-file`) part the model reads as text
 * ({@link readFileText}). `undefined` for a file the model does not read as
 * text (an image, a PDF, a URL or provider reference the provider fetches):
 * it passes, or with `blockUnreadable` it is refused. A file that cannot be
 * read is unreadable (fails closed).
 */
function fileText(
  message: number,
  role: 'user' | 'assistant',
  index: number,
  part: { mediaType?: unknown; data?: unknown },
  maxLength: number,
  blockUnreadable = false,
  v3Data = false,
): PromptText | undefined {
  const read = readFileText(part, maxLength, v3Data);
  if (read.notText === 'url' && isTextMediaType(part.mediaType)) {
    // A text file the provider fetches after the guardrails ran (round 21):
    // generateText downloads the URLs a model does not support (the
    // middleware takes text types out of `supportedUrls`), so only a direct
    // call or a `download` that declined it brings one here.
    return {
      ...unreadableText(
        message,
        role,
        'a text file given by URL is fetched after the guardrails ran (give its bytes)',
      ),
      part: 'file',
    };
  }
  if (read.notText !== undefined || (read.partial && blockUnreadable)) {
    // With `unreadableFiles: 'block'`, a file the model reads and no guardrail does is refused
    // (a PNG or a PDF too when the text outside its structure could be read).
    return blockUnreadable
      ? {
          message,
          role,
          part: 'file',
          text: '',
          parts: [index],
          lengths: [0],
          refused: `message ${message} (${role}) was not judged: ${unreadableFileReason(part.mediaType)} (unreadableFiles: 'block')`,
        }
      : undefined;
  }
  if (read.unreadable !== undefined) {
    return { ...unreadableText(message, role, read.unreadable), part: 'file' };
  }
  const entry: PromptText = {
    message,
    role,
    part: 'file',
    text: read.text,
    parts: [index],
    lengths: [read.text.length],
  };
  if (read.notUtf8) entry.notUtf8 = true;
  if (read.binary) entry.binary = true;
  return entry;
}

/**
 * Where an unreadable tool call's reason names its id: the input guard
 * writes it there as the call's records show it (`shownToolCallIdOf`; a
 * client writes its history's ids, and a call numbers the ones it hides).
 */
export const TOOL_CALL_ID_SLOT = '\u0000tool-call-id\u0000';

/**
 * The text a tool call's input is judged as: its canonical JSON (the form
 * `toolOutputs` and `guardTools` judge JSON in), within the limits of a JSON
 * tool result (1,000,000 characters, 64 levels), walked before it is written
 * out, so a 10 MB or cyclic input costs at most the limit.
 */
function toolCallText(
  message: number,
  index: number,
  part: { toolName?: unknown; toolCallId?: unknown; input?: unknown },
  maxLength: number,
): PromptText {
  const entry: PromptText = {
    message,
    role: 'assistant',
    part: 'tool-call',
    text: '',
    parts: [index],
    lengths: [0],
  };
  const { toolName, toolCallId, input } = part;
  if (
    typeof toolName !== 'string' ||
    typeof toolCallId !== 'string' ||
    toolName.length > MAX_TOOL_ID_LENGTH ||
    toolCallId.length > MAX_TOOL_ID_LENGTH
  ) {
    entry.unreadable = `a tool call's name or id is not a string of at most ${MAX_TOOL_ID_LENGTH} characters`;
    return entry;
  }
  entry.toolName = toolName;
  entry.toolCallId = toolCallId;
  entry.value = input;
  try {
    const problem = jsonLimitProblem(walkJson(input, maxLength), maxLength, maxLength);
    if (problem) {
      entry.unreadable = `the input of tool call ${TOOL_CALL_ID_SLOT} was not judged: ${problem}`;
      return entry;
    }
    entry.text = canonicalJson(input);
  } catch (error) {
    entry.unreadable = `the input of tool call ${TOOL_CALL_ID_SLOT} could not be serialised as JSON (${
      error instanceof Error ? error.name : typeof error
    })`;
    return entry;
  }
  if (entry.text.length > maxLength) {
    entry.unreadable = `the input of tool call ${TOOL_CALL_ID_SLOT} was not judged: the text is longer than ${maxLength} characters`;
  }
  entry.lengths = [entry.text.length];
  return entry;
}

/**
 * The provider options of a message (`part` undefined) or of one of its
 * parts, judged as canonical JSON (`ctx.value` the options) within the
 * limits of a JSON tool result: the provider reads them, and a custom part
 * has nothing else (`{ type: 'custom', kind, providerOptions }`). Undefined
 * when there are none. They reach the provider as they were sent
 * (signatures, cache control, encrypted content), so a modification of
 * them blocks the call instead (see `applied` in input-guard.ts).
 */
function providerOptionsText(
  message: number,
  role: GuardrailInputRole,
  part: number | undefined,
  options: unknown,
  maxLength: number,
): PromptText | undefined {
  if (options === undefined) return undefined;
  const whose = part === undefined ? 'its provider options' : `its part ${part}'s provider options`;
  const entry: PromptText = {
    message,
    role,
    part: 'provider-options',
    text: '',
    parts: part === undefined ? [] : [part],
    lengths: [0],
  };
  const unreadable = (why: string) => {
    entry.unreadable = `message ${message} (${role}) was not judged: ${whose} ${why}`;
    return entry;
  };
  if (typeof options !== 'object' || options === null || Array.isArray(options)) {
    return unreadable('are not an object');
  }
  try {
    const problem = jsonLimitProblem(walkJson(options, maxLength), maxLength, maxLength);
    if (problem) return unreadable(`are past the limits: ${problem}`);
    entry.text = canonicalJson(options);
  } catch (error) {
    return unreadable(
      `could not be serialised as JSON (${error instanceof Error ? error.name : typeof error})`,
    );
  }
  if (entry.text === '{}') return undefined;
  if (entry.text.length > maxLength) {
    return unreadable(`are past the limits: the text is longer than ${maxLength} characters`);
  }
  entry.value = options;
  entry.lengths = [entry.text.length];
  return entry;
}

/** The provider options of each part of a message (in order), then the message's own. */
function providerOptionsTexts(
  index: number,
  message: { role: string; content: unknown; providerOptions?: unknown },
  role: GuardrailInputRole,
  maxLength: number,
  texts: PromptText[],
): void {
  if (Array.isArray(message.content)) {
    message.content.forEach((part: unknown, p) => {
      const options = (part as { providerOptions?: unknown } | null)?.providerOptions;
      const entry = providerOptionsText(index, role, p, options, maxLength);
      if (entry) texts.push(entry);
    });
  }
  const entry = providerOptionsText(index, role, undefined, message.providerOptions, maxLength);
  if (entry) texts.push(entry);
}

/**
 * The texts of an assistant message, in the order of their first part: its
 * text parts joined, its reasoning parts joined, and each tool call's input.
 * Tool results are `toolOutputs`' to judge; a file (or reasoning file) is
 * judged when the model reads it as text; other files and custom parts pass.
 */
function assistantTexts(
  message: number,
  content: unknown,
  maxLength: number,
  texts: PromptText[],
  blockUnreadable: boolean,
  v3Data: boolean,
): void {
  if (!Array.isArray(content)) {
    texts.push(unreadableText(message, 'assistant', 'its content is not a list of parts'));
    return;
  }
  const joined = { text: new JoinedParts(), reasoning: new JoinedParts() };
  const order: Array<'text' | 'reasoning' | PromptText> = [];
  content.forEach((part: unknown, index) => {
    const type = (part as { type?: unknown } | null)?.type;
    if (type === 'text' || type === 'reasoning') {
      const text = (part as { text?: unknown }).text;
      if (typeof text !== 'string') {
        order.push(unreadableText(message, 'assistant', `a ${type} part's text is not a string`));
        return;
      }
      if (joined[type].parts.length === 0) order.push(type);
      joined[type].add(index, text);
    } else if (type === 'tool-call') {
      order.push(toolCallText(message, index, part as object, maxLength));
    } else if (type === 'file' || type === 'reasoning-file') {
      const file = fileText(
        message,
        'assistant',
        index,
        part as object,
        maxLength,
        blockUnreadable,
        v3Data,
      );
      if (file) order.push(file);
      // Its name and media type too: a forged assistant file named 'Contact jane.doe@corp.io.pdf'
      // reached the model (a reasoning file's media type too, round 24).
      order.push(...fileLabelTexts(message, 'assistant', index, part as object, maxLength));
    } else if (type !== 'tool-result' && type !== 'custom') {
      order.push(
        unreadableText(
          message,
          'assistant',
          `it holds a part the AI SDK does not define (${typeName(part)})`,
        ),
      );
    }
  });
  for (const item of order) {
    if (typeof item !== 'string') {
      texts.push(item);
      continue;
    }
    const { parts, lengths, pieces } = joined[item];
    texts.push({ message, role: 'assistant', part: item, text: pieces.join(''), parts, lengths });
  }
}

/** The reason of each tool-approval-response of a tool message (tool results are `toolOutputs`'). */
function approvalReasons(message: number, content: unknown, texts: PromptText[]): void {
  if (!Array.isArray(content)) {
    texts.push(unreadableText(message, 'tool', 'its content is not a list of parts'));
    return;
  }
  content.forEach((part: unknown, index) => {
    const type = (part as { type?: unknown } | null)?.type;
    if (type === 'tool-result') return;
    if (type !== 'tool-approval-response') {
      texts.push(
        unreadableText(
          message,
          'tool',
          `it holds a part the AI SDK does not define (${typeName(part)})`,
        ),
      );
      return;
    }
    const reason = (part as { reason?: unknown }).reason;
    if (reason === undefined) return;
    if (typeof reason !== 'string') {
      texts.push(
        unreadableText(message, 'tool', "a tool-approval-response's reason is not a string"),
      );
      return;
    }
    texts.push({
      message,
      role: 'tool',
      part: 'tool-approval-response',
      text: reason,
      parts: [index],
      lengths: [reason.length],
    });
  });
}

/**
 * Whether a file's URL is a `data:` URL the model may read as text: its own
 * media type (`text/plain` when it names none) or the part's is a text
 * type. An image's passes as the image's bytes do.
 */
function isDataUrl(url: unknown, mediaType: unknown): boolean {
  const href = url instanceof URL ? url.href : typeof url === 'string' ? url : undefined;
  if (href === undefined || !/^\s*data:/i.test(href)) return false;
  const own = /^\s*data:([^;,]*)/i.exec(href)?.[1]?.trim() || 'text/plain';
  return isTextMediaType(own) || isTextMediaType(mediaType) || !isPlainType(own, mediaType);
}

/** What a file part says besides its data, each judged as a text of its own: its name, its media type. */
function fileLabelTexts(
  message: number,
  role: 'user' | 'assistant',
  index: number,
  part: { filename?: unknown; mediaType?: unknown },
  maxLength: number,
): PromptText[] {
  const name = fileNameText(message, role, index, part, maxLength);
  const mediaType = fileMediaTypeText(message, role, index, part, maxLength);
  return [name, mediaType].filter(text => text !== undefined);
}

/**
 * A file's `filename` (a user's; an assistant's with `inputScope: 'all'`),
 * which providers send to the model (OpenAI's `filename`, Anthropic's
 * document `title`): judged as text of its own. A name that is not a
 * string, or is longer than a tool result may be, fails closed.
 */
function fileNameText(
  message: number,
  role: 'user' | 'assistant',
  index: number,
  part: { filename?: unknown },
  maxLength: number,
): PromptText | undefined {
  const { filename } = part;
  if (filename === undefined || filename === '') return undefined;
  const why =
    typeof filename !== 'string'
      ? "a file part's filename is not a string"
      : filename.length > maxLength
        ? `a file name is longer than ${maxLength} characters`
        : undefined;
  if (why !== undefined) return { ...unreadableText(message, role, why), part: 'file-name' };
  return {
    message,
    role,
    part: 'file-name',
    text: filename as string,
    parts: [index],
    lengths: [(filename as string).length],
  };
}

/**
 * A file's media type when it is not a plain `type/subtype` (parameters but
 * a charset, capitals, a value's digits or word in the subtype): the client
 * writes it and providers pass it on (`text/plain; name=4111111111111111`),
 * so it is judged as text of its own, `part: 'file'`, as a generated file's
 * and a tool output file's are. Plain types need no reading.
 */
function fileMediaTypeText(
  message: number,
  role: 'user' | 'assistant',
  index: number,
  part: { mediaType?: unknown },
  maxLength: number,
): PromptText | undefined {
  const { mediaType } = part;
  if (typeof mediaType !== 'string' || mediaType === '' || isPlainMediaType(mediaType)) {
    return undefined;
  }
  if (mediaType.length > maxLength) {
    return {
      ...unreadableText(message, role, `a media type is longer than ${maxLength} characters`),
      part: 'file',
    };
  }
  // Its parameters as a provider decodes them are judged too (round 25).
  const reading = mediaTypeReading(mediaType);
  if (reading.unreadable !== undefined) {
    return { ...unreadableText(message, role, reading.unreadable), part: 'file' };
  }
  return {
    message,
    role,
    part: 'file',
    text: reading.text,
    parts: [index],
    lengths: [reading.text.length],
    mediaType: true,
  };
}

/** Whether a data: URL's own media type agrees with the part's (`image/png` in both). */
function isPlainType(own: string, mediaType: unknown): boolean {
  return (
    typeof mediaType === 'string' &&
    mediaType.split(';')[0]!.trim().toLowerCase() === own.toLowerCase()
  );
}

function unreadableText(message: number, role: GuardrailInputRole, why: string): PromptText {
  return {
    message,
    role,
    part: 'text',
    text: '',
    parts: [],
    lengths: [],
    unreadable: `message ${message} (${role}) was not judged: ${why}`,
  };
}

/**
 * The texts input guardrails judge, in prompt order: user messages, system
 * messages inside the conversation (after its first user, assistant or tool
 * message), and with `all` (`inputScope: 'all'`) the leading system messages,
 * every assistant message's text, reasoning and tool-call inputs, and every
 * tool-approval-response reason too, and the provider options of every
 * message and part (a custom part's only content; a user message's and its
 * parts' always, with each file's name). The text parts of one message are joined
 * with nothing between them, so that a value split across parts (an e-mail
 * address in two halves) is seen whole, as the model sees it. Each file the
 * model reads as text (a user's always, an assistant's with `all`) is a text
 * of its own; images, PDFs and URLs give no text (with `blockUnreadableFiles`,
 * a `refused` one). With `v3FileData` (AI SDK 6), a file's data may be its
 * bytes, base64 or URL itself. With `all`, content the
 * AI SDK does not define gives an `unreadable` text (fails closed). Linear in
 * the prompt: a tool call's input is walked once within `maxJsonLength`.
 */
export function promptTexts(
  prompt: LanguageModelV4Prompt,
  all: boolean,
  maxJsonLength = DEFAULT_MAX_TOOL_OUTPUT_LENGTH,
  blockUnreadableFiles = false,
  v3FileData = false,
): PromptText[] {
  const texts: PromptText[] = [];
  // The system messages before the conversation are the server's (the `system`
  // option); one inside it came with the messages, which the client owns (AI
  // SDK 6 passes them on with a warning), so it is always judged.
  let inConversation = false;
  for (let index = 0; index < prompt.length; index++) {
    const message = prompt[index]!;
    if (message.role === 'system') {
      if (all || inConversation) {
        // A direct caller of `doGenerate` may pass parts or an object: it reached
        // each guardrail as it was (a TypeError of a built-in, a pass for a check
        // that reads it as "[object Object]").
        const content: unknown = message.content;
        texts.push(
          typeof content === 'string'
            ? {
                message: index,
                role: 'system',
                part: 'text',
                text: content,
                parts: [],
                lengths: [],
              }
            : unreadableText(index, 'system', 'its content is not a string'),
        );
      }
      if (all) providerOptionsTexts(index, message, 'system', maxJsonLength, texts);
      continue;
    }
    inConversation = true;
    if (message.role === 'user') {
      // `generateText` validates a prompt before the model sees it; a caller of
      // `doGenerate` / `doStream` does not: what is not text or a file fails closed.
      const content: unknown = message.content;
      if (!Array.isArray(content)) {
        texts.push(unreadableText(index, 'user', 'its content is not a list of parts'));
        continue;
      }
      const joined = new JoinedParts();
      // The joined text goes where its first part is, among the message's files.
      let textAt = -1;
      content.forEach((part: unknown, p) => {
        const type = (part as { type?: unknown } | null)?.type;
        if (type === 'text') {
          const text = (part as { text?: unknown }).text;
          if (typeof text !== 'string') {
            texts.push(unreadableText(index, 'user', "a text part's text is not a string"));
            return;
          }
          if (textAt < 0) textAt = texts.length;
          joined.add(p, text);
        } else if (type === 'file') {
          const file = fileText(
            index,
            'user',
            p,
            part as object,
            maxJsonLength,
            blockUnreadableFiles,
            v3FileData,
          );
          if (file) texts.push(file);
          texts.push(...fileLabelTexts(index, 'user', p, part as object, maxJsonLength));
        } else {
          texts.push(
            unreadableText(
              index,
              'user',
              `it holds a part the AI SDK does not define (${typeName(part)})`,
            ),
          );
        }
      });
      if (joined.parts.length > 0) {
        const { parts, lengths, pieces } = joined;
        texts.splice(textAt, 0, {
          message: index,
          role: 'user',
          part: 'text',
          text: pieces.join(''),
          parts,
          lengths,
        });
      }
      // In every scope: the client writes them (a UI part's providerMetadata), and a
      // provider reads text there (Anthropic's document title and context).
      providerOptionsTexts(index, message, 'user', maxJsonLength, texts);
      continue;
    }
    if (message.role !== 'assistant' && message.role !== 'tool') {
      // Whatever the scope: the provider may read it as a user's.
      texts.push(unreadableText(index, 'user', 'its role is not one the AI SDK defines'));
      continue;
    }
    if (!all) continue;
    if (message.role === 'assistant') {
      assistantTexts(
        index,
        message.content,
        maxJsonLength,
        texts,
        blockUnreadableFiles,
        v3FileData,
      );
      providerOptionsTexts(index, message, 'assistant', maxJsonLength, texts);
    } else {
      approvalReasons(index, message.content, texts);
      providerOptionsTexts(index, message, 'tool', maxJsonLength, texts);
    }
  }
  return texts;
}

function commonPrefix(a: string, b: string): number {
  const max = Math.min(a.length, b.length);
  let i = 0;
  while (i < max && a.charCodeAt(i) === b.charCodeAt(i)) i++;
  return i;
}

function commonSuffix(a: string, b: string, prefix: number): number {
  const max = Math.min(a.length, b.length) - prefix;
  let i = 0;
  while (i < max && a.charCodeAt(a.length - 1 - i) === b.charCodeAt(b.length - 1 - i)) i++;
  return i;
}

/**
 * Splits the modified text of a multi-part message back into its parts.
 * Text before the first change and after the last one keeps its part; the
 * changed region (from the first changed character to the last) goes whole
 * into the part where it starts, and the other parts it covered lose what it
 * covered. So the parts always join to exactly `modified`, and no part keeps
 * a character of the original that a guardrail replaced, even when a
 * redaction spans a boundary. Linear in the length of the texts.
 */
export function splitModified(original: string, modified: string, lengths: number[]): string[] {
  if (lengths.length === 1) return [modified];
  const prefix = commonPrefix(original, modified);
  const suffix = commonSuffix(original, modified, prefix);
  const changeEnd = original.length - suffix; // end of the changed region in the original
  const replacement = modified.slice(prefix, modified.length - suffix);
  const result: string[] = [];
  let start = 0;
  let placed = false;
  for (const length of lengths) {
    const end = start + length;
    // The part's text = its piece before the change + (the replacement, once) + its piece after.
    const before = original.slice(start, Math.min(end, Math.max(start, prefix)));
    const after = original.slice(Math.max(start, Math.min(end, changeEnd)), end);
    let middle = '';
    // The replacement goes to the part holding the change's first character
    // (or, for a pure insertion at a boundary, the part ending there).
    if (!placed && (prefix < end || (prefix === end && end === original.length))) {
      middle = replacement;
      placed = true;
    }
    result.push(before + middle + after);
    start = end;
  }
  if (!placed) result[result.length - 1] += replacement;
  return result;
}

/**
 * The prompt with the judged texts replaced by `modified` (same order as
 * `texts`); messages whose text did not change are kept as they were. A
 * tool call's modified input (canonical JSON, checked to parse when it was
 * judged) is parsed back, in the key order of the original where an object
 * kept its keys. A text or reasoning part a modification left empty (a
 * redaction that covered it whole went into the part before) is dropped,
 * with its provider options: providers reject empty text blocks. A message
 * whose every part would go keeps its first, empty. Provider options are
 * never rewritten (a modification of them blocked the call).
 */
export function rebuildPrompt(
  prompt: LanguageModelV4Prompt,
  texts: readonly PromptText[],
  modified: readonly string[],
): LanguageModelV4Prompt {
  let output: LanguageModelV4Prompt | undefined;
  // One copy of a message's parts however many of its texts changed (a message
  // of 10,000 redacted tool calls is copied once, not once per call).
  const copies = new Map<number, unknown[]>();
  // Per message copy, the indexes of the parts a modification emptied.
  const emptied = new Map<number, Set<number>>();
  texts.forEach((entry, i) => {
    const text = modified[i]!;
    // A file read in another encoding goes on as UTF-8 of the text judged,
    // modified or not (as `checkModelOutputTexts` does): as it came, its bytes could
    // read otherwise to a reader taking them for UTF-8.
    if ((text === entry.text && !entry.notUtf8) || entry.part === 'provider-options') return;
    output ??= [...prompt];
    const message = prompt[entry.message]!;
    if (message.role === 'system') {
      output[entry.message] = { ...message, content: text };
      return;
    }
    let content = copies.get(entry.message) as AssistantContent | ToolContent | undefined;
    if (!content) {
      content = [...message.content] as AssistantContent | ToolContent;
      copies.set(entry.message, content);
      output[entry.message] = { ...message, content } as LanguageModelV4Message;
    }
    if (entry.part === 'file' && entry.mediaType) {
      const p = entry.parts[0]!;
      content[p] = {
        ...content[p]!,
        mediaType: releasedMediaType(entry.text, text),
      } as (typeof content)[number];
      return;
    }
    if (entry.part === 'file') {
      const p = entry.parts[0]!;
      const part = content[p] as { mediaType: string; data: unknown };
      content[p] = withFileText(part, text, entry.notUtf8 === true) as (typeof content)[number];
      return;
    }
    if (entry.part === 'file-name') {
      const p = entry.parts[0]!;
      content[p] = { ...content[p]!, filename: text } as (typeof content)[number];
      return;
    }
    if (entry.part === 'tool-call' || entry.part === 'tool-approval-response') {
      const p = entry.parts[0]!;
      const part = content[p]!;
      if (part.type === 'tool-call') {
        content[p] = { ...part, input: inKeyOrderOf(entry.value, JSON.parse(text)) };
      } else if (part.type === 'tool-approval-response') {
        content[p] = { ...part, reason: text };
      }
      return;
    }
    const pieces = splitModified(entry.text, text, entry.lengths);
    entry.parts.forEach((p, k) => {
      const part = content[p]!;
      if ((part.type === 'text' || part.type === 'reasoning') && part.text !== pieces[k]) {
        content[p] = { ...part, text: pieces[k]! };
        if (pieces[k] === '') {
          const indexes = emptied.get(entry.message) ?? new Set<number>();
          indexes.add(p);
          emptied.set(entry.message, indexes);
        }
      }
    });
  });
  if (output === undefined) return prompt;
  for (const [m, indexes] of emptied) {
    const content = copies.get(m)!;
    const kept = content.filter((_, p) => !indexes.has(p));
    const message = output[m]!;
    output[m] = {
      ...message,
      content: kept.length > 0 ? kept : [content[Math.min(...indexes)]],
    } as LanguageModelV4Message;
  }
  return output;
}

/**
 * The user text of a whole prompt, for per-call guardrails: each user
 * message's text (parts joined as in `promptTexts`), messages separated by a
 * newline. Empty when the prompt has no user text (images only).
 */
export function userTextOf(texts: readonly PromptText[], modified: readonly string[]): string {
  const pieces: string[] = [];
  texts.forEach((entry, i) => {
    if (entry.role === 'user' && entry.part === 'text') pieces.push(modified[i]!);
  });
  return pieces.join('\n');
}
