import { describe, expect, it, vi } from 'vitest';
import { seededRandom } from '../../../bench/fixtures';
import { guardContext } from '../../../test/helpers';
import type { Guardrail, Verdict } from '../../core/types';
import {
  foldTermReadings,
  foldTextReadings,
  homoglyphs,
  latinLookAlikes,
  smallCapitals,
  withJoinedRuns,
} from '../prompt-injection/fold-text';
import { decodedJson } from '../shared/json-string-spans';
import {
  BUILTIN_CONTENT_CATEGORIES,
  contentFilter,
  DEFAULT_CONTENT_CATEGORIES,
} from './content-filter';
import { lowerCaseLettersCannotMatch } from './lower-case-letters-pretest';
import { withJoinersBlank, withoutEmphasis } from './markdown-emphasis';
import { spelledRunEntries } from './spelled-run-entries';
import { termMatcher } from './term-matcher';

// Round 42 (issue 16): window mode checked random spaced letters (`q x b a
// …`) again and again, each check folding the window. Text of `[a-z ]` in
// which no entry can be spelled is now passed without folding: the verdict
// must stay the check's, which these tests compute as the check does.

const counted = vi.hoisted(() => ({ folds: 0 }));
vi.mock('../prompt-injection/fold-text', async importOriginal => {
  const original = await importOriginal<typeof import('../prompt-injection/fold-text')>();
  return {
    ...original,
    foldTextReadings: (text: string) => {
      counted.folds++;
      return original.foldTextReadings(text);
    },
  };
});

const ctx = guardContext('output');
/** The check's action (contentFilter's check is synchronous). */
const actionOf = (filter: Guardrail, text: string) => (filter.check(text, ctx) as Verdict).action;

const LISTS: Record<string, readonly string[]> = {
  default: Object.values(DEFAULT_CONTENT_CATEGORIES).flat(),
  builtIn: Object.values(BUILTIN_CONTENT_CATEGORIES).flat(),
  custom: ['a b', 'ab', 'x', 'kill you', 'i', 'qq q', 'acme internal', 'z z z z', 'c3po'],
};

/** The terms as `contentFilter` makes them: every reading, blanks single, longest first. */
function termsOf(list: readonly string[]): string[] {
  const readings = list.flatMap(term => foldTermReadings(term).map(r => r.replace(/\s+/g, ' ')));
  return [...new Set(readings)].sort((a, b) => b.length - a.length);
}

/** What the check finds, as it finds it (every reading, and inside spelled-out runs), without the pre-test. */
function checkFinds(terms: readonly string[]): (text: string) => boolean {
  const matcher = termMatcher(terms);
  const inRuns = spelledRunEntries(terms);
  const joined = (folded: string) => {
    const blank = withJoinersBlank(folded);
    return matcher(folded) !== undefined || (blank !== undefined && matcher(blank) !== undefined);
  };
  const finds = (text: string) => {
    const readings = foldTextReadings(text);
    return joined(readings.folded) || joined(readings.plain());
  };
  return text => {
    const shown = withoutEmphasis(text);
    const runs: string[] = [];
    return withJoinedRuns(
      runs,
      () => finds(text) || (shown !== undefined && finds(shown.text)) || inRuns(runs) !== undefined,
    );
  };
}

/** Seeded texts of `[a-z ]`: spaced letters, entries spelled out, cut, or written, gaps of 0-4 spaces. */
function lowerCaseTexts(list: readonly string[], count: number, seed: number): string[] {
  const random = seededRandom(seed);
  const pick = <T>(from: readonly T[]) => from[Math.floor(random() * from.length)]!;
  const spellable = list.filter(entry => /^[a-z ]+$/.test(entry));
  // Round 44: a word break inside a word too (an entry of several words is read across one).
  const spelled = (entry: string) =>
    [...entry]
      .map(unit => (unit === ' ' ? pick([' ', '  ', '   ']) : unit))
      .reduce((out, unit) => out + (random() < 0.1 ? pick(['  ', '   ']) : ' ') + unit);
  const texts: string[] = [];
  while (texts.length < count) {
    const spaced = random() < 0.5;
    let text = '';
    const pieces = 1 + Math.floor(random() * (spaced ? 90 : 30));
    for (let piece = 0; piece < pieces; piece++) {
      const roll = random();
      const gap = pick([' ', ' ', ' ', '  ', '   ', '    ', '']);
      if (spaced) {
        text += `${String.fromCharCode(97 + Math.floor(random() * 26))}${random() < 0.97 ? ' ' : gap}`;
        if (random() < 0.03) text += `${spelled(pick(spellable))} `;
      } else if (roll < 0.35)
        text += `${String.fromCharCode(97 + Math.floor(random() * 26))}${gap}`;
      else if (roll < 0.55) text += spelled(pick(spellable)) + gap;
      else if (roll < 0.7) text += pick(spellable) + gap;
      else if (roll < 0.85) {
        const entry = pick(spellable);
        const cut = Math.floor(random() * entry.length);
        const part = random() < 0.5 ? entry.slice(cut) : entry.slice(0, cut);
        text += [...part].join(pick([' ', ''])) + gap;
      } else text += pick(['the', 'you', 'a', 'kil', 'ill', 'my', 'self']) + gap;
    }
    texts.push(text);
  }
  return texts;
}

