import { describe, expect, it, vi } from 'vitest';
import { seededRandom } from '../../../bench/fixtures';
import { cut } from '../../../test/helpers';
import { contentFilterWindowMiddleware } from '../../../test/helpers/content-filter-cases';
import { generatedText, randomTokenText, streamedTextDeltas } from '../../../test/helpers/window';
import { foldText } from '../prompt-injection/fold-text';
import { isSolidLetter, mayReadAsLeet } from './potential-start';

// Round 31 (issue 16): on prose in another script (Cyrillic words and
// spaces) the hook folds the text from each position among the last solid
// letters, and folded each twice, leetspeak read and not: about 85 µs a
// check (bundled, one core), 250,000 checks per MB of text in 4-character
// deltas. Where no character from the position on may read as leetspeak
// (`mayReadAsLeet`) the two readings are one, and it folds once.

const folds = vi.hoisted(() => ({ leet: 0, noLeet: 0 }));
vi.mock('../prompt-injection/fold-text', async importOriginal => {
  const original = await importOriginal<typeof import('../prompt-injection/fold-text')>();
  return {
    ...original,
    foldText: (text: string, options?: Parameters<typeof original.foldText>[1]) => {
      if (options?.leet === false) folds.noLeet++;
      else folds.leet++;
      return original.foldText(text, options);
    },
  };
});

const WORDS = ['привет', 'как', 'дела', 'сегодня', 'хорошо', 'погода', 'мы', 'идём', 'Домой'];
const prose = (seed: number, count: number) =>
  randomTokenText(seededRandom(seed), count, WORDS, [' ', ' ', ', ', '. ', '\n']);

describe('contentFilter window on Cyrillic prose', () => {
  it('streams it whole, folding each candidate once (no second reading without leetspeak)', async () => {
    const answer = prose(31, 120);
    expect(await generatedText(contentFilterWindowMiddleware(), answer)).toBe(answer);
    folds.leet = 0;
    folds.noLeet = 0;
    const deltas = await streamedTextDeltas(
      contentFilterWindowMiddleware(),
      answer,
      cut(answer, [4]),
    );
    expect(deltas.join('')).toBe(answer);
    // Before: 369 and 369 (each candidate folded in both readings); the 20
    // without leetspeak now are the filter's own checks, not the hook's.
    expect(folds).toEqual({ leet: 369, noLeet: 20 });
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
});
