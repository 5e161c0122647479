/**
 * Puts back in JSON form a modification that rewrote a bare JSON literal.
 *
 * Tool arguments and JSON tool results are judged as their JSON text, so a
 * redaction of a value the tool wrote as a number (`{"phone":4155552671}`)
 * replaces the number itself: `{"phone":[PHONE_NUMBER]}` is not JSON, and the
 * whole result used to be withheld for it. This writes each bare literal
 * (number, `true`, `false`, `null`) that the modification changed, in whole or
 * in part, as a JSON string of its new text: `{"phone":"[PHONE_NUMBER]"}`.
 * Everything else must be where it was: the same punctuation in the same
 * order, strings still strings (their content may change). A modification
 * that changed the JSON any other way (a redaction that ran across a comma,
 * a quote or a key) gets `undefined`, and the caller fails closed as before.
 *
 * One pass over both texts. `judged` is the JSON text the guardrail was given
 * (valid JSON); `modified` is its modification, which did not parse. The text
 * returned has not been parsed: the caller parses it (a string whose content
 * the modification broke, such as a raw line break, still fails there).
 */
export function quoteRedactedLiterals(judged: string, modified: string): string | undefined {
  const pieces: string[] = [];
  let copiedUpTo = 0; // `modified` before this index is in `pieces`
  let quoted = false;
  let i = skipWhitespace(judged, 0);
  let j = skipWhitespace(modified, 0);
  while (i < judged.length) {
    const c = judged.charCodeAt(i);
    if (c === QUOTE) {
      if (modified.charCodeAt(j) !== QUOTE) return undefined;
      const judgedEnd = stringEnd(judged, i);
      const modifiedEnd = stringEnd(modified, j);
      if (judgedEnd < 0 || modifiedEnd < 0) return undefined;
      i = judgedEnd;
      j = modifiedEnd;
    } else if (isPunctuation(c)) {
      if (modified.charCodeAt(j) !== c) return undefined;
      i++;
      j++;
    } else {
      let literalEnd = i;
      while (literalEnd < judged.length && !endsLiteral(judged.charCodeAt(literalEnd))) {
        literalEnd++;
      }
      const literal = judged.slice(i, literalEnd);
      const afterLiteral = skipWhitespace(judged, literalEnd);
      // What follows the literal: punctuation, or the end of the text (-1).
      const next = afterLiteral < judged.length ? judged.charCodeAt(afterLiteral) : -1;
      const unchangedEnd = j + literal.length;
      if (
        modified.startsWith(literal, j) &&
        (unchangedEnd === modified.length || endsLiteral(modified.charCodeAt(unchangedEnd)))
      ) {
        i = literalEnd;
        j = unchangedEnd;
      } else {
        // The new text runs to the punctuation that follows the literal, outside
        // any brackets of its own (`[PHONE_NUMBER]` before a `]`).
        let depth = 0;
        let end = j;
        for (; end < modified.length; end++) {
          const d = modified.charCodeAt(end);
          if (depth === 0 && d === next) break;
          if (d === OPEN_BRACKET || d === OPEN_BRACE) depth++;
          else if (d === CLOSE_BRACKET || d === CLOSE_BRACE) {
            if (depth === 0) return undefined;
            depth--;
          }
        }
        if (depth !== 0 || (next !== -1 && end === modified.length)) return undefined;
        let textEnd = end;
        while (textEnd > j && isWhitespace(modified.charCodeAt(textEnd - 1))) textEnd--;
        pieces.push(modified.slice(copiedUpTo, j), JSON.stringify(modified.slice(j, textEnd)));
        copiedUpTo = textEnd;
        quoted = true;
        i = literalEnd;
        j = end;
      }
    }
    i = skipWhitespace(judged, i);
    j = skipWhitespace(modified, j);
  }
  if (j !== modified.length || !quoted) return undefined;
  pieces.push(modified.slice(copiedUpTo));
  return pieces.join('');
}

const QUOTE = 0x22;
const BACKSLASH = 0x5c;
const OPEN_BRACKET = 0x5b;
const CLOSE_BRACKET = 0x5d;
const OPEN_BRACE = 0x7b;
const CLOSE_BRACE = 0x7d;

function isPunctuation(c: number): boolean {
  return (
    c === OPEN_BRACE ||
    c === CLOSE_BRACE ||
    c === OPEN_BRACKET ||
    c === CLOSE_BRACKET ||
    c === 0x2c /* , */ ||
    c === 0x3a /* : */
  );
}

function isWhitespace(c: number): boolean {
  return c === 0x20 || c === 0x0a || c === 0x0d || c === 0x09;
}

function endsLiteral(c: number): boolean {
  return isPunctuation(c) || isWhitespace(c) || c === QUOTE;
}

function skipWhitespace(text: string, from: number): number {
  let index = from;
  while (index < text.length && isWhitespace(text.charCodeAt(index))) index++;
  return index;
}

/** The index after the closing quote of the string opening at `start`, or -1 if it does not close. */
function stringEnd(text: string, start: number): number {
  for (let index = start + 1; index < text.length; index++) {
    const c = text.charCodeAt(index);
    if (c === BACKSLASH) index++;
    else if (c === QUOTE) return index + 1;
  }
  return -1;
}

/**
 * Parses `modified`, a guardrail's modification of the JSON text `judged`: as
 * it is, else with its rewritten bare literals quoted
 * ({@link quoteRedactedLiterals}). `text` is the JSON text that parsed. Throws
 * the error of the first parse when neither parses.
 */
export function parseModifiedJson(
  judged: string,
  modified: string,
): { text: string; value: unknown } {
  try {
    return { text: modified, value: JSON.parse(modified) };
  } catch (error) {
    const quoted = quoteRedactedLiterals(judged, modified);
    if (quoted === undefined) throw error;
    try {
      return { text: quoted, value: JSON.parse(quoted) };
    } catch {
      throw error;
    }
  }
}
