import type { GuardrailRecord } from '../core/types';

/**
 * A tool result output as the model reads it (`toModelOutput`'s return, the
 * `output` of a `tool-result` prompt part): `text`, `json`,
 * `execution-denied`, `error-text`, `error-json` or `content`.
 */
export type ModelOutput = { type: string } & Record<string, unknown>;

/** Where a judged text sits in a model output. */
export type ModelOutputTextPlace =
  /** the `value` of a `text` or `error-text` output */
  | 'value'
  /** the `reason` of an `execution-denied` output */
  | 'reason'
  /** a `text` part of a `content` output */
  | 'part'
  /**
   * the text of a `file` part of a `content` output: inline (`data: { type:
   * 'text', text }`), or bytes / base64 of a text media type (`text/*`, JSON,
   * XML, YAML, CSV...), decoded as UTF-8; also AI SDK 6's `file-data` and
   * `media` parts of a text media type
   */
  | 'file-text';

/** A judged text or value, or the trip that withholds the output. */
export type Judged<VALUE> = { value: VALUE; trip?: undefined } | { trip: GuardrailRecord };

/** How the texts of one model output are judged (the caller's guardrails, cache and records). */
export interface ModelOutputJudges {
  /** Judges a text the model reads as it is; returns it (possibly modified) or the trip. */
  text(text: string, place: ModelOutputTextPlace): Promise<Judged<string>>;
  /** Judges the value of a `json` or `error-json` output (as canonical JSON); returns it or the trip. */
  json(value: unknown): Promise<Judged<unknown>>;
}

/** What judging a model output gave: the output the model may read, a trip, or why it could not be read. */
export type ModelOutputCheck =
  | { value: ModelOutput; trip?: undefined; unreadable?: undefined }
  | { trip: GuardrailRecord; unreadable?: undefined }
  | {
      /** What was found instead of a readable output (`type "x"`, `null`, ...): never a value of it. */
      unreadable: string;
      trip?: undefined;
    };

/**
 * Media types whose bytes a model reads as text: `text` and `text/*`, JSON,
 * XML, YAML, CSV, JavaScript, shell, SQL and `+json` / `+xml` subtypes.
 */
const TEXT_MEDIA_TYPE =
  /^(?:text(?:\/|$)|application\/(?:json|xml|x-yaml|yaml|csv|javascript|ecmascript|x-sh|x-shellscript|sql|x-ndjson|ndjson|x-www-form-urlencoded|[\w.+-]*\+(?:json|xml))\s*(?:;|$))/i;

/** Whether a file of this media type is text the model reads. */
export function isTextMediaType(mediaType: unknown): boolean {
  return typeof mediaType === 'string' && TEXT_MEDIA_TYPE.test(mediaType.trim());
}

/** Bytes (a `Uint8Array` or base64) as UTF-8 text; `undefined` when they are neither. */
function decodeFileText(data: unknown): string | undefined {
  let bytes: Uint8Array;
  if (data instanceof Uint8Array) bytes = data;
  else if (typeof data === 'string') {
    let binary: string;
    try {
      binary = atob(data);
    } catch {
      return undefined;
    }
    bytes = new Uint8Array(binary.length);
    for (let i = 0; i < binary.length; i++) bytes[i] = binary.charCodeAt(i);
  } else return undefined;
  return new TextDecoder().decode(bytes);
}

/** Text back into the form its bytes came in (a `Uint8Array`, or base64 for a string). */
function encodeFileText(text: string, like: unknown): Uint8Array | string {
  const bytes = new TextEncoder().encode(text);
  if (like instanceof Uint8Array) return bytes;
  let binary = '';
  for (let i = 0; i < bytes.length; i += 0x8000) {
    binary += String.fromCharCode(...bytes.subarray(i, i + 0x8000));
  }
  return btoa(binary);
}

/** Names what was found where a model output was expected, without quoting more than its type. */
function describeUnreadable(view: unknown): string {
  if (view === null) return 'null';
  if (typeof view !== 'object') return `a ${typeof view}`;
  const type = (view as { type?: unknown }).type;
  return typeof type === 'string'
    ? `type ${JSON.stringify(type.slice(0, 40))}`
    : 'an object without a type';
}

