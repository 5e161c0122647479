import { generateText, streamText, wrapLanguageModel } from 'ai';
import { describe, expect, it } from 'vitest';
import { seededRandom } from '../../bench/fixtures';
import { modelFor } from '../../test/helpers';
import { randomTokenText } from '../../test/helpers/window';
import { type FilterTriggers, filterTriggersOf, fusedHookOf } from '../core/filtered-hooks';
import type { Guardrail } from '../core/types';
import { contentFilter } from '../guards/content-filter/content-filter';
import { pii } from '../guards/pii/pii';
import { keywords } from '../guards/secrets/assignments';
import { LONGEST_KEYWORD } from '../guards/secrets/potential-start';
import { secrets } from '../guards/secrets/secrets';
import { guardrails } from './guardrails-middleware';
import {
  MAY_MATCH,
  resumableUnionScan,
  type ScanState,
  scanStart,
  shiftScan,
  unionScan,
} from './may-match-union';

// Near misses of what the built-ins' filters look for (keywords' leading
// letters, spelled-out letters, `( at )`, hex beside a dash), what the fused
// hooks note (quotes, `curl`, `kind:`), and prose; cut anywhere by the scans.
const TOKENS = [
  'the',
  'plan',
  'a',
  'I',
  'x',
  'k i l l',
  'a b c',
  'a-b-c',
  'A.B.C.D',
  'q_r_s_t',
  '( at )',
  '(At)',
  '(a t)',
  'dead',
  'de-ad',
  'ca.fe',
  'be',
  'Note:',
  'x:a',
  'pass',
  'Passage',
  'passw',
  'password',
  'api',
  'apiary',
  'api_',
  'key',
  'auth',
  'author',
  'client',
  'clientele',
  '_secret',
  'session',
  '-key',
  'encryption',
  'webhook',
  'url',
  'login',
  'dsn',
  'token',
  'AKIA',
  'xAKIA',
  'xox',
  'sk',
  '-',
  '--',
  'ata:',
  'data',
  'curl',
  'Authorization',
  'kind:',
  'superstructural',
  'extraordinary-',
  'shoot',
  'kill',
  '"',
  "'",
  '`',
  '.',
  ',',
  '_',
  '*',
  '(',
  ')',
  ':',
];
const BLANKS = ['', '', ' ', ' ', '  ', '\n', '\t'];

const chains: Array<[string, Guardrail[]]> = [
  ['pii + secrets + contentFilter', [pii(), secrets(), contentFilter()]],
  ['secrets alone', [secrets()]],
  ['contentFilter with a long entry', [contentFilter({ blocklist: ['launch the api key'] })]],
];

const triggersOf = (guardrail: Guardrail): FilterTriggers => {
  const triggers = filterTriggersOf(guardrail);
  if (!triggers) throw new Error(`${guardrail.name} declares no triggers`);
  return triggers;
};

describe('FilterTriggers.reads: how far the built-ins’ tests read', () => {
  it('each test answers the same on the characters it declares as on the whole text', () => {
    const next = seededRandom(16);
    let asked = 0;
    for (const guardrail of [pii(), secrets(), contentFilter()]) {
      const triggers = triggersOf(guardrail);
      expect(triggers.reads, guardrail.name).toBeDefined();
      const { left, right } = triggers.reads!;
      // The test at `pos` on the whole text, and on its characters from `pos - left` to `pos + right`.
      const same = (text: string, pos: number, test: (text: string, pos: number) => boolean) => {
        const from = Math.max(0, pos - left);
        const window = text.slice(from, pos + right + 1);
        asked++;
        return test(text, pos) === test(window, pos - from);
      };
      for (let i = 0; i < 3_000; i++) {
        const text = randomTokenText(next, 1 + Math.floor(next() * 8), TOKENS, BLANKS);
        const lower = text.toLowerCase();
        for (let pos = 0; pos < text.length; pos++) {
          const code = text.charCodeAt(pos);
          if (triggers.near?.characters.includes(text[pos]!)) {
            expect(same(text, pos, triggers.near.test), `${guardrail.name} near ${text}`).toBe(
              true,
            );
          }
          if (triggers.singleLetter && (code | 0x20) >= 97 && (code | 0x20) <= 122) {
            expect(same(text, pos, triggers.singleLetter), `${guardrail.name} ${text}`).toBe(true);
          }
          for (const { literal, confirm } of triggers.literals) {
            if (!confirm || !lower.startsWith(literal.toLowerCase(), pos - literal.length + 1)) {
              continue;
            }
            const asEnd = (t: string, at: number) => confirm(t, at + 1);
            expect(same(text, pos, asEnd), `${guardrail.name} ${literal} in ${text}`).toBe(true);
          }
        }
      }
    }
    expect(asked).toBeGreaterThan(50_000);
  });

  it('secrets: `keywords` matches nothing longer than LONGEST_KEYWORD', () => {
    const body = keywords.slice(3, -1);
    const alternatives = body.split(/\|(?![^(]*\))/);
    let longest = 0;
    for (const alternative of alternatives) {
      // Every optional part present, each class one character.
      const expanded = alternative
        .replace(/\(\?:([a-z]+)\)\?/g, '$1')
        .replace(/\[[^\]]*\]\??/g, '_');
      expect(new RegExp(`^${keywords}$`).test(expanded), alternative).toBe(true);
      longest = Math.max(longest, expanded.length);
    }
    expect(longest).toBe(LONGEST_KEYWORD);
  });
});

