import { describe, expect, it } from 'vitest';
import { seededRandom } from '../../bench/fixtures';
import { generated, type Middleware, streamed } from '../../test/helpers/window';
import { contentFilter } from '../guards/content-filter/content-filter';
import { invisibleText } from '../guards/invisible-text/invisible-text';
import { pii } from '../guards/pii/pii';
import { secrets } from '../guards/secrets/secrets';
import { guardrails } from './guardrails-middleware';

/**
 * Property test of the stream modes, over a seeded generator (same cases on
 * every run): random prose with sensitive values (spaced and obfuscated
 * forms too), long ids, emoji, ZWJ sequences, flags and combining marks,
 * streamed in random deltas of 1–50 characters, in 4-character deltas and
 * whole, in window and hold mode. Each case asserts that the streamed text
 * equals the generated text, that no released prefix holds a value the
 * generated text hides, and that no delta starts or ends inside a surrogate
 * pair. Where the model keeps graphemes whole, the guard does too.
 */

const ALNUM = Array.from('ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnopqrstuvwxyz0123456789');

/** mulberry32: a small seeded PRNG, so every run checks the same cases. */
function prng(seed: number) {
  const next = seededRandom(seed);
  const int = (min: number, max: number) => min + Math.floor(next() * (max - min + 1));
  const pick = <T>(items: readonly T[]): T => items[Math.floor(next() * items.length)]!;
  const digits = (count: number) => Array.from({ length: count }, () => int(0, 9)).join('');
  const alnum = (count: number) => Array.from({ length: count }, () => pick(ALNUM)).join('');
  return { next, int, pick, digits, alnum };
}
type Random = ReturnType<typeof prng>;

const WORDS = [
  'the',
  'order',
  'is',
  'on',
  'its',
  'way',
  'please',
  'call',
  'me',
  'at',
  'ref',
  'key',
  'password',
  'token',
  'and',
  'then',
  'send',
  'it',
  'to',
  'our',
  'team',
  'today.',
  'Thanks,',
  'note:',
  'AB',
  'DE',
  '\n',
];
const GRAPHEMES = [
  '😀',
  '👍🏽',
  '👩‍👩‍👧‍👦',
  '🏳️‍🌈',
  '🇬🇧',
  '🇺🇸🇫🇷',
  'e\u0301',
  'n\u0303o',
  '❤️',
  '𝐀𝐁',
  'café',
];

/** Tab, NBSP, ogham space mark, braille blank, ideographic space, narrow NBSP. */
const BLANKS = ['\t', '\u00a0', '\u1680', '\u2800', '\u3000', '\u202f'];

/** A sensitive value in one of the forms the default detectors know, with its raw text. */
function sensitiveValue(r: Random): string {
  const user = r.pick(['jane.doe', 'ann', 'bob_smith', 'k.lee']);
  const domain = r.pick(['example.com', 'corp.io', 'mail.co.uk']);
  const [label, tld] = [domain.split('.')[0], domain.split('.').slice(1).join(' [dot] ')];
  const values = [
    () => `${user}@${domain}`,
    () => `${user} [at] ${label} [dot] ${tld}`,
    () => `${user} (at) ${domain}`,
    () => `+1 415 555 ${r.digits(4)}`,
    () => `(415) 555-${r.digits(4)}`,
    () => '4111 1111 1111 1111',
    () => '4111-1111-1111-1111',
    () => '5500000000000004',
    () => 'DE89 3704 0044 0532 0130 00',
    () => 'GB82WEST12345698765432',
    () => 'GB82 WEST 1234 5698 7654 32',
    () => 'AB 12 34 56 C',
    () => `192.168.${r.int(0, 255)}.${r.int(1, 254)}`,
    () => '00:1A:2B:3C:4D:5E',
    // Blanks a model reads as a space between a value's parts (round 16).
    () => ['4111', '1111', '1111', '1111'].join(r.pick(BLANKS)),
    () => `+1${r.pick(BLANKS)}415${r.pick(BLANKS)}555${r.pick(BLANKS)}${r.digits(4)}`,
    () => ['GB82', 'WEST', '1234', '5698', '7654', '32'].join(r.pick(BLANKS)),
    () => `ghp_${r.alnum(36)}`,
    () => `AKIA${r.alnum(16).toUpperCase()}`,
    () => `sk-proj-${r.alnum(40)}`,
    () => `password = "${r.alnum(6)} ${r.alnum(5)} ${r.alnum(7)}"`,
    () => `api_key: '${r.alnum(24)}'`,
    () => `Authorization: Bearer ${r.alnum(32)}`,
    () => `"${r.alnum(12)}" == password`,
    () => `postgres://admin:${r.alnum(14)}@db.internal:5432/app`,
    () => `<password>${r.alnum(8)} ${r.alnum(6)}</password>`,
    () => `--password ${r.alnum(12)}`,
    // Not here: a Kubernetes Secret manifest, judged by a rule over the whole text
    // (`kind: Secret` anywhere); see docs/streaming.md.
  ];
  return r.pick(values)();
}