/**
 * Judges every text the model reads in one tool result output, the same way
 * wherever the output comes from (`guardTools`' `toModelOutput`, a
 * `tool-result` part of a prompt): `text` and `error-text` values, an
 * `execution-denied` reason, each `text` part of a `content` output and the
 * text of a `file` part (inline, or bytes of a text media type decoded as
 * UTF-8: {@link isTextMediaType}) go to `judges.text`; `json` and `error-json` values go to `judges.json`. Media
 * and `custom` parts are not text and pass as they are. A modification is
 * put back in its place (the output is copied, never changed in place).
 * Anything else (an unknown type, a text that is not a string, a part
 * without a type) is `unreadable`: the caller fails closed.
 */
export async function checkModelOutputTexts(
  view: unknown,
  judges: ModelOutputJudges,
): Promise<ModelOutputCheck> {
  const unreadable = { unreadable: describeUnreadable(view) };
  if (view === null || typeof view !== 'object') return unreadable;
  const model = view as ModelOutput;
  switch (model.type) {
    case 'text':
    case 'error-text': {
      if (typeof model.value !== 'string') return unreadable;
      const checked = await judges.text(model.value, 'value');
      if (checked.trip) return { trip: checked.trip };
      return { value: checked.value === model.value ? model : { ...model, value: checked.value } };
    }
    case 'json':
    case 'error-json': {
      const checked = await judges.json(model.value);
      if (checked.trip) return { trip: checked.trip };
      return { value: checked.value === model.value ? model : { ...model, value: checked.value } };
    }
    case 'execution-denied': {
      if (model.reason === undefined) return { value: model };
      if (typeof model.reason !== 'string') return unreadable;
      const checked = await judges.text(model.reason, 'reason');
      if (checked.trip) return { trip: checked.trip };
      return {
        value: checked.value === model.reason ? model : { ...model, reason: checked.value },
      };
    }
    case 'content': {
      if (!Array.isArray(model.value)) return unreadable;
      const parts: unknown[] = [];
      let changed = false;
      for (const part of model.value as unknown[]) {
        if (part === null || typeof part !== 'object') return unreadable;
        const { type, text, data } = part as { type?: unknown; text?: unknown; data?: unknown };
        if (typeof type !== 'string') return unreadable;
        if (type === 'text') {
          if (typeof text !== 'string') return unreadable;
          const checked = await judges.text(text, 'part');
          if (checked.trip) return { trip: checked.trip };
          changed ||= checked.value !== text;
          parts.push(checked.value === text ? part : { ...part, text: checked.value });
          continue;
        }
        const inline = data as { type?: unknown; text?: unknown } | null | undefined;
        if (type === 'file' && inline?.type === 'text') {
          // An inline text document: the model reads it as text.
          if (typeof inline.text !== 'string') return unreadable;
          const checked = await judges.text(inline.text, 'file-text');
          if (checked.trip) return { trip: checked.trip };
          changed ||= checked.value !== inline.text;
          parts.push(
            checked.value === inline.text
              ? part
              : { ...part, data: { ...inline, text: checked.value } },
          );
          continue;
        }
        const fileBytes =
          type === 'file' && inline?.type === 'data'
            ? { holder: 'data' as const, bytes: (inline as { data?: unknown }).data }
            : (type === 'file-data' || type === 'media') && 'data' in (part as object)
              ? { holder: 'part' as const, bytes: data }
              : undefined;
        if (fileBytes && isTextMediaType((part as { mediaType?: unknown }).mediaType)) {
          // A text document as bytes: the model reads its text, so it is judged decoded.
          const decoded = decodeFileText(fileBytes.bytes);
          if (decoded === undefined) return unreadable;
          const checked = await judges.text(decoded, 'file-text');
          if (checked.trip) return { trip: checked.trip };
          if (checked.value === decoded) {
            parts.push(part);
            continue;
          }
          changed = true;
          const encoded = encodeFileText(checked.value, fileBytes.bytes);
          parts.push(
            fileBytes.holder === 'data'
              ? { ...part, data: { ...inline, data: encoded } }
              : { ...part, data: encoded },
          );
          continue;
        }
        parts.push(part);
      }
      return { value: changed ? { ...model, value: parts } : model };
    }
    default:
      return unreadable;
  }
}
