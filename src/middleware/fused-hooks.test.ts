import { describe, expect, it } from 'vitest';
import { seededRandom } from '../../bench/fixtures';
import { randomTokenText } from '../../test/helpers/window';
import { filteredHookOf, filterTriggersOf, fusedHookOf } from '../core/filtered-hooks';
import type { Guardrail } from '../core/types';
import { contentFilter } from '../guards/content-filter/content-filter';
import { pii } from '../guards/pii/pii';
import { secrets } from '../guards/secrets/secrets';
import { MAY_MATCH, mayMatchUnion, unionScan } from './may-match-union';

// Prose with what the fused hooks must not miss (quotes, `curl`,
// `Authorization`, `kind:` in any case), values, entries and their prefixes.
const TOKENS = [
  'the',
  'plan',
  'and',
  'we',
  'shipped',
  'it',
  'a',
  'I',
  "don't",
  "it's",
  '"',
  "'",
  '`',
  '"hunter',
  "'secret'",
  '"quoted value"',
  '"kind"',
  'kind:',
  'Kind:',
  'KIND :',
  'Secret',
  'curl',
  'CURL',
  'cUrl',
  'curly',
  'Authorization',
  'authorization:',
  'AUTHORIZATION',
  'Bearer',
  'token',
  'password',
  'pass',
  '==',
  '=',
  ':',
  'jane@example.com',
  '4111 1111 1111 1111',
  '415',
  'AKIA',
  'xoxb',
  'kill',
  'kil',
  'shoot',
  'you',
  'make',
  'a bomb',
  'k i l l',
  '-',
  '--',
  '.',
  ',',
  '(',
  ')',
  '!',
  '?',
  'é',
  '’',
];
const BLANKS = ['', ' ', ' ', ' ', '  ', '\n', '\t', ' \n '];

/** Builds the chain's one scan as window mode does (`prefilteredChain`). */
function scanOf(chain: Guardrail[]) {
  const triggers = chain.map(guardrail => {
    const declared = filterTriggersOf(guardrail);
    if (declared === undefined) throw new Error(`${guardrail.name} declares no triggers`);
    return declared;
  });
  const scan = unionScan(
    triggers,
    chain.map(guardrail => fusedHookOf(guardrail)?.notes),
  );
  if (scan === undefined) throw new Error('no union');
  return { scan, mayMatchAny: mayMatchUnion(triggers)! };
}

/**
 * Every window of random prose the scan rules out, and every end of it (the
 * hooks' text): the fused hook, told whether the scan noted anything in that
 * end, against the filtered hook. Returns the differences, the ends compared,
 * and the ends where a note changed the answer (what the notes are for).
 */
function compare(chain: Guardrail[], texts: number, seed: number) {
  const { scan, mayMatchAny } = scanOf(chain);
  const pairs = chain.flatMap(guardrail => {
    const fused = fusedHookOf(guardrail);
    const filtered = filteredHookOf(guardrail);
    return fused && filtered ? [{ name: guardrail.name, fused, filtered }] : [];
  });
  const next = seededRandom(seed);
  const differences: string[] = [];
  let compared = 0;
  let notesMattered = 0;
  for (let t = 0; t < texts; t++) {
    const text = randomTokenText(next, 4 + Math.floor(next() * 30), TOKENS, BLANKS);
    for (let end = 1; end <= text.length; end++) {
      const start = Math.max(0, end - 1 - Math.floor(next() * 120));
      const window = text.slice(start, end);
      const verdict = scan(window);
      // The scan's verdict is the union's.
      if ((verdict === MAY_MATCH) !== mayMatchAny(window)) differences.push(`verdict ${window}`);
      if (verdict === MAY_MATCH) continue;
      for (const at of new Set([0, 1, Math.floor(next() * window.length), window.length - 1])) {
        if (at < 0 || at >= window.length) continue;
        const hookText = window.slice(at);
        const noted = verdict > at;
        for (const { name, fused, filtered } of pairs) {
          compared++;
          const expected = filtered(hookText);
          const actual = fused.hook(hookText, noted);
          if (actual !== expected) {
            differences.push(`${name} ${JSON.stringify(hookText)}: ${actual} != ${expected}`);
          }
          if (noted && fused.hook(hookText, false) !== expected) notesMattered++;
        }
      }
    }
  }
  return { differences, compared, notesMattered };
}

describe('fused pass: the one scan answers the filtered hooks too', () => {
  it('pii + secrets + contentFilter: the fused hooks answer as the filtered hooks on every window the scan rules out', () => {
    const { differences, compared, notesMattered } = compare(
      [pii(), secrets(), contentFilter()],
      600,
      18,
    );
    expect(differences).toEqual([]);
    expect(compared).toBeGreaterThan(20_000);
    // The notes decide answers: without them a quote, `curl` or `kind:` would be missed.
    expect(notesMattered).toBeGreaterThan(100);
  });

  it('each alone, another blocklist, and the chain in another order', () => {
    for (const [i, chain] of [
      [secrets()],
      [contentFilter()],
      [contentFilter({ blocklist: ['acme corp', 'kil'] }), secrets()],
      [secrets(), contentFilter(), pii()],
    ].entries()) {
      const { differences, compared } = compare(chain, 150, 100 + i);
      expect(differences).toEqual([]);
      expect(compared).toBeGreaterThan(1_000);
    }
  });

  it('the comparison can fail: a scan that notes nothing is caught', () => {
    const guardrail = secrets();
    const fused = fusedHookOf(guardrail)!;
    const filtered = filteredHookOf(guardrail)!;
    // What the scan notes in these texts is what the filtered hook reads.
    for (const text of [
      'we said "the plan went well',
      'curl the plan today',
      "as in 'quoted words here",
      'kind: Secret\nthe plan here',
    ]) {
      expect(fused.hook(text, true)).toBe(filtered(text));
      expect(fused.hook(text, false)).not.toBe(filtered(text));
    }
    const { scan } = scanOf([pii(), guardrail, contentFilter()]);
    expect(scan('we said "hunter')).toBe(9); // the quote is noted: 1 + its index
    expect(scan('The team agreed on the plan')).toBe(0); // nothing noted
    // contentFilter notes a joiner (. - _ /) after a letter since round 35:
    // `kill.you` reads as `kill you`, so the word after it may still match.
    expect(scan('The team agreed on the plan.')).toBe(MAY_MATCH);
    expect(scan('call 555')).toBe(MAY_MATCH);
  });

  it('is registered only for the pair of hook and filter, and not for pii', () => {
    const guardrail = secrets();
    expect(fusedHookOf(guardrail)?.notes?.characters).toBe('"\'`');
    expect(fusedHookOf({ ...guardrail, mayMatch: () => false })).toBeUndefined();
    expect(fusedHookOf(contentFilter())?.hook).toBeTypeOf('function');
    expect(fusedHookOf(pii())).toBeUndefined();
  });
});