function answer(r: Random, pieces: number): { text: string; values: string[] } {
  const values: string[] = [];
  let text = '';
  for (let i = 0; i < pieces; i++) {
    const roll = r.next();
    let piece: string;
    if (roll < 0.55) piece = r.pick(WORDS);
    else if (roll < 0.7) piece = r.pick(GRAPHEMES);
    else if (roll < 0.82) piece = r.digits(r.int(12, 24));
    else {
      piece = sensitiveValue(r);
      values.push(piece);
    }
    text += piece + r.pick([' ', ' ', ' ', ', ', '\n', '']);
  }
  return { text, values };
}

const segmenter = new Intl.Segmenter('en', { granularity: 'grapheme' });
const graphemesOf = (text: string) => Array.from(segmenter.segment(text), s => s.segment);

/** Deltas of the given sizes: by grapheme (the model keeps emoji whole) or by code point. */
function chunk(text: string, sizes: number[], byGrapheme: boolean): string[] {
  const units = byGrapheme ? graphemesOf(text) : Array.from(text);
  const deltas: string[] = [];
  let current = '';
  let index = 0;
  for (const unit of units) {
    current += unit;
    if (current.length >= sizes[index % sizes.length]!) {
      deltas.push(current);
      current = '';
      index++;
    }
  }
  if (current) deltas.push(current);
  return deltas;
}

const isHigh = (code: number) => code >= 0xd800 && code <= 0xdbff;
const isLow = (code: number) => code >= 0xdc00 && code <= 0xdfff;

interface Failure {
  text: string;
  deltas: string[];
  mode: string;
  problem: string;
}

async function checkCase(
  middleware: Middleware,
  mode: string,
  text: string,
  expected: string,
  hidden: string[],
  deltas: string[],
  byGrapheme: boolean,
): Promise<Failure | undefined> {
  const out = await streamed(middleware, text, deltas);
  const fail = (problem: string) => ({ text, deltas, mode, problem });
  const joined = out.join('');
  if (joined !== expected) {
    let at = 0;
    while (at < joined.length && joined[at] === expected[at]) at++;
    const around = (t: string) => JSON.stringify(t.slice(Math.max(0, at - 40), at + 40));
    return fail(`streamed ${around(joined)} where generate has ${around(expected)}`);
  }
  let released = '';
  for (const delta of out) {
    if (isLow(delta.charCodeAt(0)) || isHigh(delta.charCodeAt(delta.length - 1))) {
      return fail(`lone surrogate at the edge of delta ${JSON.stringify(delta)}`);
    }
    released += delta;
    for (const value of hidden) {
      if (released.includes(value)) return fail(`released ${JSON.stringify(value)}`);
    }
  }
  if (byGrapheme) {
    // Every edge between two released deltas is a grapheme boundary of the whole text.
    const boundaries = new Set<number>([0]);
    let offset = 0;
    for (const grapheme of graphemesOf(joined)) {
      offset += grapheme.length;
      boundaries.add(offset);
    }
    let edge = 0;
    for (const delta of out) {
      edge += delta.length;
      if (!boundaries.has(edge)) return fail(`delta edge at ${edge} splits a grapheme`);
    }
  }
  return undefined;
}

