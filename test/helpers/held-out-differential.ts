import { beforeAll, expect, it } from 'vitest';
import {
  type DifferentialKind,
  type Differing,
  HELD_OUT_KINDS,
  windowDifferential,
} from './window-differential';

/** Seeds of round 50's four held-out shapes. */
export type HeldOutSeeds = Record<(typeof HELD_OUT_KINDS)[number], number>;

/**
 * Round 50's held-out differential (`windowDifferential`, 500 texts of each
 * shape at `seeds`, with deltas cut at names' edges), as tests of the
 * caller's `describe`: the texts that differ from generate, pinned per shape
 * (transcripts, signatures, addresses, marks; pins go down only), and none
 * showing a word raw that generate redacts.
 */
export function heldOutDifferential(seeds: HeldOutSeeds, pinned: number[][]): void {
  const found = new Map<DifferentialKind, Differing[]>();
  beforeAll(async () => {
    for (const kind of HELD_OUT_KINDS)
      found.set(kind, await windowDifferential(kind, seeds[kind], 500, { edges: true }));
  }, 1_800_000);

  it('differs in these texts, pinned (transcripts, signatures, addresses, marks)', () => {
    expect(HELD_OUT_KINDS.map(kind => found.get(kind)!.map(one => one.index))).toEqual(pinned);
  });

  it('shows no word raw that generate redacts', () => {
    for (const kind of HELD_OUT_KINDS)
      expect(found.get(kind)!.filter(one => one.raw.length > 0)).toEqual([]);
  });
}