describe('lowerCaseLettersCannotMatch', () => {
  it.each(Object.entries(LISTS))(
    'never rules out a text the check matches (%s list)',
    (_, list) => {
      const terms = termsOf(list);
      const cannotMatch = lowerCaseLettersCannotMatch(terms)!;
      const finds = checkFinds(terms);
      const filter = contentFilter({ categories: { list } });
      let ruledOut = 0;
      let matched = 0;
      for (const text of lowerCaseTexts(list, 4_000, 42)) {
        const found = finds(text);
        if (found) matched++;
        if (cannotMatch(text)) {
          ruledOut++;
          expect({ text, found }).toEqual({ text, found: false });
        }
        expect({ text, action: actionOf(filter, text) }).toEqual({
          text,
          action: found ? 'block' : 'allow',
        });
      }
      // Neither side is empty: texts of both kinds were asked.
      expect(ruledOut).toBeGreaterThan(200);
      expect(matched).toBeGreaterThan(200);
    },
  );

  it('rules out spaced letters that spell no entry, and not those that may', () => {
    const cannotMatch = lowerCaseLettersCannotMatch(termsOf(LISTS.default!))!;
    expect(cannotMatch('q x b a w o p')).toBe(true);
    expect(cannotMatch('')).toBe(true);
    expect(cannotMatch('q x b k i l')).toBe(true);
    // Spelled, across a word break, written; any letter after a space may start a word.
    expect(cannotMatch('q x  k i l l   y o u r s e l f')).toBe(false);
    expect(cannotMatch('q x k i l l   y o u r s e l f')).toBe(false);
    expect(cannotMatch('k i l l y o u')).toBe(false);
    expect(cannotMatch('he said fuck')).toBe(false);
    expect(cannotMatch('s h i')).toBe(true);
    expect(cannotMatch('s h i t')).toBe(false);
    // `x f u c k` joins to `xfuck`, which the check passed before round 44
    // and blocks since (an entry read inside a spelled-out run).
    expect(cannotMatch('x f u c k')).toBe(false);
    expect(actionOf(contentFilter(), 'x f u c k')).toBe('block');
    // Round 44: an entry of several words across a word break of the run.
    expect(cannotMatch('q k i   l l y o u')).toBe(false);
    expect(cannotMatch('q k i    l l y o u')).toBe(true);
    // Other units: the check decides.
    for (const text of ['Q X B A', 'q x b a.', 'q\nx b a', 'q x b a 1', 'q\\x b a', 'q x é']) {
      expect(cannotMatch(text)).toBe(false);
    }
  });

  it('gives up a walk past its step budget (the check then runs)', () => {
    const long = 'a '.repeat(100).trim();
    const cannotMatch = lowerCaseLettersCannotMatch([long])!;
    // Spelling no entry of 100 letters: a walk of 40 steps ends; one of 80 runs past 64.
    expect(cannotMatch('a '.repeat(40).trim())).toBe(true);
    expect(cannotMatch('a '.repeat(80).trim())).toBe(false);
  });

  it('is not built for a list past its trie bound', () => {
    expect(lowerCaseLettersCannotMatch(['a'.repeat(20_000)])).toBeUndefined();
    // Entries with other units spell nothing in such text, and take no room.
    expect(lowerCaseLettersCannotMatch(['1'.repeat(20_000), 'kill'])!('k i l')).toBe(true);
  });

  it('rests on folding steps that leave [a-z ] alone', () => {
    const plain = 'abcdefghijklmnopqrstuvwxyz ';
    for (const table of [homoglyphs, latinLookAlikes, smallCapitals]) {
      expect(Object.keys(table).filter(unit => plain.includes(unit))).toEqual([]);
    }
    expect(decodedJson('a b c d e f g')).toBeUndefined();
    expect(withoutEmphasis(plain)).toBeUndefined();
    expect(withJoinersBlank(plain)).toBeUndefined();
    const readings = foldTextReadings(plain);
    expect(readings.folded).toBe(plain.trim());
    expect(readings.plain()).toBe(readings.folded);
  });
});

describe("contentFilter's check on random spaced letters", () => {
  it('folds none of the windows that spell no entry, and still blocks one that does', () => {
    const random = seededRandom(7);
    let text = '';
    while (text.length < 20_000) text += `${String.fromCharCode(97 + Math.floor(random() * 26))} `;
    const filter = contentFilter();
    counted.folds = 0;
    let allowed = 0;
    for (let at = 0; at + 171 <= text.length; at += 72) {
      if (actionOf(filter, text.slice(at, at + 171)) === 'allow') allowed++;
    }
    // 276 windows, as window mode checks them: before round 42, 276 folds.
    expect({ allowed, folds: counted.folds }).toEqual({ allowed: 276, folds: 0 });
    expect(actionOf(filter, `q x b  k i l l   y o u r s e l f  ${text.slice(0, 100)}`)).toBe(
      'block',
    );
    expect(counted.folds).toBe(1);
  });
});
