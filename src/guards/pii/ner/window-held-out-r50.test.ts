import { beforeAll, describe, expect, it } from 'vitest';
import {
  type DifferentialKind,
  type Differing,
  HELD_OUT_KINDS,
  windowDifferential,
} from '../../../../test/helpers/window-differential';

/*
 * Round 50 (hC, issue 16): a held-out differential of window mode with NER
 * entities against generate. Its four shapes (test/helpers/window-
 * differential.ts: chat transcripts with speakers at line starts,
 * signatures after e-mails, postal addresses split over lines, names beside
 * emoji, flags and combining marks) and its seeds (5001-5004, 500 texts
 * each) were written, and counted at the base 14a3fe92, before any change
 * of the round; each text streams in deltas of one random size, of 3, 11, 1
 * and cut at each capitalised word's start and two characters into it.
 * The round's changes were read on the old 1,600 texts (in-sample,
 * window-raw-context.test.ts); these are the held-out numbers.
 *
 * At the base: 17 of 2,000 texts differ (transcripts 1, signatures 4,
 * addresses 11, marks 1); 3 (all addresses) show a word raw that generate
 * redacts.
 */
const SEEDS: Record<string, number> = {
  transcripts: 5001,
  signatures: 5002,
  addresses: 5003,
  marks: 5004,
};
const COUNT = 500;

describe('window mode with names: held-out differential (round 50)', () => {
  const found = new Map<DifferentialKind, Differing[]>();
  beforeAll(async () => {
    for (const kind of HELD_OUT_KINDS)
      found.set(kind, await windowDifferential(kind, SEEDS[kind]!, COUNT, { edges: true }));
  }, 1_800_000);

  // Pins go down only.
  it('differs in these texts, pinned (transcripts, signatures, addresses, marks)', () => {
    expect(HELD_OUT_KINDS.map(kind => found.get(kind)!.map(one => one.index))).toEqual([
      [436],
      [42, 68, 140, 384],
      [40, 74, 82, 102, 180, 280, 326, 358, 416, 442, 466],
      [484],
    ]);
  });

  // Open at the base: addresses 180, 326 and 466 show words raw that generate redacts.
  it.fails('shows no word raw that generate redacts', () => {
    for (const kind of HELD_OUT_KINDS)
      expect(found.get(kind)!.filter(one => one.raw.length > 0)).toEqual([]);
  });
});
