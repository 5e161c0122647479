import { describe, expect, it, vi } from 'vitest';
import { seededRandom } from '../../../bench/fixtures';
import { cut } from '../../../test/helpers';
import { contentFilterWindowMiddleware } from '../../../test/helpers/content-filter-cases';
import { generatedText, randomTokenText, streamedTextDeltas } from '../../../test/helpers/window';
import { foldText } from '../prompt-injection/fold-text';
import { isSolidLetter, mayReadAsLeet, numberRunStart } from './potential-start';

// Round 31 (issue 16): on prose in another script (Cyrillic words and
// spaces) the hook folds the text from each position among the last solid
// letters, and folded each twice, leetspeak read and not: about 85 µs a
// check (bundled, one core), 250,000 checks per MB of text in 4-character
// deltas. Where no character from the position on may read as leetspeak
// (`mayReadAsLeet`) the two readings are one, and it folds once.

// The filter's own checks fold through `foldTextReadings`: round 39, a
// text with no leet character is folded once there, its second reading is
// the first. Since round 40 the hook folds through it too, one call a
// candidate (`readings`), and asks the second reading (`plain`) only where
// a character from the candidate on may read as leetspeak; each check asks
// it once. `leet` and `noLeet` count `foldText` called directly.
const folds = vi.hoisted(() => ({ leet: 0, noLeet: 0, readings: 0, plain: 0 }));
vi.mock('../prompt-injection/fold-text', async importOriginal => {
  const original = await importOriginal<typeof import('../prompt-injection/fold-text')>();
  return {
    ...original,
    foldText: (text: string, options?: Parameters<typeof original.foldText>[1]) => {
      if (options?.leet === false) folds.noLeet++;
      else folds.leet++;
      return original.foldText(text, options);
    },
    foldTextReadings: (text: string) => {
      folds.readings++;
      const { folded, plain } = original.foldTextReadings(text);
      return {
        folded,
        plain: () => {
          folds.plain++;
          return plain();
        },
      };
    },
  };
});

const WORDS = ['привет', 'как', 'дела', 'сегодня', 'хорошо', 'погода', 'мы', 'идём', 'Домой'];
const prose = (seed: number, count: number) =>
  randomTokenText(seededRandom(seed), count, WORDS, [' ', ' ', ', ', '. ', '\n']);

/** `answer` passes generated and streamed in 4-character deltas; the folds count the stream's alone. */
async function expectStreamedWhole(answer: string) {
  expect(await generatedText(contentFilterWindowMiddleware(), answer)).toBe(answer);
  folds.leet = 0;
  folds.noLeet = 0;
  folds.readings = 0;
  folds.plain = 0;
  const deltas = await streamedTextDeltas(
    contentFilterWindowMiddleware(),
    answer,
    cut(answer, [4]),
  );
  expect(deltas.join('')).toBe(answer);
}

