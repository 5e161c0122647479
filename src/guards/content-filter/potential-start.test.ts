import { describe, expect, it } from 'vitest';
import { seededRandom } from '../../../bench/fixtures';
import { filteredHookOf } from '../../core/filtered-hooks';
import { plainView } from '../shared/potential-start';
import { contentFilter, DEFAULT_CONTENT_CATEGORIES } from './content-filter';
import {
  contentFilterHookParts,
  contentFilterMayMatch,
  contentFilterPotentialStart,
  contentFilterPotentialStartFiltered,
  foldsToLowerCase,
  foldsToLowerCaseFrom,
  lowerCasePrefixTest,
} from './potential-start';

const TERMS = [...Object.values(DEFAULT_CONTENT_CATEGORIES).flat(), "don't", 'café crème'];

/** The reading the hook had before `lowerCasePrefixTest`: slice, lower-case, straighten, collapse, look up. */
function referencePrefixTest(terms: readonly string[]) {
  const prefixes = new Set<string>();
  for (const term of terms)
    for (let end = 1; end <= term.length; end++) prefixes.add(term.slice(0, end));
  return (text: string, start: number) => {
    const read = text
      .slice(start)
      .toLowerCase()
      .replace(/[\u2018\u2019\u201b]/g, "'")
      .replace(/[\u201c\u201d\u201f]/g, '"')
      .trim()
      .replace(/\s+/g, ' ');
    return read !== '' && prefixes.has(read);
  };
}

// Pieces of entries in both cases, blanks of every kind prose has, curly quotes, Latin-1 capitals.
const PIECES = [
  'kill',
  'KILL',
  'Kill',
  'you',
  'YOURSELF',
  'yo',
  'my',
  'self',
  'a',
  'bomb',
  'Make',
  'shit',
  'don',
  '\u2019t',
  "'t",
  't',
  'caf',
  '\u00e9',
  '\u00c9',
  'CAF\u00c9',
  'cr',
  '\u00c8me',
  'the',
  ' ',
  ' ',
  ' ',
  '  ',
  '\n',
  '\t',
  '\r\n',
  '.',
  ',',
  '\u201c',
  '-',
];

function randomText(random: () => number, pieces: readonly string[], count: number): string {
  let text = '';
  for (let j = 0; j < count; j++) text += pieces[Math.floor(random() * pieces.length)];
  return text;
}

/** Token starts: a non-blank character after a blank or at 0 (where the hook asks). */
function tokenStarts(text: string): number[] {
  const starts: number[] = [];
  for (let at = 0; at < text.length; at++) {
    if (!/\s/.test(text[at]!) && (at === 0 || /\s/.test(text[at - 1]!))) starts.push(at);
  }
  return starts;
}

