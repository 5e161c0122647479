import { declareSignalFreeCheck } from '../../core/chain';
import { allow, block, defineGuardrail, modify } from '../../core/define-guardrail';
import { validateFactoryOptions } from '../../core/options';
import type { Guardrail } from '../../core/types';
import { invisibleTextOptionShape } from './invisible-text-options';
import { invisiblePotentialStart } from './potential-start';

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
// Built once, not per call (a chat message costs less to scan than a fresh
// `u` regex); `findInvisibleText` never re-enters itself, so one `lastIndex` each.
const hidden = new RegExp(hiddenSource, 'gu');
const hiddenOrPrivateUse = new RegExp(`${hiddenSource}|${privateUseSource}`, 'gu');

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

const isFlagTag = (codePoint: number | undefined) =>
  codePoint !== undefined && codePoint >= 0xe0020 && codePoint <= 0xe007e;

/** True when the ZWJ at `index` joins two pictographs (👩‍💻). */
function joinsPictographs(text: string, index: number): boolean {
  const before = text.slice(Math.max(0, index - 3), index);
  const after = text.slice(index + 1, index + 4);
  return (
    extendedPictographic.test(Array.from(before).pop() ?? '') &&
    extendedPictographic.test(Array.from(after)[0] ?? '')
  );
}

/**
 * The end (exclusive) of the subdivision flag whose tag characters start at
 * `start` (🏴 before it, at most eight tags, then the cancel tag U+E007F), or
 * -1 when the tags there are not one. Reads at most nine tags, so a long run
 * of tags costs one bounded look per run rather than a walk per character.
 */
function flagSequenceEnd(text: string, start: number): number {
  if (start < 2 || text.codePointAt(start - 2) !== 0x1f3f4) return -1;
  let end = start;
  for (let tags = 0; tags <= 8; tags++) {
    const codePoint = text.codePointAt(end);
    if (codePoint === 0xe007f) return end + 2;
    if (!isFlagTag(codePoint)) return -1;
    end += 2;
  }
  return -1;
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
  const pattern = privateUse ? hiddenOrPrivateUse : hidden;
  const spans: Array<{ type: string; start: number; end: number }> = [];
  // Tag characters up to here belong to a subdivision flag found earlier.
  let flagEnd = -1;
  pattern.lastIndex = 0;
  for (let match = pattern.exec(text); match !== null; match = pattern.exec(text)) {
    const index = match.index;
    const codePoint = match[0].codePointAt(0)!;
    if (index < flagEnd) continue;
    if (codePoint === 0x200d && joinsPictographs(text, index)) continue;
    if (codePoint >= 0xe0020 && codePoint <= 0xe007f) {
      // Only the first tag of a run can start a flag: the one before it is not a tag.
      const end = isFlagTag(text.codePointAt(index - 2)) ? -1 : flagSequenceEnd(text, index);
      if (end !== -1) {
        flagEnd = end;
        continue;
      }
    }
    const type = categorize(codePoint).toUpperCase().replace('-', '_');
    const last = spans[spans.length - 1];
    if (last && last.end === index && last.type === type) last.end += match[0].length;
    else spans.push({ type, start: index, end: index + match[0].length });
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
export function invisibleText(options?: InvisibleTextOptions): Guardrail {
  const {
    action = 'strip',
    privateUse = true,
    name = 'invisible-text',
    message = 'The text contains hidden characters.',
  } = validateFactoryOptions(options, 'invisible-text', invisibleTextOptionShape);
  const guardrail = defineGuardrail({
    name,
    // Verdicts cached under another configuration must not apply to this one.
    fingerprint: options,
    streamSafe: true,
    // A retry gets the feedback only: the blocked answer holds the values the block is about.
    retryable: 'without-answer',
    maxMatchLength: 20,
    // Window mode holds back only a trailing run of characters that may join what follows.
    potentialMatchStart: invisiblePotentialStart,
    check(content) {
      const spans = findInvisibleText(content, { privateUse });
      if (spans.length === 0) return allow();
      const types = [...new Set(spans.map(span => span.type))];
      // Characters, not UTF-16 units: a tag character is two units.
      let count = 0;
      for (const span of spans) {
        for (let index = span.start; index < span.end; index++) {
          const unit = content.charCodeAt(index);
          if (unit < 0xdc00 || unit > 0xdfff) count++;
        }
      }
      if (action === 'block') {
        return block({
          message,
          reason: `hidden characters: ${types.join(', ')}`,
          info: { types, count },
        });
      }
      const kept: string[] = [];
      let cursor = 0;
      for (const span of spans) {
        kept.push(content.slice(cursor, span.start));
        cursor = span.end;
      }
      kept.push(content.slice(cursor));
      return modify(kept.join(''), { types, count });
    },
  });
  // It never reads ctx.abortSignal nor assigns to ctx: a chain may share one context among such checks.
  declareSignalFreeCheck(guardrail.check);
  return guardrail;
}
