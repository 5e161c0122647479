import { describe, expect, it, vi } from 'vitest';
import { seededRandom } from '../../../bench/fixtures';
import { DEFAULT_CONTENT_CATEGORIES } from './content-filter';
import { spelledRunHold } from './potential-start';

// Round 46 (issue 16): window mode's hold of a spelled-out run ending the
// text (`spelledRunHold`) wrote the whole pending text as it reads runs
// (blanks as spaces, `heldRunReading`; letters past U+FFFF as units,
// `withRunLettersAsUnits`) on every call, though it reads a few units back
// from the end. Now only the tail it reads is written: the answers must be
// the whole text's. Round 47: the first tail is 16 units, read in place
// when the reading would write it as it is (`readsAsWritten`).

/** The longest text each reading of a run was asked to write (either function: the one the hold calls). */
const written = vi.hoisted(() => ({ longest: 0 }));
vi.mock('./run-letters', async importOriginal => {
  const original = await importOriginal<Record<string, (text: string) => string>>();
  const noted =
    (name: string) =>
    (text: string): string => {
      written.longest = Math.max(written.longest, text.length);
      return original[name]!(text);
    };
  return {
    ...original,
    withRunLettersAsUnits: noted('withRunLettersAsUnits'),
    ...(original.heldRunReading && { heldRunReading: noted('heldRunReading') }),
  };
});

/** The first tail the hold reads (round 47). */
const FIRST_TAIL = 16;

const DEFAULT_TERMS = Object.values(DEFAULT_CONTENT_CATEGORIES).flat();
const LISTS: ReadonlyArray<readonly string[]> = [
  DEFAULT_TERMS,
  // A short reach: a first tail of 96 units, read past often.
  ['ass', 'kill you'],
  // Longer than the units read (64): a long run is held unread.
  ['a'.repeat(70), 'pipe bomb'],
];

/** Units a run may hold, and what the hold reads otherwise. */
const UNITS = [
  ...'abcdefghijklmnopqrstuvwxyzKILYOU',
  ...'0134578@$|',
  // Mathematical bold and double-struck letters, a negative circled capital, parenthesized letters.
  '\u{1d424}',
  '\u{1d422}',
  '\u{1d55d}',
  '\u{1f15a}',
  '\u24a6',
  '\u24ae',
  // Fullwidth, accented, Cyrillic, an emoji (no letter).
  '\uff4b',
  'é',
  'и',
  '\u{1f600}',
];
/** Between two units: blanks (a fourth ends the run), separators, nothing, tabs and line breaks (`/` splits). */
const GAPS = ' / / /  /   /    /./-/_/*//\t/\n/\r\n/\t\t'.split('/');
const ODD_GAPS = ['\u0085', '\u2028', '\u00a0', '\u2002', '\u3000', '\u202f', ' \u200b ', ','];
const INVISIBLES = ['\u200b', '\u00ad', '\u2060', '\ufe0f', '\u200d', '\u{e0041}'];
const ENTRIES = ['kill you', 'kill yourself', 'ass', 'pipe bomb', 'fuck', 'a'.repeat(70)];

function pick<T>(random: () => number, items: readonly T[]): T {
  return items[Math.floor(random() * items.length)]!;
}

/** A stretch of spelled-out letters, with entries spelled inside, blanks, marks, invisibles. */
function spelledText(random: () => number): string {
  let text = '';
  const pieces = 1 + Math.floor(random() * 6);
  for (let piece = 0; piece < pieces; piece++) {
    const roll = random();
    if (roll < 0.15) {
      text += 'so then, we said: ';
    } else if (roll < 0.25) {
      // A long stretch the hold reads through: past the first tail.
      text += pick(random, INVISIBLES).repeat(1 + Math.floor(random() * 400));
    } else if (roll < 0.4) {
      const entry = pick(random, ENTRIES);
      const gap = pick(random, [' ', '.', '\t', ' \u200b']);
      text += [...entry].map(char => (char === ' ' ? '  ' : char)).join(gap);
      text += pick(random, GAPS);
    } else {
      const units = Math.floor(random() * (random() < 0.1 ? 300 : 30));
      for (let unit = 0; unit < units; unit++) {
        text += pick(random, UNITS);
        const gap = random();
        text +=
          gap < 0.8
            ? pick(random, GAPS)
            : gap < 0.9
              ? pick(random, ODD_GAPS)
              : pick(random, INVISIBLES).repeat(
                  1 + Math.floor(random() * (random() < 0.2 ? 200 : 3)),
                );
      }
    }
  }
  return text;
}