describe('contentFilter hook: reading prose from a word in lower case', () => {
  it('lowerCasePrefixTest answers as the sliced, lower-cased reading, on 20,000 random texts', () => {
    const random = seededRandom(161);
    const test = lowerCasePrefixTest(TERMS);
    const reference = referencePrefixTest(TERMS);
    let begins = 0;
    let asked = 0;
    for (let i = 0; i < 20_000; i++) {
      const text = randomText(random, PIECES, 1 + Math.floor(random() * 8));
      for (const start of tokenStarts(text)) {
        asked++;
        const expected = reference(text, start);
        if (test(text, start) !== expected)
          expect({ text, start, begins: !expected }).toBe(undefined);
        if (expected) begins++;
      }
    }
    // Both answers are common, so the comparison tests both.
    expect(begins).toBeGreaterThan(1_500);
    expect(asked - begins).toBeGreaterThan(5_000);
  });

  it('reads curly quotes straight, blanks as one, capitals small, and stops at the first difference', () => {
    const test = lowerCasePrefixTest(TERMS);
    expect(test('so KILL \n  YO', 3)).toBe(true);
    expect(test('DON\u2019T', 0)).toBe(true);
    expect(test('CAF\u00c9 CR\u00c8ME  ', 0)).toBe(true);
    expect(test('killing', 0)).toBe(false);
    expect(test('kill  your', 0)).toBe(true);
    expect(test('kill yours', 0)).toBe(true);
    expect(test('kill youth', 0)).toBe(false);
  });

  it('foldsToLowerCaseFrom answers as foldsToLowerCase of the slice, on 20,000 random texts', () => {
    const random = seededRandom(162);
    const pieces = [
      ...PIECES,
      '1',
      '@',
      'a b c d',
      'x.y.z.w',
      '\u00a0',
      '\u2014',
      '\u0430',
      '\u200b',
    ];
    let folds = 0;
    let asked = 0;
    for (let i = 0; i < 20_000; i++) {
      const text = randomText(random, pieces, 1 + Math.floor(random() * 10));
      for (const from of tokenStarts(text)) {
        asked++;
        const expected = foldsToLowerCase(text.slice(from));
        if (foldsToLowerCaseFrom(text, from) !== expected)
          expect({ text, from, folds: !expected }).toBe(undefined);
        if (expected) folds++;
      }
    }
    expect(folds).toBeGreaterThan(5_000);
    expect(asked - folds).toBeGreaterThan(5_000);
  });

  it('holds back the last words that begin an entry, as the filter reads them', () => {
    const hook = contentFilter().potentialMatchStart!;
    expect(hook('Well, I will KILL  yo')).toBe(6);
    expect(hook('The team will make a')).toBe(14);
    expect(hook('The team reviewed the plan.')).toBe(27);
    expect(hook('Do not say shi')).toBe(11);
  });

  it('answers with its pre-check as without it, on 20,000 random texts', () => {
    const terms = [
      'shoot up the school',
      'kill yourself',
      'kill you',
      'build a bomb',
      'shit',
      'fuck',
    ];
    const fast = contentFilterPotentialStart(terms, 76);
    const slow = contentFilterPotentialStart(terms, 76, false);
    const pieces = [
      ...'the team plans to hire a new report kill you yourself shoot up school build bomb shit fuck sh ki bu yo I a x'.split(
        ' ',
      ),
      ...' ,.;:!?\'"()-/*_@$|0123456789'.split(''),
      '  ',
      '\n',
      'k i l l',
      'sh1t',
      'K\u0130LL',
      '\u00e9',
      '\u200b',
      '\u2019',
      'f\u00fcck',
      '\ud83d\ude00',
    ];
    const random = seededRandom(21);
    let held = 0;
    for (let i = 0; i < 20_000; i++) {
      let text = '';
      for (let j = 0, count = 1 + Math.floor(random() * 16); j < count; j++) {
        const piece = pieces[Math.floor(random() * pieces.length)]!;
        text += random() < 0.6 ? `${piece} ` : piece;
      }
      const expected = slow(text);
      if (fast(text) !== expected)
        expect({ text, start: fast(text) }).toEqual({ text, start: expected });
      if (expected < text.length) held++;
    }
    // Both answers are common, so the comparison tests both.
    expect(held).toBeGreaterThan(2_000);
    expect(held).toBeLessThan(18_000);
  });

  it('answers with its one backward pass as without it, on every prefix of 20,000 random texts (long ones read from the last maxMatchLength characters)', () => {
    // The pass reads the last words in place, bounded by `maxMatchLength`
    // (the full hook slices them): cut at every position, and a bound of 20
    // and 76 characters, so the bound falls inside words, runs and blanks.
    const pieces = [
      ...PIECES,
      ...'shoot up school build bomb fuck sh ki bu I x make pipe ghost nerve end my life'.split(
        ' ',
      ),
      ...' ,.;:!?\'"()-/*_@$|0123456789'.split(''),
      'k i l l',
      'k.i.l.l',
      'sh1t',
      'f*ck',
      'K\u0130LL',
      'f\u00fcck',
      'ki\u200bll',
      '\u0441hit',
      '\uff4bill',
      'k\u0301',
      '\u00a0',
      '\u000b',
      '\u000c',
      '\u2003',
      '\u2028',
      '\u2014',
      '\ud83d\ude00',
      '\ud83c\uddfa\ud83c\uddf8',
      '\ud83d',
      '\u00e9',
    ];
    const random = seededRandom(1616);
    let asked = 0;
    let answered = 0;
    let held = 0;
    for (const bound of [20, 76]) {
      // The hook is the pass's answer where it gives one, else the full reading's
      // (`contentFilterPotentialStart`): the two are compared where the pass answers,
      // and neither is run through what the hook adds after them (turned letters, an
      // open override), which both share and which could hide a difference.
      const { onePass, full } = contentFilterHookParts(TERMS, bound);
      for (let i = 0; i < 10_000; i++) {
        let text = '';
        for (let j = 0, count = 1 + Math.floor(random() * 12); j < count; j++) {
          const piece = pieces[Math.floor(random() * pieces.length)]!;
          text += random() < 0.5 ? `${piece} ` : piece;
        }
        for (let end = 1; end <= text.length; end++) {
          const cut = text.slice(0, end);
          asked++;
          const start = onePass(cut);
          if (start < 0) continue;
          answered++;
          const expected = full(cut);
          if (expected < cut.length) held++;
          if (start !== expected)
            expect({ bound, text: cut, start }).toEqual({ bound, text: cut, start: expected });
        }
      }
    }
    // Both answers are common, so the comparison tests both.
    expect(asked).toBeGreaterThan(200_000);
    expect(held).toBeGreaterThan(answered / 5);
    expect(answered - held).toBeGreaterThan(answered / 5);
  });

  it('holds back a word that begins an entry after punctuation inside a token, as the filter matches it there', () => {
    const hook = contentFilter().potentialMatchStart!;
    // The filter blocks `(shit`, `"shit`, `--shit` and `x/shit`: an entry after any non-letter.
    expect(hook('Do not say (shi')).toBe(12);
    expect(hook('Do not say "shi')).toBe(12);
    expect(hook('Do not say --shi')).toBe(13);
    expect(hook('Do not say x/shi')).toBe(13);
    // Letters before it make it part of a word, which the filter does not match.
    expect(hook('Do not say xshi')).toBe(15);
    // Leetspeak: a token is folded from its start (`sh1t` is an entry), and a
    // candidate after a digit is judged by folding too (held: it costs a few characters).
    expect(hook('Do not say sh1')).toBe(11);
    expect(hook('Do not say 2sh1')).toBe(12);
    const filter = contentFilter();
    for (const text of ['(shit', '"shit"', '--shit', 'x/shit', 'sh1t'])
      expect(filter.check(`Do not say ${text}`, { kind: 'output' } as never)).toMatchObject({
        action: 'block',
      });
    expect(filter.check('Do not say xshit', { kind: 'output' } as never)).toMatchObject({
      action: 'allow',
    });
  });
});