describe('resumableUnionScan: the one scan goes on where it stopped', () => {
  for (const [name, chain] of chains) {
    it(`answers as one scan of everything read since it began, over any cuts (${name})`, () => {
      const triggers = chain.map(triggersOf);
      const notes = chain.map(guardrail => fusedHookOf(guardrail)?.notes);
      const whole = unionScan(triggers, notes)!;
      const resumable = resumableUnionScan(triggers, notes)!;
      expect(resumable).toBeDefined();
      const next = seededRandom(name.length);
      let resumed = 0;
      let read = 0;
      let length = 0;
      for (let i = 0; i < 1_500; i++) {
        const text = randomTokenText(next, 5 + Math.floor(next() * 40), TOKENS, BLANKS);
        length += text.length;
        // As the window keeps it: the characters the tests read behind where
        // the scan goes on, from `base`; a new scan after a maybe.
        let state: ScanState = scanStart();
        let begin = 0;
        let base = 0;
        for (let cut = 0; cut < text.length; ) {
          cut = Math.min(text.length, cut + 1 + Math.floor(next() * 12));
          const at = state.at;
          const answer = resumable.scan(text.slice(base, cut), state);
          read += cut - base - at;
          const expected = whole(text.slice(begin, cut));
          if (expected === MAY_MATCH || answer === MAY_MATCH) {
            expect(answer, JSON.stringify([text.slice(begin, cut), base])).toBe(expected);
            state = scanStart();
            begin = base = cut;
            continue;
          }
          // 1 + the last note's index, counted from `base` (0: none since it).
          expect(answer, JSON.stringify([text.slice(begin, cut), base])).toBe(
            Math.max(expected + begin - base, 0),
          );
          resumed++;
          const from = Math.max(base, base + state.at - resumable.left);
          shiftScan(state, base - from);
          base = from;
        }
      }
      expect(resumed).toBeGreaterThan(5_000);
      // Each character read about once (tests asked again: a few more).
      expect(read / length).toBeLessThan(1.25);
    });
  }
});

describe('resumableUnionScan: a run of letters counted where it ends (round 41)', () => {
  // `secrets` flags a run of 14 letters or dashes. A letter that ends no
  // literal is not counted one by one: the run is measured at the next other
  // character or at the text's end, so these cover each place it can end.
  const resumable = resumableUnionScan([triggersOf(secrets())], [undefined])!;
  const resumed = (pieces: string[]) => {
    const state = scanStart();
    let text = '';
    const answers: number[] = [];
    for (const piece of pieces) {
      text += piece;
      answers.push(resumable.scan(text, state));
    }
    return { answers, state };
  };
  it('13 letters pass, 14 flag: before a blank, before a dash, at the end, over cuts', () => {
    const thirteen = 'qwzvxqwzvxqwz';
    expect(resumed([`${thirteen} ok`]).answers).toEqual([0]);
    expect(resumed([`${thirteen}q ok`]).answers).toEqual([MAY_MATCH]);
    expect(resumed([`${thirteen}-`]).answers).toEqual([MAY_MATCH]);
    expect(resumed([`${thirteen.slice(0, 12)}-`]).answers).toEqual([0]);
    expect(resumed([thirteen]).answers).toEqual([0]);
    expect(resumed([`${thirteen}q`]).answers).toEqual([MAY_MATCH]);
    expect(resumed(['qwzvxqw', 'zvxqwz', 'q']).answers).toEqual([0, 0, MAY_MATCH]);
    expect(resumed(['qwzvxqw', 'zvxqwz', ' q']).answers).toEqual([0, 0, 0]);
  });
  it('leaves the run and the word as counts where it stops', () => {
    const { answers, state } = resumed(['plan qwzv', 'xq']);
    expect(answers).toEqual([0, 0]);
    expect(state).toMatchObject({ at: 11, runs: 6, letters: 6 });
    expect(resumed(['so, a-b']).state).toMatchObject({ at: 7, runs: 3, letters: 1 });
  });
});

describe('window mode with the resumed scan, through streamText', () => {
  it('a keyword ending a check’s text at each of its characters: streamed as generated, the value never released', async () => {
    const value = 'Xkq7vTrwPLkmZbh';
    // Prose, then `password: <value>` (for `secrets` alone digits are prose:
    // only the keyword makes its filter say maybe). Shifting the prose by 0
    // to 79 characters ends a check's text at every character of `password`.
    for (let shift = 0; shift < 80; shift++) {
      const prose = `${'x'.repeat(shift)} ${'the plan is on track and we ship it soon. '.repeat(16)}`;
      const text = `${prose}Set the password: ${value} in the file and go on with the plan.`;
      const deltas: string[] = [];
      for (let at = 0; at < text.length; at += 4) deltas.push(text.slice(at, at + 4));
      const middleware = () =>
        guardrails({ output: [secrets({ action: 'redact' })], stream: { mode: 'window' } });
      const generated = await generateText({
        model: wrapped(text, deltas, middleware()),
        prompt: 'q',
      });
      expect(generated.text).toContain('password: [GENERIC_SECRET] in the file');
      const result = streamText({ model: wrapped(text, deltas, middleware()), prompt: 'q' });
      let sofar = '';
      for await (const delta of result.textStream) {
        sofar += delta;
        expect(sofar).not.toContain('Xkq7');
      }
      expect(sofar).toBe(generated.text);
    }
  });
});

function wrapped(text: string, deltas: string[], middleware: ReturnType<typeof guardrails>) {
  return wrapLanguageModel({ model: modelFor(text, deltas), middleware });
}