describe('spelledRunHold reads only the tail it holds', () => {
  it('answers as the whole text written does, on 3,600 seeded texts each cut at random', () => {
    const random = seededRandom(46);
    let texts = 0;
    let asked = 0;
    let held = 0;
    let pastFirstTail = 0;
    const differ: string[] = [];
    for (const terms of LISTS) {
      const tail = spelledRunHold(terms);
      const whole = spelledRunHold(terms, { wholeText: true });
      const firstTail = FIRST_TAIL;
      for (let sample = 0; sample < 1_200; sample++) {
        const text = spelledText(random);
        texts++;
        // The pending texts of a stream of random chunks: from a random
        // start (a released part), to the end of each chunk (a pair may be split).
        const start = random() < 0.3 ? Math.floor(random() * text.length) : 0;
        const ends = [text.length];
        for (let end = start; end < text.length; end += 1 + Math.floor(random() * 40)) {
          if (random() < 0.2) ends.push(end);
        }
        for (const end of ends) {
          const pending = text.slice(start, end);
          const answer = tail(pending);
          asked++;
          if (answer !== whole(pending) && differ.length < 5) differ.push(JSON.stringify(pending));
          if (answer < pending.length) held++;
          if (answer < pending.length - firstTail) pastFirstTail++;
        }
      }
    }
    expect(differ).toEqual([]);
    expect(texts).toBe(3_600);
    expect(asked).toBeGreaterThan(15_000);
    expect(held).toBeGreaterThan(5_000);
    // Answers the first tail did not hold: the tail grew to find them.
    expect(pastFirstTail).toBeGreaterThan(300);
  });

  it('answers as the whole text does beside a pair, a tab, NBSP and invisibles at every cut', () => {
    const random = seededRandom(7);
    for (const terms of LISTS) {
      const tail = spelledRunHold(terms);
      const whole = spelledRunHold(terms, { wholeText: true });
      // Each tail read: 16 units, then 8 × (longest + 2) + 16 (184, 96, 528 for the three lists), then four times as many.
      for (const firstTail of [FIRST_TAIL, 64, 96, 184, 384, 528, 736])
        for (const filler of ['\u{1d424} ', '\u00a0k', 'k\t', '\u200bi ', 'ab ', '\u{1d424}']) {
          for (let shift = 0; shift < 6; shift++) {
            const text = `${'x'.repeat(shift)}${filler.repeat(Math.ceil((firstTail * 2) / filler.length))}`;
            for (const end of [text.length, text.length - 1, Math.floor(random() * text.length)]) {
              const pending = text.slice(0, end);
              expect(tail(pending), JSON.stringify(pending.slice(-20))).toBe(whole(pending));
            }
          }
        }
      // A letter past U+FFFF that a run of invisible characters joins to
      // the run ending the text, the first tail beginning at each unit
      // around it (between its two halves too: the tail then starts at the
      // pair, which reads as one unit of the run).
      for (let invisible = 0; invisible < 200; invisible++) {
        for (const letter of ['\u{1d424}', '\u{1f15a}', 'k']) {
          const text = `so ${letter}${'\u200b'.repeat(invisible)} i l`;
          expect(tail(text), `${letter} ${invisible}`).toBe(whole(text));
        }
      }
    }
  });

  it('reads the last 16 units of a long pending text in place, and writes them only when they read otherwise', () => {
    const hold = spelledRunHold(DEFAULT_TERMS);
    const prose = 'Prose\u00a0with a blank NBSP, \u{1d424} a letter past U+FFFF. '.repeat(20_000);
    const text = `${prose}ok k i l`;
    written.longest = 0;
    // Held from `k`: `k i l` may still grow into `kill you`.
    expect(hold(text)).toBe(text.length - 'k i l'.length);
    // Round 46: the last 184 units (8 × 21 + 16) written on every call; before, the whole 1 MB.
    expect(text.length).toBeGreaterThan(1_000_000);
    expect(written.longest).toBe(0);
    // A tab among the last 16 units: those are written (a space), and read so.
    const tabbed = `${prose}ok k\ti l`;
    expect(hold(tabbed)).toBe(tabbed.length - 'k\ti l'.length);
    expect(written.longest).toBe(16);
    // A run longer than the first tail: read again in the last 184 units, in place.
    written.longest = 0;
    const run = `${prose}${'and so on, '.repeat(20)}k i l l  y o u r s e l`;
    expect(hold(run)).toBe(run.length - 'k i l l  y o u r s e l'.length);
    expect(written.longest).toBe(0);
  });

  it('notes the tail read in place as reached where a blank before it reads as a space (a wrong resume releases)', () => {
    const hold = spelledRunHold(DEFAULT_TERMS);
    const whole = spelledRunHold(DEFAULT_TERMS, { wholeText: true });
    // The run's first blank is NBSP, more than 16 units from the end: the
    // first tail (`l   y o u r s e l`) reads as written, and the reading
    // back reaches its start. Read on in the raw text (NBSP is no
    // separator) the run would start at `i`, which begins no entry, and
    // the hold would let `k\u00a0i l l` go (`kill yourself` then spans the release).
    const text = 'we said k\u00a0i l l   y o u r s e l';
    expect(text.length - text.indexOf('l   y')).toBeGreaterThan(FIRST_TAIL);
    expect(hold(text)).toBe(text.indexOf('k\u00a0'));
    expect(whole(text)).toBe(text.indexOf('k\u00a0'));
    // The same with a math letter past U+FFFF (`𝐤`, a pair the reading writes as `k`).
    const math = 'we said \u{1d424} i l l   y o u r s e l';
    expect(hold(math)).toBe(math.indexOf('\u{1d424}'));
    expect(whole(math)).toBe(math.indexOf('\u{1d424}'));
  });
});
