import { allow, block, defineGuardrail, modify } from '../../core/define-guardrail';
import { GuardrailConfigError } from '../../core/errors';
import type { Guardrail } from '../../core/types';

/** Options of `invisibleText`. */
export interface InvisibleTextOptions {
  /** `'strip'` (default): remove the characters; `'block'`: trip when any is found. */
  action?: 'strip' | 'block';
  /** Also treat private-use characters (U+E000–F8FF, planes 15–16) as hidden. Default true. */
  privateUse?: boolean;
  /** Guardrail name in records. Default `'invisible-text'`. */
  name?: string;
  /** Message of a block. */
  message?: string;
}

// Tags, zero-width, bidi controls, invisible operators, BOM, soft hyphen, variation-selector supplement.
const hiddenSource =
  '[\\u{E0000}-\\u{E007F}\\u200B-\\u200F\\u202A-\\u202E\\u2060-\\u2064\\u2066-\\u206F\\uFEFF\\u00AD\\u180E\\u061C\\u{E0100}-\\u{E01EF}]';
const privateUseSource = '[\\uE000-\\uF8FF\\u{F0000}-\\u{FFFFD}\\u{100000}-\\u{10FFFD}]';
const extendedPictographic = /\p{Extended_Pictographic}/u;

type Category = 'tag' | 'zero-width' | 'bidi' | 'private-use' | 'other';

function categorize(codePoint: number): Category {
  if (codePoint >= 0xe0000 && codePoint <= 0xe007f) return 'tag';
  if ((codePoint >= 0x202a && codePoint <= 0x202e) || (codePoint >= 0x2066 && codePoint <= 0x2069))
    return 'bidi';
  if (codePoint === 0x200e || codePoint === 0x200f || codePoint === 0x061c) return 'bidi';
  if (codePoint >= 0x200b && codePoint <= 0x200d) return 'zero-width';
  if (codePoint === 0x2060 || codePoint === 0xfeff) return 'zero-width';
  if (codePoint >= 0xe000 && codePoint <= 0xf8ff) return 'private-use';
  if (codePoint >= 0xf0000) return 'private-use';
  return 'other';
}

/**
 * True when the character at `index` is part of a legitimate emoji sequence:
 * a ZWJ between two pictographs (👩‍💻), or tag characters that spell a
 * subdivision flag after 🏴 and end with the cancel tag (🏴󠁧󠁢󠁳󠁣󠁴󠁿).
 */
function inEmojiSequence(text: string, index: number, codePoint: number): boolean {
  if (codePoint === 0x200d) {
    const before = text.slice(Math.max(0, index - 3), index);
    const after = text.slice(index + 1, index + 4);
    return (
      extendedPictographic.test(Array.from(before).pop() ?? '') &&
      extendedPictographic.test(Array.from(after)[0] ?? '')
    );
  }
  if (codePoint >= 0xe0020 && codePoint <= 0xe007f) {
    // Walk back over tags to the base; it must be the black flag, and the run must end in U+E007F.
    let start = index;
    while (start >= 2) {
      const previous = text.codePointAt(start - 2)!;
      if (previous < 0xe0020 || previous > 0xe007e) break;
      start -= 2;
    }
    if (text.codePointAt(start - 2) !== 0x1f3f4) return false;
    let end = index;
    while (end < text.length) {
      const current = text.codePointAt(end)!;
      if (current === 0xe007f) return end - start <= 2 * 8;
      if (current < 0xe0020 || current > 0xe007e) return false;
      end += 2;
    }
  }
  return false;
}

/**
 * Finds characters that hide text from a human reader but not from a model:
 * Unicode tag characters ("ASCII smuggling"), zero-width characters, bidi
 * controls and (optionally) private-use characters. Legitimate emoji
 * sequences (ZWJ between pictographs, subdivision flags) are not reported.
 * Returns `[{ type, start, end }]`, one span per run of hidden characters.
 */
export function findInvisibleText(
  text: string,
  { privateUse = true }: Pick<InvisibleTextOptions, 'privateUse'> = {},
): Array<{ type: string; start: number; end: number }> {
  const pattern = new RegExp(
    privateUse ? `${hiddenSource}|${privateUseSource}` : hiddenSource,
    'gu',
  );
  const spans: Array<{ type: string; start: number; end: number }> = [];
  for (const match of text.matchAll(pattern)) {
    const codePoint = match[0].codePointAt(0)!;
    if (inEmojiSequence(text, match.index, codePoint)) continue;
    const type = categorize(codePoint).toUpperCase().replace('-', '_');
    const last = spans[spans.length - 1];
    if (last && last.end === match.index && last.type === type) last.end += match[0].length;
    else spans.push({ type, start: match.index, end: match.index + match[0].length });
  }
  return spans;
}

/**
 * Detects and strips characters used to hide instructions from human
 * readers (tag characters, zero-width characters, bidi controls, private-use
 * characters), keeping emoji sequences intact. Strips by default; `block`
 * trips and reports the kinds found. Stream-safe: it judges one character
 * at a time (a window of 16 keeps emoji sequences whole).
 */
export function invisibleText({
  action = 'strip',
  privateUse = true,
  name = 'invisible-text',
  message = 'The text contains hidden characters.',
}: InvisibleTextOptions = {}): Guardrail {
  if (action !== 'strip' && action !== 'block') {
    throw new GuardrailConfigError({
      path: `${name}.action`,
      value: action,
      expected: "'strip' or 'block'",
    });
  }
  return defineGuardrail({
    name,
    streamSafe: true,
    maxMatchLength: 20,
    check(content) {
      const spans = findInvisibleText(content, { privateUse });
      if (spans.length === 0) return allow();
      const types = [...new Set(spans.map(span => span.type))];
      // Characters, not UTF-16 units: a tag character is two units.
      const count = spans.reduce(
        (sum, span) => sum + Array.from(content.slice(span.start, span.end)).length,
        0,
      );
      if (action === 'block') {
        return block({
          message,
          reason: `hidden characters: ${types.join(', ')}`,
          info: { types, count },
        });
      }
      let stripped = '';
      let cursor = 0;
      for (const span of spans) {
        stripped += content.slice(cursor, span.start);
        cursor = span.end;
      }
      return modify(stripped + content.slice(cursor), { types, count });
    },
  });
}
