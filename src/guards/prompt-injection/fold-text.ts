import { normalizeText } from '../shared/normalize-text';

/**
 * Latin look-alikes from Cyrillic and Greek, folded only inside words that
 * also contain Latin letters (a Russian or Greek sentence stays as it is).
 */
const homoglyphs: Record<string, string> = {
  а: 'a',
  в: 'b',
  е: 'e',
  ё: 'e',
  к: 'k',
  м: 'm',
  н: 'h',
  о: 'o',
  р: 'p',
  с: 'c',
  т: 't',
  у: 'y',
  х: 'x',
  і: 'i',
  ї: 'i',
  ј: 'j',
  ѕ: 's',
  ԁ: 'd',
  ԛ: 'q',
  ԝ: 'w',
  ɡ: 'g',
  һ: 'h',
  ο: 'o',
  α: 'a',
  ε: 'e',
  ι: 'i',
  κ: 'k',
  ν: 'v',
  ρ: 'p',
  τ: 't',
  υ: 'u',
  χ: 'x',
  β: 'b',
  ӏ: 'l',
  ɩ: 'i',
  ʏ: 'y',
};

/** Leetspeak digits and symbols, folded only inside words that also contain letters. */
const leet: Record<string, string> = {
  '0': 'o',
  '1': 'i',
  '3': 'e',
  '4': 'a',
  '5': 's',
  '7': 't',
  '8': 'b',
  '@': 'a',
  $: 's',
  '|': 'l',
};

const latinLetter = /[a-z]/;
const leetChars = /[0134578@$|]/g;
// A word-like token: letters, digits and the leet symbols, at most 64 long so a
// single regex step stays cheap.
const wordToken = /[\p{L}\p{N}@$|]{2,64}/gu;
// Single letters (or leet digits) separated by one space or dot, e.g.
// "i g n o r e", "i.g.n.o.r.e" or "1 g n 0 r 3": found by `joinSpacedRuns`.
const letter = /\p{L}/u;

function isSpacedUnit(code: number): boolean {
  if (code < 0x80) {
    return (
      (code >= 97 && code <= 122) ||
      (code >= 65 && code <= 90) ||
      code === 48 ||
      code === 49 ||
      code === 51 ||
      code === 52 ||
      code === 53 ||
      code === 55 ||
      code === 56 ||
      code === 64 ||
      code === 36
    );
  }
  return code < 0xd800 || code > 0xdfff ? letter.test(String.fromCharCode(code)) : false;
}

function isSeparator(code: number): boolean {
  return code === 32 || code === 46 || code === 45 || code === 95 || code === 42;
}

function isLetterOrNumber(code: number): boolean {
  if (code < 0x80)
    return (code >= 97 && code <= 122) || (code >= 65 && code <= 90) || (code >= 48 && code <= 57);
  return letterOrNumber.test(String.fromCharCode(code));
}

/**
 * Joins runs of at least four single characters separated by one
 * separator ("i g n o r e"), where the run spells a word (`joinSpaced`).
 * One pass: each character is looked at a bounded number of times.
 */
function joinSpacedRuns(text: string, aggressive: boolean): string {
  const pieces: string[] = [];
  let copied = 0;
  const length = text.length;
  let index = 0;
  while (index < length - 6) {
    if (
      !isSeparator(text.charCodeAt(index + 1)) ||
      !isSpacedUnit(text.charCodeAt(index)) ||
      (index > 0 && isLetterOrNumber(text.charCodeAt(index - 1)))
    ) {
      index++;
      continue;
    }
    // Units at index, index + 2, ...; the run ends at the last unit not followed by a letter or digit.
    let last = index;
    let end = -1;
    let units = 1;
    while (
      last + 2 < length &&
      isSeparator(text.charCodeAt(last + 1)) &&
      isSpacedUnit(text.charCodeAt(last + 2))
    ) {
      last += 2;
      units++;
      const after = last + 1 < length ? text.charCodeAt(last + 1) : -1;
      if (units >= 4 && (after < 0 || !isLetterOrNumber(after))) end = last + 1;
    }
    if (end < 0) {
      index = last + 1;
      continue;
    }
    pieces.push(text.slice(copied, index), joinSpaced(text.slice(index, end), aggressive));
    copied = end;
    index = end;
  }
  if (copied === 0) return text;
  pieces.push(text.slice(copied));
  return pieces.join('');
}

/** Joins a run of spaced single characters when it spells a word (mostly letters). */
function joinSpaced(run: string, aggressive: boolean): string {
  const joined = run.replace(/[ .\-_*]/g, '');
  const letters = joined.match(/\p{L}/gu)?.length ?? 0;
  if (letters * (aggressive ? 3 : 2) < joined.length) return run;
  return letters === joined.length
    ? joined
    : Array.from(joined, char => leet[char] ?? char).join('');
}