describe('contentFilter window on Cyrillic prose', () => {
  it('streams it whole, folding each candidate once (no second reading without leetspeak)', async () => {
    const answer = prose(31, 120);
    await expectStreamedWhole(answer);
    // Before: 369 and 369 (each candidate folded in both readings); the 20
    // without leetspeak now are the filter's own checks, not the hook's.
    // Round 35 (hJ): 369 -> 410 folds with leetspeak: a word ending a chunk with a
    // `.` may be joined to the next (`kill.you`), read once more.
    // Round 39 (hM): those 20 checks are `checks`, folded once each (they were
    // 20 folds of each reading). Round 40: the hook's 390 folds are
    // `foldTextReadings` calls too (390 + 20), and no second reading is
    // asked but the 20 checks' own. Round 46 (hH): 390 -> 355 hook folds, the
    // window no longer checks at a step that ends right after punctuation (it
    // waits one delta; the same releases of the same text).
    expect(folds).toEqual({ leet: 0, noLeet: 0, readings: 375, plain: 20 });
  });

  it('folds once where its digits stand in numbers of their own (no letter in their word)', async () => {
    // Round 32: a digit anywhere after a candidate made it fold twice,
    // though a number between blanks and punctuation (`2024`, `15:30`,
    // `3,5%`) is no word with a letter, which leetspeak alone changes.
    const numbers = ['2024', '15:30', '3,5%', '(12)', '10-20', '$40', '1|2'];
    const next = seededRandom(32);
    const answer = randomTokenText(
      next,
      160,
      [...WORDS, ...numbers, ...numbers],
      [' ', ', ', '. '],
    );
    await expectStreamedWhole(answer);
    // Before: 446 and 384 (each candidate with a number after it folded in
    // both readings); the 23 without leetspeak now are the filter's own checks.
    // Round 39 (hM): those 23 are `checks`, each folded once (no leet character).
    // Round 39 (hP): 423 -> 421, two suffixes from a number's last digit
    // before a blank and another number (`15:30 10-20`) ruled out unfolded
    // by the hook's walk of spaced units (the same answers).
    // Round 40: the hook's 421 folds through `foldTextReadings` (421 + 23),
    // the second reading asked only by the 23 checks.
    // Round 41 (hC): 421 -> 420 hook folds, a candidate that starts a word and
    // reads the same in lower case is checked in place, unfolded (same answers).
    // Round 46 (hH): 420 -> 403 hook folds, no check at a step that ends right
    // after punctuation (the window waits one delta).
    expect(folds).toEqual({ leet: 0, noLeet: 0, readings: 426, plain: 23 });
  });

  it('still blocks an entry in homoglyphs or leetspeak after it, streamed and generated', async () => {
    for (const entry of ['kіll yourself', 'k1ll y0urself', 'ｋｉｌｌ yourself', 'кill yоurself']) {
      const answer = `${prose(7, 40)}${entry} сегодня`;
      expect(await generatedText(contentFilterWindowMiddleware(), answer), entry).toBe('BLOCKED');
      const deltas = await streamedTextDeltas(
        contentFilterWindowMiddleware(),
        answer,
        cut(answer, [4]),
      );
      expect(deltas.at(-1), entry).toBe('BLOCKED');
      const released = deltas.slice(0, -1).join('');
      expect(answer.startsWith(released), entry).toBe(true);
      // Nothing of the entry was released.
      expect(released.length, entry).toBeLessThanOrEqual(answer.indexOf(entry));
    }
  });

  it('both readings are one on text without a character that may read as leetspeak', () => {
    const alphabet: string[] = [];
    for (let code = 0x20; code < 0xd800; code++) {
      if (mayReadAsLeet(code)) continue;
      if (code >= 0x80 && !isSolidLetter(code)) continue;
      alphabet.push(String.fromCharCode(code));
    }
    // Every character alone, beside Latin letters, and beside itself.
    for (const char of alphabet) {
      for (const text of [char, `k${char}ll`, `${char}${char} ${char}`]) {
        expect(foldText(text), JSON.stringify(text)).toBe(foldText(text, { leet: false }));
      }
    }
    const latin = [...'kilyoursefatbcdgh KILY'];
    const next = seededRandom(31);
    for (let i = 0; i < 20_000; i++) {
      let text = '';
      const length = 1 + Math.floor(next() * 24);
      for (let j = 0; j < length; j++) {
        const pick = next();
        text +=
          pick < 0.4
            ? latin[Math.floor(next() * latin.length)]
            : pick < 0.55
              ? ' .-_*'[Math.floor(next() * 5)]
              : alphabet[Math.floor(next() * alphabet.length)];
      }
      expect(foldText(text), JSON.stringify(text)).toBe(foldText(text, { leet: false }));
    }
  });
  it('both readings are one from a position whose digits all stand in numbers of their own', () => {
    // As the hook decides: every character from the position on that may
    // read as leetspeak is an ASCII digit or `@ $ |` whose run, read in the
    // whole text, is a number of its own (`numberRunStart`).
    const pieces = [
      ...'kilyourself KIL',
      ...'приветдомКАК',
      ...'0123456789@$|',
      ...' .,:;-_*()%!?"\'\n\t',
      '\u00e9',
      '\u00ad',
      '\u200b',
      '\u0301',
      '\u202e',
      '\uff11',
      '\x01',
    ];
    const next = seededRandom(32);
    let decided = 0;
    for (let i = 0; i < 30_000; i++) {
      let text = '';
      const length = 1 + Math.floor(next() * 20);
      for (let j = 0; j < length; j++) text += pieces[Math.floor(next() * pieces.length)];
      const start = Math.floor(next() * text.length);
      let one = true;
      let number = false;
      for (let at = start; at < text.length && one; at++) {
        const code = text.charCodeAt(at);
        if (!mayReadAsLeet(code)) continue;
        one = code < 0x80 && numberRunStart(text, at) >= 0;
        number = true;
      }
      if (!one) continue;
      if (number) decided++;
      const suffix = text.slice(start);
      expect(foldText(suffix), JSON.stringify(suffix)).toBe(foldText(suffix, { leet: false }));
    }
    // Texts with a number that the rule lets fold once.
    expect(decided).toBeGreaterThan(2_000);
  });
});
