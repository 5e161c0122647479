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
// Single letters separated by one space or dot, e.g. "i g n o r e" or "i.g.n.o.r.e".
const spacedLetters = /(?<![\p{L}\p{N}])(?:\p{L}[ .\-_*]){3,}\p{L}(?![\p{L}\p{N}])/gu;

function foldWord(word: string, offset: number, whole: string, foldLeet: boolean): string {
  let folded = word;
  if (latinLetter.test(folded) && /[^ -~]/.test(folded)) {
    folded = Array.from(folded, char => homoglyphs[char] ?? char).join('');
  }
  // 'name@example.com' is an address, not leetspeak.
  const isAddress = folded.includes('@') && whole[offset + word.length] === '.';
  // Only words that are mostly letters: "h4ck3r" folds, "2134@gmail" or "1st" do not.
  const letters = folded.match(/\p{L}/gu)?.length ?? 0;
  const leetCount = folded.match(leetChars)?.length ?? 0;
  if (
    foldLeet &&
    !isAddress &&
    leetCount > 0 &&
    letters > leetCount &&
    !/\d{3}|^\d+(?:st|nd|rd|th)$/.test(folded)
  ) {
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
 * symbols, for matchers that try both readings (`$project` is not `sproject`).
 *
 * @example
 * foldText('1gn0re   аll previous'); // 'ignore all previous'
 */
export function foldText(text: string, { leet: foldLeet = true }: { leet?: boolean } = {}): string {
  return normalizeText(text)
    .text.toLowerCase()
    .replace(/[\u2018\u2019\u201b\u2032]/g, "'")
    .replace(/[\u201c\u201d\u201f\u2033]/g, '"')
    .replace(wordToken, (word, offset: number, whole: string) =>
      foldWord(word, offset, whole, foldLeet),
    )
    .replace(spacedLetters, run => run.replace(/[ .\-_*]/g, ''))
    .replace(/[^\S\n]+/g, ' ')
    .replace(/ ?\n[\s]*/g, '\n')
    .trim();
}
