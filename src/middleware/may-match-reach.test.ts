import { describe, expect, it } from 'vitest';
import { seededRandom } from '../../bench/fixtures';
import { bareCallGuard, randomTokenText } from '../../test/helpers/window';
import { allow, defineGuardrail, modify } from '../core/define-guardrail';
import type { Guardrail } from '../core/types';
import { contentFilter } from '../guards/content-filter/content-filter';
import { pii } from '../guards/pii/pii';
import { keywordPrefixes, providerLiteralNeedles } from '../guards/secrets/potential-start';
import { secrets } from '../guards/secrets/secrets';
import type { StreamPart } from './stream-processor';
import { reachTail } from './text-boundaries';
import { windowProcessor } from './window-processor';

/**
 * `mayMatchReach` is a promise about `mayMatch`: for any texts `a` and `b`,
 * `mayMatch(a + b)` is true only if `mayMatch(a)` or `mayMatch(t + b)` is,
 * for `t` any end of `a` holding at least its last `mayMatchReach`
 * characters (a run of whitespace counting as one). Window mode relies on
 * it to filter only the text received since its last check.
 */

// Pieces of what each filter looks for (and of prose around it), cut anywhere by the split.
const TOKENS = [
  'the',
  'plan',
  'and',
  'release',
  'notes',
  'skill',
  'Thursday',
  'meeting',
  'a',
  'I',
  '4111',
  '2024',
  '0',
  '@',
  'jane',
  'example.com',
  '[at]',
  '( at )',
  '{at}',
  'dead',
  'beef',
  'de-ad',
  'ca.fe',
  'fe80::1',
  'well:',
  ':ab',
  '<EMAIL_1>',
  'x',
  'password',
  'passwd',
  'token',
  'api_key',
  'encryption-key',
  'client_secret',
  'AKIA',
  'xoxb',
  'bedrock-api-key-',
  'curl',
  'sumo',
  '--',
  'data:',
  'ata:',
  'superstructurally',
  'extraordinary',
  'kill',
  'yourself',
  'k',
  'i',
  'l',
  'shoot',
  'up',
  'school',
  'will',
  'you',
  'make',
  'bomb',
  'pipe',
  'fuck',
  'shit',
  'f*ck',
  'sh1t',
  'end',
  'my',
  'life',
  '=',
  '"',
  "'",
  '.',
  ',',
  '-',
  '_',
  '*',
  '(',
  ')',
  ':',
  '…',
  '\u00a0',
  '’',
  '“',
  'é',
  'Ä',
  '–',
  '🙂',
  '\u200b',
];
const BLANKS = ['', ' ', ' ', ' ', '  ', '     ', '\n', '\t', ' \n  '];

const randomText = (next: () => number, count: number) =>
  randomTokenText(next, count, TOKENS, BLANKS);

/** The counterexamples to the promise among `cases` random splits, with tails of `reach` and a few more. */
function counterexamples(
  mayMatch: (text: string) => boolean,
  reach: number,
  cases: number,
  seed: number,
) {
  const next = seededRandom(seed);
  const found: Array<{ a: string; b: string; tail: string }> = [];
  for (let i = 0; i < cases; i++) {
    const whole = randomText(next, 2 + Math.floor(next() * 12));
    const at = Math.floor(next() * (whole.length + 1));
    const a = whole.slice(0, at);
    const b = whole.slice(at);
    if (!mayMatch(a + b) || mayMatch(a)) continue;
    const shortest = reachTail(a, reach);
    // Any longer tail too: the window keeps one tail for the longest reach of its chain.
    const longer = a.slice(Math.max(0, a.length - shortest.length - Math.floor(next() * 8)));
    for (const tail of [shortest, longer]) {
      if (!mayMatch(tail + b)) found.push({ a, b, tail });
    }
  }
  return found;
}

const builtIns: Array<[string, Guardrail]> = [
  ['pii', pii()],
  ['secrets', secrets()],
  ['contentFilter', contentFilter()],
  [
    'contentFilter with a long entry',
    contentFilter({ blocklist: ['launch the missiles at dawn'] }),
  ],
];

describe('mayMatchReach of the built-ins', () => {
  it.each(builtIns)(
    '%s: mayMatch(a + b) implies mayMatch(a) or mayMatch(tail + b)',
    (_, guardrail) => {
      expect(guardrail.mayMatchReach).toBeTypeOf('number');
      const mayMatch = guardrail.mayMatch!;
      expect(counterexamples(mayMatch, guardrail.mayMatchReach!, 6_000, 11)).toEqual([]);
    },
  );

  it('the property test finds a too-short reach (it can fail)', () => {
    for (const [, guardrail] of builtIns) {
      expect(counterexamples(guardrail.mayMatch!, 1, 6_000, 11).length).toBeGreaterThan(0);
    }
  });

  it("secrets' reach covers its longest needle with the letter before it, and every keyword", () => {
    const longestLiteral = Math.max(
      ...providerLiteralNeedles().map(needle => needle.literal.length),
    );
    expect(secrets().mayMatchReach).toBeGreaterThanOrEqual(longestLiteral + 1);
    // The longest keyword: `encryption[_.-]?key` (14), and the 14-letter run.
    expect(keywordPrefixes().every(prefix => prefix.length + 4 < 24)).toBe(true);
    expect(secrets().mayMatchReach).toBeGreaterThanOrEqual(15);
  });

  it("contentFilter's reach grows with its longest entry", () => {
    // Round 43: twice the entry and 8, what its filter reads around a spelled-out run.
    expect(contentFilter({ categories: {}, blocklist: ['x'.repeat(40)] }).mayMatchReach).toBe(88);
    expect(contentFilter({ categories: {}, blocklist: ['kill'] }).mayMatchReach).toBe(16);
    // No pre-filter with maxLength, so no reach either.
    expect(contentFilter({ maxLength: 100 }).mayMatchReach).toBeUndefined();
  });
});

