import { describe, expect, it } from 'vitest';
import { seededRandom } from '../../bench/fixtures';
import { bareCallGuard, randomTokenText } from '../../test/helpers/window';
import { type FilterTriggers, filterTriggersOf } from '../core/filtered-hooks';
import type { Guardrail } from '../core/types';
import { contentFilter } from '../guards/content-filter/content-filter';
import { pii } from '../guards/pii/pii';
import { secrets } from '../guards/secrets/secrets';
import { mayMatchUnion } from './may-match-union';
import type { StreamPart } from './stream-processor';
import { windowProcessor } from './window-processor';

// What the built-ins' filters look for, near misses of it, and prose, cut anywhere by the splits.
const TOKENS = [
  'the',
  'plan',
  'and',
  'release',
  'Thursday',
  'a',
  'I',
  'x',
  'k i l l',
  'a b c',
  'A.B.C.D',
  'a-b-c-d',
  'q_r_s_t',
  '4111',
  '0',
  '@',
  'jane',
  'example.com',
  '[at]',
  '( at )',
  '(At)',
  '(a t)',
  '{at}',
  'dead',
  'beef',
  'de-ad',
  'ca.fe',
  'fe.be',
  'Note:',
  'well:',
  ':ab',
  '::',
  'x:a',
  '<EMAIL_1>',
  'password',
  'Passenger',
  'passwd',
  'session',
  'SESSION_KEY',
  'token',
  'api_key',
  'encryption-key',
  'client_secret',
  'login',
  'AKIA',
  'xAKIA',
  'akia',
  'xoxb',
  'sk-',
  '-sk-',
  'curl',
  'Curl',
  'AuthoriZation',
  'sumo',
  'Sumo',
  'asumo',
  '--',
  '-',
  'data:',
  'Data:',
  'ata:',
  '"type"',
  'superstructurally',
  'extraordinary-ish',
  'kill',
  'KILL',
  'yourself',
  'shoot',
  'up',
  'school',
  'you',
  'make',
  'bomb',
  'pipe',
  'fuck',
  'Shit',
  'shitake',
  'f*ck',
  'sh1t',
  '$',
  '|',
  '=',
  '"',
  "'",
  '.',
  ',',
  '_',
  '*',
  '(',
  ')',
  ':',
  '~',
  '\u000b',
  '\u007f',
  '…',
  '\u00a0',
  '’',
  'é',
  '🙂',
  '\u200b',
];
const BLANKS = ['', ' ', ' ', ' ', '  ', '\n', '\t', ' \n  ', '\f'];

const randomText = (next: () => number, count: number) =>
  randomTokenText(next, count, TOKENS, BLANKS);

/** Random printable ASCII (and blanks): characters no token list thought of. */
function randomAscii(next: () => number, length: number): string {
  let text = '';
  for (let i = 0; i < length; i++) {
    text += next() < 0.15 ? ' ' : String.fromCharCode(32 + Math.floor(next() * 95));
  }
  return text;
}

/** Texts where the union said no while a filter said yes, and how often the union said no. */
function misses(
  union: (text: string) => boolean,
  filters: ReadonlyArray<(text: string) => boolean>,
  cases: number,
  seed: number,
) {
  const next = seededRandom(seed);
  const found: string[] = [];
  let ruledOut = 0;
  for (let i = 0; i < cases; i++) {
    const text =
      i % 5 === 4
        ? randomAscii(next, 1 + Math.floor(next() * 12))
        : randomText(next, 1 + Math.floor(next() * 10));
    if (union(text)) continue;
    ruledOut++;
    if (filters.some(filter => filter(text))) found.push(text);
  }
  return { found, ruledOut };
}

const builtIns: Array<[string, Guardrail]> = [
  ['pii', pii()],
  ['pii with every type but URL', pii({ entities: ['EMAIL_ADDRESS', 'IP_ADDRESS', 'UK_NINO'] })],
  ['secrets', secrets()],
  ['contentFilter', contentFilter()],
  [
    'contentFilter with a long entry',
    contentFilter({ blocklist: ['launch the missiles at dawn', 'Data: leak', 'x'] }),
  ],
];

const triggersOf = (guardrail: Guardrail) => {
  const triggers = filterTriggersOf(guardrail);
  if (!triggers) throw new Error(`${guardrail.name} declares no triggers`);
  return triggers;
};

