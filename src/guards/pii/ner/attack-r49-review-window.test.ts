import { describe, expect, it } from 'vitest';
import { windowAndGenerateTexts } from '../../../../test/helpers';
import {
  differentialTexts,
  rawWhereGenerateRedacts,
} from '../../../../test/helpers/window-differential';
import { pii } from '../pii';

/*
 * Round 49 review (hI) of r49-hC (window NER equal to generate). hC's
 * numbers are in-sample: the seeds 4801-4804 of window-raw-context.test.ts
 * that the change was read on. On held-out seeds of the same generator
 * (7801-7804, 100 texts each, this review), hC vs its base 3b605143:
 * differing 2/1/4/0 -> 1/1/1/0, but a raw release:
 *
 * - places, seed 7803, text 82, deltas of 3, 11, 1: hC releases `from
 *   Berlin New Peru New St. [PERSON]` where generate redacts `from
 *   [ORGANIZATION] St. [PERSON]` (the base streamed no word raw there):
 *   new with hC (CONTEXT_ROUNDS 16 / the restarted context read raw).
 * - lines, seed 7801, text 70: `Louis` raw where generate redacts, at the
 *   base and with hC (not hC's, still open).
 *
 * At 53ced0eb (alignedOffset) both pass, and the held-out seeds differ in
 * 0/0/0/0 of 100. Left for the lead: CPU time, window mode with PERSON and
 * ORGANIZATION on a 'Anna Kowalski Lars Oslo [PERSON] Zed York New ' list
 * streamed in deltas of 7 (process.cpuUsage, interleaved, same process):
 * base 163 ms -> hC 837 ms for 10 KB (median of 7, x5.1, load 16); 5, 20,
 * 80 KB: x4.2, x5.2, x5.6 (median of 3), still linear (~93 us a character).
 */
const PERSON_ORG = ['PERSON', 'ORGANIZATION'] as const;

describe('r49 review: window NER on held-out differential seeds', () => {
  // Failed at 0ac52dff; passes at 53ced0eb (alignedOffset).
  it('places seed 7803 text 82 in deltas of 3, 11, 1: no word raw that generate redacts', async () => {
    const text = differentialTexts('places', 7803, 83)[82]!;
    const guard = pii({ entities: [...PERSON_ORG], action: 'redact' });
    const { generated, streamed } = await windowAndGenerateTexts(guard, text, [[3, 11, 1]]);
    expect(rawWhereGenerateRedacts(text, generated, streamed[0]!)).toEqual([]);
    expect(streamed[0]).toBe(generated);
  }, 120_000);

  it('sanity: generate redacts that run as an organisation', async () => {
    const text = differentialTexts('places', 7803, 83)[82]!;
    const guard = pii({ entities: [...PERSON_ORG], action: 'redact' });
    const { generated } = await windowAndGenerateTexts(guard, text, []);
    expect(text).toContain('from Berlin New Peru New St. Louis');
    expect(generated).toContain('from [ORGANIZATION] St. [PERSON]');
  }, 120_000);

  // Not hC's (the base releases it too): `IBM Louis said` at a line start,
  // generate `IBM [PERSON] said`. Failed at the base and 0ac52dff; passes at 53ced0eb.
  it('lines seed 7801 text 70 in deltas of 3, 11, 1: no word raw that generate redacts', async () => {
    const text = differentialTexts('lines', 7801, 71)[70]!;
    const guard = pii({ entities: [...PERSON_ORG], action: 'redact' });
    const { generated, streamed } = await windowAndGenerateTexts(guard, text, [[3, 11, 1]]);
    expect(generated).toContain('\nIBM [PERSON] said');
    expect(rawWhereGenerateRedacts(text, generated, streamed[0]!)).toEqual([]);
  }, 120_000);
});
