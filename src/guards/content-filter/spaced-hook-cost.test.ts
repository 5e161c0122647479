import { describe, expect, it, vi } from 'vitest';
import { seededRandom } from '../../../bench/fixtures';
import { BUILTIN_CONTENT_CATEGORIES, DEFAULT_CONTENT_CATEGORIES } from './content-filter';
import { spacedRunWalker } from './entry-trie';
import { contentFilterHookParts } from './potential-start';

// Round 41 (issue 16): on spaced letters (`q x b a …`) contentFilter's
// window hook folded about one short suffix a call (the last units of the
// run, too few to be joined, which read as themselves in lower case), and
// its spaced-run walker asked a `Map` for every child. Both are now read in
// place: the answers must stay those of folding and of the map.

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

const DEFAULT_TERMS = Object.values(DEFAULT_CONTENT_CATEGORIES).flat();
const ALL_TERMS = Object.values(BUILTIN_CONTENT_CATEGORIES).flat();
const MAX_MATCH_LENGTH = 76;

function spacedLetters(random: () => number, units: number, leet: boolean): string {
  let text = '';
  for (let unit = 0; unit < units; unit++) {
    const roll = random();
    text +=
      leet && roll < 0.2
        ? '0134578@$|'[Math.floor(random() * 10)]!
        : String.fromCharCode(97 + Math.floor(random() * 26));
    const gap = random();
    text += gap < 0.8 ? ' ' : gap < 0.9 ? '  ' : gap < 0.95 ? '.' : '';
  }
  return text;
}

describe('contentFilter window hook on spaced letters', () => {
  it('reads the last units of a spaced run in place, without folding them', () => {
    const random = seededRandom(41);
    // Random spaced letters cut at every character: the run's last units begin an entry about every other call.
    const text = spacedLetters(random, 400, false).replace(/ {2,}|\./g, ' ');
    const foldsAndHeld = (lowerCaseSuffixes: boolean) => {
      const { full } = contentFilterHookParts(DEFAULT_TERMS, MAX_MATCH_LENGTH, {
        lowerCaseSuffixes,
      });
      counted.folds = 0;
      const held: number[] = [];
      for (let end = 1; end <= text.length; end++) {
        held.push(full(text.slice(Math.max(0, end - 200), end)));
      }
      return { folds: counted.folds, held };
    };
    const inPlace = foldsAndHeld(true);
    const folding = foldsAndHeld(false);
    expect(text.length).toBeGreaterThan(700);
    expect(inPlace.held).toEqual(folding.held);
    expect(
      inPlace.held.filter((at, index) => at < Math.min(index + 1, 200)).length,
    ).toBeGreaterThan(100);
    // What is still folded: a suffix whose first four units, joined, begin an entry.
    expect({ inPlace: inPlace.folds, folding: folding.folds }).toEqual({
      inPlace: 44,
      folding: 455,
    });
  });

  it('answers as folding every candidate does, on spaced letters, leet and words', () => {
    const random = seededRandom(7);
    const phrases = [
      'k i l l  y o u r s e l f',
      'p i p e  b o m b',
      'f u c k',
      's h i t',
      'kill you',
      'a s s',
    ];
    for (const terms of [DEFAULT_TERMS, ALL_TERMS, ['x y z', 'k1ll', 'acme internal']]) {
      const inPlace = contentFilterHookParts(terms, MAX_MATCH_LENGTH).full;
      const folding = contentFilterHookParts(terms, MAX_MATCH_LENGTH, {
        lowerCaseSuffixes: false,
      }).full;
      let differ = 0;
      let held = 0;
      for (let sample = 0; sample < 1_500; sample++) {
        const phrase = phrases[Math.floor(random() * phrases.length)]!;
        const text = `${spacedLetters(random, Math.floor(random() * 30), random() < 0.5)}${random() < 0.5 ? phrase : ''} ${spacedLetters(random, Math.floor(random() * 6), random() < 0.3)}`;
        for (const end of [text.length, text.length - 1, Math.floor(random() * text.length)]) {
          const cut = text.slice(0, end);
          const answer = inPlace(cut);
          if (answer !== folding(cut)) differ++;
          if (answer < cut.length) held++;
        }
      }
      expect(differ).toBe(0);
      expect(held).toBeGreaterThan(300);
    }
  });
});

describe('spacedRunWalker', () => {
  it('reads the same through its table of ASCII children as through the map', () => {
    const random = seededRandom(3);
    const units = 'abcdefghijklmnopqrstuvwxyz013457@$ öß'.split('');
    for (const terms of [DEFAULT_TERMS, ALL_TERMS, ['kö ll', 'straße', 'k i l l', 'ab', 'a']]) {
      const table = spacedRunWalker(terms, 8);
      const map = spacedRunWalker(terms, 8, 0);
      let differ = 0;
      let alive = 0;
      for (let walk = 0; walk < 3_000; walk++) {
        table.begin();
        map.begin();
        for (let read = 0; read < 12; read++) {
          const unit = units[Math.floor(random() * units.length)]!.charCodeAt(0);
          const other = random() < 0.3 ? 'aeiost'.charCodeAt(Math.floor(random() * 6)) : 0;
          const a = table.unit(unit, other);
          if (a !== map.unit(unit, other)) differ++;
          if (table.step() !== map.step()) differ++;
          if (a) alive++;
          else break;
        }
      }
      expect(differ).toBe(0);
      expect(alive).toBeGreaterThan(500);
    }
  });
});
