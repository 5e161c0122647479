import { beforeAll, describe, expect, it } from 'vitest';
import { windowAndGenerateTexts } from '../../../../test/helpers';
import {
  type DifferentialKind,
  type Differing,
  differentialTexts,
  HELD_OUT_KINDS,
  windowDifferential,
} from '../../../../test/helpers/window-differential';
import { pii } from '../pii';

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
 * redacts. With a refused raw reading tried again from the first line
 * start past it, then from the ordinary context's start (window-processor
 * `RAW_STARTS`): 5 (0, 0, 5, 0), 2 raw (addresses 180 and 326).
 * Round 50 (hK): a check may not release raw what the last release's
 * verdict changed in the text it held back (`lastRead`; in both leaks the
 * release before had redacted the run, the next check, reading from a
 * later start, left it): 4 (0, 0, 4, 0), 0 raw.
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
      [],
      [],
      [40, 74, 284, 358],
      [],
    ]);
  });

  // Addresses 180 and 326 showed words raw that generate redacts (466 did at
  // the base); round 50 (hK): none (`lastRead` in window-processor.ts), and
  // addresses 284 now redacts more than generate in one chunking
  // (`Globex Inc.` as `[ORGANIZATION].`, no word raw): 5 differ -> 4.
  it('shows no word raw that generate redacts', () => {
    for (const kind of HELD_OUT_KINDS)
      expect(found.get(kind)!.filter(one => one.raw.length > 0)).toEqual([]);
  });

  /** Text `index` of the held-out addresses (PERSON and ORGANIZATION) streamed in deltas of `sizes`. */
  async function addresses(index: number, sizes: number[]) {
    const text = differentialTexts('addresses', SEEDS.addresses!, index + 1)[index]!;
    const guard = pii({ entities: ['PERSON', 'ORGANIZATION'], action: 'redact' });
    return windowAndGenerateTexts(guard, text, [sizes]);
  }

  it('generate redacts these address runs (the two below stream so too)', async () => {
    expect((await addresses(180, [6])).generated).toContain(
      '10 Downing Street Washington [ORGANIZATION]. Portland OR',
    );
    expect((await addresses(326, [3, 11, 1])).generated).toContain(
      '221B Baker Street\n[ORGANIZATION] 6XE [PERSON] ship to London',
    );
  });

  // Was a leak (`CO London Mr` raw, in every chunking). Generate's reading
  // of `Washington CO London Mr.` as an organisation turns on text further
  // back than a window keeps: the check that releases it reads its context
  // raw from each of its three starts (the first word start of the raw
  // pieces kept; the first line start past it; the ordinary
  // context's start) and none redacts that context as it was released, so
  // it reads the released context, and the tagger leaves the run; read
  // from the line start (`Helen Park ...`), the raw reading also leaves it.
  // Measured: generate on the text from the word start 256 characters
  // before the run leaves it raw too, from 384 before redacts it (the
  // tagger's reading there reaches past what a window keeps; hB's scoring,
  // not the window's).
  // Round 50 (hK), the state that reaches back: the STREET_ADDRESS inside
  // label. In these texts nearly every token reads as the inside of one
  // address, and an I label is allowed only while the entity stays within
  // `nerMaxLength.STREET_ADDRESS` (160) characters of its B token (across
  // line breaks too, for addresses only), so the run is cut every ~160
  // characters and the next token opens a new span. Where those cuts fall
  // (their phase) is set by where the first run of the chain began, any
  // distance back: read from two word starts 4 characters apart (178 and
  // 182 characters before `CO`), the runs end at `Washington` in one
  // reading (then `CO London Mr` reads B, I, I of an organisation) and at
  // `Downing Street` in the other (then `Street Washington CO London Mr` a
  // location, which the placeholder re-reading drops). Which start redacts
  // flips back and forth with the start (0, 182, 175 and 0 characters
  // back redact; 346, 178 and 159 do not): no fixed context length makes
  // the window agree.
  it('streams `CO London Mr.` as generate does (addresses 180, deltas of 6)', async () => {
    const { generated, streamed } = await addresses(180, [6]);
    expect(streamed).toEqual([generated]);
  });

  // Was a leak (`Portland New York NW1` and both `Kenji Watanabe` raw).
  // The same cause: every raw start is refused and the released context,
  // read from `Suite 200`, leaves the line after `221B Baker Street` as
  // written, where generate, reading from the text's start, redacts it
  // (generate from 256 characters before the line leaves it too, from 384
  // before redacts it). Traced (round 50, hK): the same address-run phase;
  // read from 177 characters before the line, the chained address runs end
  // at `221B` (`Baker Street` a location, then `Portland New York NW1` an
  // organisation); from 170 before, they run on through `Portland` and only
  // `New York` is an organisation.
  it('streams the line after `221B Baker Street` as generate does (addresses 326, deltas of 3, 11, 1)', async () => {
    const { generated, streamed } = await addresses(326, [3, 11, 1]);
    expect(streamed).toEqual([generated]);
  });
});