const TEXTS = Number(process.env.WINDOW_EXACTNESS_TEXTS ?? 2_600);
const BLOCKED = 'This content is not allowed.';

describe('window and hold stream exactly what generate returns (seeded, 10,400 cases)', () => {
  it('default pii + secrets (redact) + invisibleText: stream == generate, nothing hidden released, no split surrogate', async () => {
    const chain = () => [pii(), secrets({ action: 'redact' }), invisibleText()];
    const window = guardrails({ output: chain(), stream: { mode: 'window' } });
    const hold = guardrails({ output: chain(), stream: { mode: 'hold' } });
    const reference = guardrails({ output: chain() });
    const r = prng(20261130);
    const failures: Failure[] = [];
    let cases = 0;
    let withValues = 0;
    for (let i = 0; i < TEXTS && failures.length < 5; i++) {
      // Mostly chat-sized answers (up to ~200 characters); one in 100 is a long one (up to ~2 KB).
      const { text, values } = answer(r, i % 100 === 0 ? r.int(80, 260) : r.int(1, 24));
      const expected = await generated(reference, text);
      const hidden = values.filter(value => !expected.includes(value));
      if (hidden.length > 0) withValues++;
      const sizes = Array.from({ length: r.int(1, 6) }, () => r.int(1, 50));
      const byGrapheme = r.next() < 0.5;
      const runs: Array<[Middleware, string, string[], boolean]> = [
        [window, 'window, 1–50', chunk(text, sizes, byGrapheme), byGrapheme],
        [window, 'window, 4', chunk(text, [4], true), true],
        [window, 'window, whole', [text], true],
        [hold, 'hold, 1–50', chunk(text, sizes, byGrapheme), byGrapheme],
      ];
      for (const [middleware, mode, deltas, graphemeSafe] of runs) {
        cases++;
        const failure = await checkCase(
          middleware,
          mode,
          text,
          expected,
          hidden,
          deltas,
          graphemeSafe,
        );
        if (failure) failures.push(failure);
      }
    }
    expect(failures).toEqual([]);
    expect(cases).toBe(4 * TEXTS);
    // The generator is not idle: most texts hide at least one value.
    expect(withValues).toBeGreaterThan(TEXTS / 2);
  }, 300_000);

  it('contentFilter + pii: a blocked answer is blocked in every chunking, an allowed one is the same text', async () => {
    const chain = () => [contentFilter(), pii()];
    const window = guardrails({ output: chain(), stream: { mode: 'window' } });
    const reference = guardrails({ output: chain() });
    const r = prng(7);
    const failures: Failure[] = [];
    let blocked = 0;
    const phrases = ['kill yourself', 'k i l l yourself', 'build a bomb', 'shoot up the school'];
    for (let i = 0; i < 300 && failures.length < 5; i++) {
      const { text: base } = answer(r, r.int(1, 30));
      const words = base.split(' ');
      if (r.next() < 0.4) words.splice(r.int(0, words.length), 0, r.pick(phrases));
      const text = words.join(' ');
      const expected = await generated(reference, text);
      if (expected === BLOCKED) blocked++;
      for (const sizes of [[r.int(1, 50)], [4]]) {
        const deltas = chunk(text, sizes, true);
        if (expected !== BLOCKED) {
          const failure = await checkCase(window, 'window', text, expected, [], deltas, false);
          if (failure) failures.push(failure);
          continue;
        }
        // Blocked: what was released before the trip stays, then the blocked message; no phrase got out.
        const out = (await streamed(window, text, deltas)).join('');
        const before = out.slice(0, out.length - BLOCKED.length);
        const leaked = phrases.some(phrase => before.includes(phrase.split(' ').at(-1)!));
        if (!out.endsWith(BLOCKED) || leaked) {
          failures.push({
            text,
            deltas,
            mode: 'window',
            problem: `streamed ${JSON.stringify(out)}`,
          });
        }
      }
    }
    expect(failures).toEqual([]);
    expect(blocked).toBeGreaterThan(60);
  }, 60_000);
});
