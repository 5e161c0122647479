import { jsonStringView } from '../secrets/json-string-view';
import type { DetectedSpan } from './spans';

/**
 * What `find` finds in a JSON text (a tool's arguments or result, judged as
 * canonical JSON) read with the escapes of its strings decoded, as spans of
 * the JSON text; `undefined` when the text has no escape to decode (read it
 * as it is). Read as it is, a line break in a string is the two characters
 * `\n`, whose `n` hides the value after it from a finder (`\n4155552671`)
 * or joins it (`\tjane@x.io` redacted as `\[EMAIL_ADDRESS]`, which is not
 * JSON). Each span covers whole escapes, so a redaction never cuts one in
 * two; a span across a string's end still breaks the JSON, and the caller
 * fails closed as it did. `find`'s spans must be in text order without
 * overlaps; they stay so. Linear in the text.
 */
export function decodedJsonSpans<SPAN extends DetectedSpan>(
  json: string,
  find: (decoded: string) => readonly SPAN[],
): SPAN[] | undefined {
  const view = jsonStringView(json);
  if (!view) return undefined;
  return find(view.text).map(span => ({
    ...span,
    start: view.sourceStart[span.start]!,
    end: span.end > span.start ? view.sourceEnd[span.end - 1]! : view.sourceStart[span.start]!,
  }));
}