/** The pre-filter as it was before it read the plain view in any case: lower-cased, quotes straightened, then the pattern. */
function referenceMayMatch(terms: readonly string[]) {
  const letterOrDigit = '[A-Za-z\\u00c0-\\u00d6\\u00d8-\\u00f6\\u00f8-\\u00ff0-9]';
  const letter = '[A-Za-z\\u00c0-\\u00d6\\u00d8-\\u00f6\\u00f8-\\u00ff]';
  // Round 38: or three letters, one separator and two or three blanks apart (`o n   h`).
  // Round 45: a tab or line break is a separator, or part of a word break.
  const separator = '[ .\\-_*\\t\\n\\v\\f\\r\\x85\\u2028\\u2029]';
  const wordBreak = '[ \\t\\n\\v\\f\\r\\x85\\u2028\\u2029]{2,3}';
  const spelledOut = new RegExp(
    `(?<!${letterOrDigit})(?:${letter}(?:${separator}${letter}){3}|${letter}${wordBreak}${letter}${separator}${letter}|${letter}${separator}${letter}${wordBreak}${letter})`,
  );
  const pattern = new RegExp(
    `(?<!${letterOrDigit})(?:${terms
      .map(term => term.replace(/[.*+?^${}()|[\]\\]/g, '\\$&').replace(/ /g, '\\s+'))
      .join('|')})(?!${letterOrDigit})`,
  );
  const asWritten = (text: string) => {
    const plain = plainView(text);
    if (plain === undefined || /[0-9@$|]/.test(plain) || spelledOut.test(plain)) return true;
    const read = plain
      .toLowerCase()
      .replace(/[\u2018\u2019\u201b]/g, "'")
      .replace(/[\u201c\u201d\u201f]/g, '"');
    return pattern.test(read);
  };
  // Round 35 (hJ): and with a run of `-._/` after a letter (and before one, or the end) as blanks.
  const joiners = /(?<=[A-Za-z]|(?!\s)[\u0080-\uffff])[-._/]+(?=[A-Za-z]|(?!\s)[\u0080-\uffff]|$)/g;
  return (text: string) => {
    const joined = text.replace(joiners, run => ' '.repeat(run.length));
    return asWritten(text) || (joined !== text && asWritten(joined));
  };
}

