import type { GuardrailContext } from '../../core/types';
import { jsonStringView } from './json-string-view';

/**
 * Whether a check reads JSON: a tool's arguments and results, judged as
 * canonical JSON, a tool call's input in the history (judged as input
 * with inputScope 'all'), provider options (canonical JSON too: read as
 * written, `\n` glued a value after a line break to an `n`), and a file
 * of the prompt read as text (a JSON file's `\u0040` is an `@` to the
 * model; a file that does not start as JSON is read as written all the
 * same). Answers and user texts are read
 * as written (window mode judges parts of an answer, which are not JSON,
 * and must decide as generate does).
 */
export function readsJson(ctx: GuardrailContext | undefined): boolean {
  return (
    ctx?.kind === 'tool_input' ||
    ctx?.kind === 'tool_output' ||
    ctx?.part === 'tool-call' ||
    ctx?.part === 'provider-options' ||
    ctx?.part === 'file'
  );
}

/** A JSON text read with the escapes of its strings decoded. */
export interface DecodedJson {
  /** The JSON text with its strings' escapes decoded. */
  text: string;
  /** The range of the JSON text that `[start, end)` of `text` was decoded from: whole escapes. */
  toJson(start: number, end: number): { start: number; end: number };
  /** For each character of `text`: the number of the string it is in, -1 outside strings. */
  stringOf: Int32Array;
}

/**
 * `json` read with the escapes of its strings decoded, or `undefined` when
 * it has none (read it as written). Read as written, a line break in a
 * string is the two characters `\n`, whose `n` hides what follows from a
 * finder (`\n4155552671`, `\nevil.com`) or joins it (`\tjane@x.io` redacted
 * as `\[EMAIL_ADDRESS]`, which is not JSON), and `\u0040` hides an `@`. A
 * range mapped back covers whole escapes, so a redaction never cuts one in
 * two; one across a string's end still breaks the JSON, and the caller
 * fails closed as it did. Linear in the text.
 */
export function decodedJson(json: string): DecodedJson | undefined {
  const view = jsonStringView(json);
  if (!view) return undefined;
  return {
    text: view.text,
    stringOf: view.stringOf,
    toJson: (start, end) => ({
      start: view.sourceStart[start] ?? json.length,
      end: end > start ? view.sourceEnd[end - 1]! : (view.sourceStart[start] ?? json.length),
    }),
  };
}

/**
 * What `find` finds in `json` read with its strings' escapes decoded
 * ({@link decodedJson}), as spans of the JSON text; `undefined` when it has
 * no escape to decode. `find`'s spans in text order without overlaps stay so.
 */
export function decodedJsonSpans<SPAN extends { start: number; end: number }>(
  json: string,
  find: (decoded: string) => readonly SPAN[],
): SPAN[] | undefined {
  const decoded = decodedJson(json);
  if (!decoded) return undefined;
  return find(decoded.text).map(span => ({ ...span, ...decoded.toJson(span.start, span.end) }));
}