describe('mayMatchUnion: one scan for the chain’s filters', () => {
  it.each(builtIns)(
    '%s: where its triggers rule a match out, its filter does too',
    (_, guardrail) => {
      const union = mayMatchUnion([triggersOf(guardrail)])!;
      const { found, ruledOut } = misses(union, [guardrail.mayMatch!], 12_000, 3);
      expect(found).toEqual([]);
      expect(ruledOut).toBeGreaterThan(500); // and it does rule out
    },
  );

  it('the union of pii, secrets and contentFilter: where it rules a match out, every filter does', () => {
    const chain = [pii(), secrets(), contentFilter()];
    const union = mayMatchUnion(chain.map(triggersOf))!;
    const { found, ruledOut } = misses(
      union,
      chain.map(guardrail => guardrail.mayMatch!),
      20_000,
      4,
    );
    expect(found).toEqual([]);
    expect(ruledOut).toBeGreaterThan(500);
    // Ordinary prose is ruled out in one scan.
    expect(union('The team reviewed the plan and agreed on three priorities.\n\nLet me ')).toBe(
      false,
    );
  });

  it('the property test can fail: triggers missing what a filter looks for are caught', () => {
    const declared = triggersOf(secrets());
    const withoutCharacters: FilterTriggers = { ...declared, characters: '' };
    const withoutRun: FilterTriggers = { ...declared, run: undefined };
    const withoutConfirm: FilterTriggers = {
      ...declared,
      literals: declared.literals.map(({ literal }) => ({ literal, confirm: () => false })),
    };
    const withoutNear: FilterTriggers = { ...triggersOf(pii()), near: undefined };
    const withoutSingles: FilterTriggers = {
      ...triggersOf(contentFilter()),
      singleLetter: undefined,
    };
    for (const [triggers, guardrail] of [
      [withoutCharacters, secrets()],
      [withoutRun, secrets()],
      [withoutConfirm, secrets()],
      [withoutNear, pii()],
      [withoutSingles, contentFilter()],
    ] as const) {
      const { found } = misses(mayMatchUnion([triggers])!, [guardrail.mayMatch!], 12_000, 3);
      expect(found.length).toBeGreaterThan(0);
    }
  });

  it('is built once per chain of triggers (streams and new guardrails with the same lists share it)', () => {
    const union = (chain: Guardrail[]) => mayMatchUnion(chain.map(triggersOf));
    const first = union([pii(), secrets(), contentFilter()]);
    expect(union([pii(), secrets(), contentFilter()])).toBe(first);
    expect(union([pii(), secrets(), contentFilter({ blocklist: ['acme'] })])).not.toBe(first);
    expect(union([secrets(), pii(), contentFilter()])).not.toBe(first);
  });

  it('reads entries in any case with any run of blanks, beyond ASCII says maybe', () => {
    const union = mayMatchUnion([triggersOf(contentFilter({ blocklist: ['kill you'] }))])!;
    expect(union('we will KILL \n\t You now')).toBe(true);
    expect(union('we will kill the lights')).toBe(false);
    expect(union('café')).toBe(true);
    expect(union('')).toBe(false);
  });

  it('is declared for a built-in’s own filter only, and needs one run for all', () => {
    const guardrail = secrets();
    expect(filterTriggersOf({ ...guardrail, mayMatch: text => guardrail.mayMatch!(text) })).toBe(
      undefined,
    );
    const { mayMatch: _, ...withoutFilter } = guardrail;
    expect(filterTriggersOf(withoutFilter)).toBeUndefined();
    expect(
      mayMatchUnion([
        { characters: '', literals: [], run: { characters: 'ab', length: 3 } },
        { characters: '', literals: [], run: { characters: 'ba', length: 5 } },
      ]),
    ).toBeTypeOf('function');
    expect(
      mayMatchUnion([
        { characters: '', literals: [], run: { characters: 'ab', length: 3 } },
        { characters: '', literals: [], run: { characters: 'cd', length: 5 } },
      ]),
    ).toBeUndefined();
  });
});

/** Every part the window processor hands out for `text` in the given deltas, and the records. */
async function partsOf(guardrails: Guardrail[], text: string, sizes: () => number) {
  const call = bareCallGuard();
  const processor = windowProcessor(call, guardrails, 2048, () => true);
  const parts: StreamPart[] = [];
  const take = async (part: StreamPart) => {
    const step = await processor.push(part);
    parts.push(...step.parts);
    return step.trip === undefined;
  };
  await take({ type: 'text-start', id: 't' });
  for (let at = 0; at < text.length; ) {
    const size = sizes();
    if (!(await take({ type: 'text-delta', id: 't', delta: text.slice(at, at + size) }))) break;
    at += size;
  }
  await take({ type: 'text-end', id: 't' });
  parts.push(...(await processor.end(undefined)).parts);
  return { parts, records: call.records.map(({ durationMs: _, ...record }) => record) };
}

// Prose with values, long ids, emoji, flags, ZWJ sequences and combining marks.
const PIECES = [
  'The team reviewed the quarterly plan and agreed on three priorities. ',
  'Please make sure the release notes mention the new export format. ',
  'Let me know whether you’d like a summary of the discussion. ',
  'Write to jane.doe@example.com or call +1 (415) 555-0134. ',
  'Order 12345678901234567890 shipped. ',
  'export API_KEY=sk-proj-abcdefghijklmnopqrstuvwx ',
  'password: "hunter2hunter2" ',
  'I a b c d ',
  'kill yourself ',
  'Note: the cafe.beef ',
  '🙂 ',
  '👩‍👩‍👧 ',
  '🇫🇷🇩🇪 ',
  'naïve cafe\u0301 ',
  '\n\n',
];

describe('window mode with the one scan', () => {
  it('releases the same parts at the same points as asking each filter (random prose, chunkings)', async () => {
    // The same guardrails behind filters of their own: no triggers, so no union.
    const plain = () => [pii(), secrets(), contentFilter({ blocklist: ['fuck'] })];
    const wrapped = () =>
      plain().map(guardrail => ({ ...guardrail, mayMatch: (t: string) => guardrail.mayMatch!(t) }));
    const next = seededRandom(8);
    let released = 0;
    for (let i = 0; i < 240; i++) {
      let text = '';
      const length = 20 + Math.floor(next() * 900);
      while (text.length < length)
        text += PIECES[Math.floor(next() * (next() < 0.7 ? 3 : PIECES.length))];
      const seed = Math.floor(next() * 1e9);
      const chunking = i % 3 === 0 ? () => 4 : i % 3 === 1 ? () => text.length : undefined;
      const sizesFrom = () => {
        if (chunking) return chunking;
        const sizes = seededRandom(seed);
        return () => 1 + Math.floor(sizes() * 50);
      };
      const withUnion = await partsOf(plain(), text, sizesFrom());
      const without = await partsOf(wrapped(), text, sizesFrom());
      expect(withUnion).toEqual(without);
      released += withUnion.parts.length;
    }
    expect(released).toBeGreaterThan(2_000);
    // 480 streams: 9.8 s on a quiet 2-core machine, 34 s at load 24 (round 41).
  }, 60_000);
});