describe('contentFilter mayMatch', () => {
  it('answers as the lower-cased reading, with and without quotes in the entries (20,000 random texts each)', () => {
    const pieces = [
      ...PIECES,
      '\u00d6',
      '\u00f6',
      '\u00df',
      '\u00ff',
      '\u2018',
      '"',
      '\u2014',
      'x',
    ];
    for (const terms of [TERMS.filter(term => !/['"]/.test(term)), TERMS]) {
      const random = seededRandom(163);
      const filter = contentFilterMayMatch(terms);
      const reference = referenceMayMatch(terms);
      let may = 0;
      for (let i = 0; i < 20_000; i++) {
        const text = randomText(random, pieces, 1 + Math.floor(random() * 10));
        const expected = reference(text);
        if (filter(text) !== expected) expect({ terms, text, may: !expected }).toBe(undefined);
        if (expected) may++;
      }
      expect(may).toBeGreaterThan(300);
      expect(may).toBeLessThan(18_000);
    }
    expect(contentFilterMayMatch(TERMS)('You should K\u0130LL time')).toBe(true);
    expect(contentFilterMayMatch(TERMS)('We KILL  YOURSELF-free bugs')).toBe(true);
    expect(contentFilterMayMatch(TERMS)('The team reviewed the plan.')).toBe(false);
  });
});

describe('contentFilter hook for text its filter ruled out', () => {
  it('answers as the full hook on every suffix and substring of 20,000 random texts contentFilterMayMatch rules out', () => {
    // Entries' pieces in every case, punctuation inside tokens, blanks of
    // every kind, and what sends a text to the full hook (Latin-1 and curly
    // quotes, dashes, a spelled-out run where the substring starts).
    const pieces = [
      ...PIECES,
      ...'shoot up school build bomb fuck sh ki bu I x make pipe ghost nerve end my life mu murder'.split(
        ' ',
      ),
      ...' ,.;:!?\'"()-/*_'.split(''),
      '(kil',
      '"sh',
      '--fu',
      'k i l',
      'a b c',
      'K.I.L',
      'xk i l l',
      'Ak-i-l-l',
      '\u000b',
      '\u000c',
      '\u00a0',
      '\u2014',
      '\u2026',
      '\u2019',
    ];
    const random = seededRandom(1617);
    let ruledOut = 0;
    let held = 0;
    let asked = 0;
    for (const bound of [20, 76]) {
      const hook = contentFilterPotentialStart(TERMS, bound);
      const mayMatch = contentFilterMayMatch(TERMS);
      const filtered = contentFilterPotentialStartFiltered(TERMS, bound, hook);
      for (let i = 0; i < 10_000; i++) {
        let text = '';
        for (let j = 0, count = 1 + Math.floor(random() * 14); j < count; j++) {
          const piece = pieces[Math.floor(random() * pieces.length)]!;
          text += random() < 0.5 ? `${piece} ` : piece;
        }
        if (mayMatch(text)) continue;
        ruledOut++;
        // The window asks about the end of the text the filter saw (or a part of it).
        for (let k = 0; k < 6; k++) {
          const from = Math.floor(random() * text.length);
          const to =
            k % 2 === 0 ? text.length : from + Math.floor(random() * (text.length - from + 1));
          const sub = text.slice(from, to);
          const expected = hook(sub);
          asked++;
          if (expected < sub.length) held++;
          if (filtered(sub) !== expected)
            expect({ bound, text: sub, start: filtered(sub) }).toEqual({
              bound,
              text: sub,
              start: expected,
            });
        }
      }
    }
    // Both answers are common, so the comparison tests both.
    expect(ruledOut).toBeGreaterThan(4_000);
    expect(held).toBeGreaterThan(asked / 5);
    expect(asked - held).toBeGreaterThan(asked / 5);
  });

  it('is the hook window mode uses for text contentFilter ruled out', () => {
    const guardrail = contentFilter();
    const filtered = filteredHookOf(guardrail)!;
    expect(filtered).not.toBe(guardrail.potentialMatchStart);
    for (const [text, start] of [
      ['Well, I will KILL  yo', 6],
      ['The team will make a', 14],
      ['The team reviewed the plan.', 27],
      ['Do not say shi', 11],
      ['Do not say (shi', 12],
      ['the plan, sh  ', 10],
      ['He left.\nKill yourse', 9],
    ] as const) {
      expect(guardrail.mayMatch!(text)).toBe(false);
      expect(filtered(text)).toBe(start);
      expect(guardrail.potentialMatchStart!(text)).toBe(start);
    }
    // A spelled-out run where the text starts (the filter saw a letter before it) is the full hook's.
    expect(guardrail.mayMatch!('xk i l l')).toBe(false);
    expect(filtered('k i l l')).toBe(guardrail.potentialMatchStart!('k i l l'));
    expect(filtered('k i l l')).toBe(0);
    // Thousands of long entries would make its table too large: the full hook stands in.
    const many = Array.from({ length: 4_000 }, (_, i) => `entry number ${i} of a very long list`);
    const full = contentFilterPotentialStart(many, 160);
    expect(contentFilterPotentialStartFiltered(many, 160, full)).toBe(full);
    // A copy with another filter keeps the full hook.
    expect(filteredHookOf({ ...guardrail, mayMatch: () => true })).toBe(
      guardrail.potentialMatchStart,
    );
  });
});

describe('contentFilterPotentialStart of very long entries', () => {
  it('builds for one 200,000-character entry (it took minutes: every prefix in a set) and holds back its start', () => {
    for (const entry of ['a'.repeat(200_000), 'ab '.repeat(66_666).concat('ab')]) {
      expect(entry.length).toBe(200_000);
      const hook = contentFilterPotentialStart([entry, 'kill you'], entry.length * 4);
      const text = `The plan: ${entry.slice(0, 500)}`;
      expect(hook(text)).toBe(10);
      expect(hook(`The plan: ${entry.slice(0, 500).replace(/.$/, 'x')}`)).toBe(text.length);
      expect(hook('Well, kill yo')).toBe(6);
    }
  });
});
