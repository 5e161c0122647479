/**
 * What `JSON.stringify` leaves as written though a terminal or a log
 * viewer acts on it: DEL and the C1 controls (U+009B is the 8-bit CSI of
 * ANSI escapes), bidirectional controls (U+202E reverses the rest of the
 * line) and the line and paragraph separators.
 */
const UNESCAPED_BY_JSON = /[\u007f-\u009f\u200e\u200f\u202a-\u202e\u2066-\u2069\u2028\u2029]/g;

/**
 * A JSON text (or a cut of one) with those characters escaped too, as
 * `\u202e`: a value an error or the CLI prints from a file (round 36).
 */
export function escapeUnprintable(json: string): string {
  return json.replace(
    UNESCAPED_BY_JSON,
    char => `\\u${char.charCodeAt(0).toString(16).padStart(4, '0')}`,
  );
}