describe('reachTail', () => {
  it('keeps the last characters, a run of whitespace counting as one', () => {
    expect(reachTail('abcdef', 3)).toBe('def');
    expect(reachTail('ab', 3)).toBe('ab');
    expect(reachTail('kill      you', 5)).toBe('l      you');
    expect(reachTail('kill \n\t you', 4)).toBe(' \n\t you');
    expect(reachTail('kill   ', 2)).toBe('l   ');
  });

  it('never starts inside a surrogate pair', () => {
    // Characters are UTF-16 units: 'b' and the low half of the emoji are 2, and the tail takes its high half too.
    expect(reachTail('a🙂b', 2)).toBe('🙂b');
    expect(reachTail('a🙂b', 3)).toBe('🙂b');
    expect(reachTail('a🙂b', 4)).toBe('a🙂b');
  });
});

/** Streams `text` in `size`-character deltas through the window processor; the released text. */
async function streamThrough(guardrails: Guardrail[], text: string, size: number) {
  const processor = windowProcessor(bareCallGuard(), guardrails, 256, () => true);
  let released = '';
  const take = (parts: StreamPart[]) => {
    for (const part of parts) if (part.type === 'text-delta') released += part.delta;
  };
  take((await processor.push({ type: 'text-start', id: 't' })).parts);
  for (let at = 0; at < text.length; at += size) {
    take(
      (await processor.push({ type: 'text-delta', id: 't', delta: text.slice(at, at + size) }))
        .parts,
    );
  }
  take((await processor.push({ type: 'text-end', id: 't' })).parts);
  return released;
}

/** A redactor of `XYZ` with a filter that records the texts it is asked about. */
function recordingRedactor(reach: number | undefined) {
  const asked: string[] = [];
  const guardrail = defineGuardrail({
    name: 'xyz',
    streamSafe: true,
    maxMatchLength: 8,
    potentialMatchStart: text => Math.max(0, text.length - 2),
    mayMatch: text => {
      asked.push(text);
      return text.includes('XYZ');
    },
    ...(reach !== undefined && { mayMatchReach: reach }),
    check: text => (text.includes('XYZ') ? modify(text.replaceAll('XYZ', '[X]')) : allow()),
  });
  return { guardrail, asked };
}

describe('window mode with mayMatchReach', () => {
  const prose = 'The team reviewed the plan and agreed on three priorities. '.repeat(20);

  it('asks the filter about the new text and a tail of the reach, not the whole checked text again', async () => {
    const withReach = recordingRedactor(3);
    const without = recordingRedactor(undefined);
    expect(await streamThrough([withReach.guardrail], prose, 4)).toBe(prose);
    expect(await streamThrough([without.guardrail], prose, 4)).toBe(prose);
    const read = (texts: string[]) => texts.reduce((sum, text) => sum + text.length, 0);
    // Without a reach each check reads the context (about 48 characters) again.
    expect(read(without.asked)).toBeGreaterThan(prose.length * 1.4);
    // With one: about the text once, plus 3 characters per check.
    expect(read(withReach.asked)).toBeLessThan(prose.length * 1.15);
    expect(read(withReach.asked)).toBeGreaterThanOrEqual(prose.length);
  });

  it('finds a match split across deltas and checks (stream == generate)', async () => {
    const { guardrail } = recordingRedactor(3);
    const next = seededRandom(5);
    for (let i = 0; i < 300; i++) {
      let text = '';
      while (text.length < 400) text += next() < 0.05 ? 'XYZ' : 'abcdefgh '[Math.floor(next() * 9)];
      const expected = text.replaceAll('XYZ', '[X]');
      const size = 1 + Math.floor(next() * 12);
      expect(await streamThrough([guardrail], text, size)).toBe(expected);
    }
  });

  it('a reach longer than the context costs no more than no reach (the filters never read the whole answer)', async () => {
    const long = recordingRedactor(1_000_000_000);
    const text = prose.repeat(10);
    expect(await streamThrough([long.guardrail], text, 4)).toBe(text);
    const read = long.asked.reduce((sum, asked) => sum + asked.length, 0);
    expect(read).toBeLessThan(text.length * 3);
    // Runs of blanks longer than the context: the same.
    const blanks = recordingRedactor(3);
    const spaced = `word${' '.repeat(200)}`.repeat(40);
    expect(await streamThrough([blanks.guardrail], spaced, 4)).toBe(spaced);
    expect(blanks.asked.reduce((sum, asked) => sum + asked.length, 0)).toBeLessThan(
      spaced.length * 3,
    );
  });

  it('a chain with a guardrail without reach filters the whole checked text', async () => {
    const withReach = recordingRedactor(3);
    const without = recordingRedactor(undefined);
    const other = { ...without.guardrail, name: 'other' };
    expect(await streamThrough([withReach.guardrail, other], prose, 4)).toBe(prose);
    const read = withReach.asked.reduce((sum, text) => sum + text.length, 0);
    expect(read).toBeGreaterThan(prose.length * 1.4);
  });
});