function foldWord(
  word: string,
  offset: number,
  whole: string,
  foldLeet: boolean | 'aggressive',
): string {
  let folded = word;
  if (latinLetter.test(folded) && /[^ -~]/.test(folded)) {
    folded = Array.from(folded, char => homoglyphs[char] ?? char).join('');
  }
  // 'name@example.com' is an address, not leetspeak.
  const isAddress = folded.includes('@') && whole[offset + word.length] === '.';
  // Only words that are mostly letters: "h4ck3r" folds, "2134@gmail" or "1st" do not.
  const letters = folded.match(/\p{L}/gu)?.length ?? 0;
  const leetCount = folded.match(leetChars)?.length ?? 0;
  const leetWord =
    foldLeet === 'aggressive'
      ? letters > 0
      : letters > leetCount && !/\d{3}|^\d+(?:st|nd|rd|th)$/.test(folded);
  if (foldLeet && !isAddress && leetCount > 0 && leetWord) {
    folded = Array.from(folded, char => leet[char] ?? char).join('');
  }
  return folded;
}

/**
 * The canonical form injection signals are matched on: the shared
 * normalisation (NFKC, invisible characters removed), lower case, Cyrillic
 * and Greek homoglyphs and leetspeak folded inside Latin words, letters
 * spelled out with spaces joined, and whitespace collapsed (line breaks
 * kept, one per run). Linear time. `{ leet: false }` keeps digits and
 * symbols, for matchers that try both readings (`$project` is not `sproject`);
 * `{ leet: 'aggressive' }` folds every word with a letter in it ("1n57ruc710n5"
 * too) and joins spaced runs that are a third letters, for a second reading
 * of text that looks like heavy leetspeak.
 *
 * @example
 * foldText('1gn0re   аll previous'); // 'ignore all previous'
 */
export function foldText(
  text: string,
  { leet: foldLeet = true }: { leet?: boolean | 'aggressive' } = {},
): string {
  let folded = normalizeText(text).text.toLowerCase();
  if (/[\u2018\u2019\u201b\u2032\u201c\u201d\u201f\u2033]/.test(folded)) {
    folded = folded
      .replace(/[\u2018\u2019\u201b\u2032]/g, "'")
      .replace(/[\u201c\u201d\u201f\u2033]/g, '"');
  }
  return collapseWhitespace(joinSpacedRuns(foldWords(folded, foldLeet), foldLeet === 'aggressive'));
}

const letterOrNumber = /[\p{L}\p{N}]/u;

/** True for a code point that `wordToken` takes into a word. */
function isTokenCodePoint(code: number): boolean {
  if (code < 0x80) {
    return (
      (code >= 97 && code <= 122) ||
      (code >= 48 && code <= 57) ||
      (code >= 65 && code <= 90) ||
      code === 64 ||
      code === 36 ||
      code === 124
    );
  }
  return letterOrNumber.test(String.fromCodePoint(code));
}

/** True for an ASCII code `leetChars` matches: 0 1 3 4 5 7 8 @ $ |. */
function isLeetCode(code: number): boolean {
  return (
    code === 48 ||
    code === 49 ||
    (code >= 51 && code <= 53) ||
    code === 55 ||
    code === 56 ||
    code === 64 ||
    code === 36 ||
    code === 124
  );
}

/**
 * `wordToken` folding, applied only to runs of word characters that
 * `foldWord` can change: runs with a non-ASCII character (homoglyphs), or
 * with both a letter and a leet character. Plain words and numbers (nearly
 * all of a text) fold to themselves, so they are not handed to a callback
 * one by one.
 */
function foldWords(text: string, foldLeet: boolean | 'aggressive'): string {
  const pieces: string[] = [];
  let copied = 0;
  let index = 0;
  const length = text.length;
  while (index < length) {
    const start = index;
    let nonAscii = false;
    let hasLetter = false;
    let hasLeet = false;
    while (index < length) {
      const unit = text.charCodeAt(index);
      if (unit < 0x80) {
        if ((unit >= 97 && unit <= 122) || (unit >= 65 && unit <= 90)) hasLetter = true;
        else if (unit >= 48 && unit <= 57) hasLeet ||= isLeetCode(unit);
        else if (unit === 64 || unit === 36 || unit === 124) hasLeet = true;
        else break;
        index++;
        continue;
      }
      const code = text.codePointAt(index)!;
      if (!isTokenCodePoint(code)) break;
      nonAscii = true;
      index += code > 0xffff ? 2 : 1;
    }
    if ((nonAscii || (hasLetter && hasLeet)) && index - start >= 2) {
      pieces.push(text.slice(copied, start));
      pieces.push(
        text
          .slice(start, index)
          .replace(wordToken, (word, offset: number) =>
            foldWord(word, start + offset, text, foldLeet),
          ),
      );
      copied = index;
    }
    if (index === start) index += text.codePointAt(index)! > 0xffff ? 2 : 1;
  }
  if (copied === 0) return text;
  pieces.push(text.slice(copied));
  return pieces.join('');
}

/** Runs of blanks become one space (single spaces are left as they are); line breaks are kept, one per run. */
function collapseWhitespace(text: string): string {
  return (
    text
      .replace(/[^\S\n ][^\S\n]*| [^\S\n]+/g, ' ')
      // Only line breaks with blanks around them: a plain '\n' is left alone,
      // so text made of many short lines is not rebuilt piece by piece.
      .replace(/ \n\s*|\n\s+/g, '\n')
      .trim()
  );
}
