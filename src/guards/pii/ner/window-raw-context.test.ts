import { generateText, streamText, wrapLanguageModel } from 'ai';
import { beforeAll, describe, expect, it } from 'vitest';
import { cut, modelFor, windowAndGenerateTexts } from '../../../../test/helpers';
import {
  type DifferentialKind,
  type Differing,
  differentialTexts,
  windowDifferential,
} from '../../../../test/helpers/window-differential';
import type { GuardrailEvent } from '../../../core/types';
import { guardrails } from '../../../middleware/guardrails-middleware';
import { invisibleText } from '../../invisible-text/invisible-text';
import { pii } from '../pii';

/*
 * Round 48 (hL, issues 16 and 17): a window check whose kept left context
 * holds a change reads that context raw, as generate read it, from the
 * first word start of the released text kept, and takes that reading when
 * it redacts the context exactly as it was released (window-processor
 * `rawContextOf`, `checkAfter`). Before, the check read the released names
 * as placeholders, and the tagger's features and two-label history near a
 * placeholder differ from generate's first reading.
 *
 * The differential (test/helpers/window-differential.ts): 4 kinds x 400
 * seeded texts written there, each streamed in deltas of one random size
 * and of 3, 11, 1. Texts that differ from generate, r48-hJ-D with r48-hD
 * -> this round: capitalised lines 27 -> 8, speakers 12 -> 2, place lists
 * 35 -> 13, e-mails near names 23 -> 6; texts where a stream shows a word
 * raw that generate redacts 4 -> 1, 1 -> 0, 7 -> 2, 2 -> 0.
 */
const SEEDS: Record<DifferentialKind, number> = {
  lines: 4801,
  speakers: 4802,
  places: 4803,
  emails: 4804,
};
const KINDS = Object.keys(SEEDS) as DifferentialKind[];

describe('window mode with names: the context read raw', () => {
  const found = new Map<DifferentialKind, Differing[]>();
  beforeAll(async () => {
    for (const kind of KINDS) found.set(kind, await windowDifferential(kind, SEEDS[kind], 400));
  }, 600_000);

  it('at most 8, 2, 13 and 6 of 400 texts differ from generate (lines, speakers, places, e-mails)', () => {
    expect(KINDS.map(kind => found.get(kind)!.length)).toEqual([8, 2, 13, 6]);
  });

  // Open: in these 3 the tagger's reading turns on text further back than
  // the released text a window keeps (its label history runs from the
  // line's start, hundreds of characters back): `York` after a phone
  // number read as an organisation, `Oslo` at a line's end read as a
  // person where generate read the next line's `Kowalski` as one, `New
  // York` ending a long list. Pinned: which words, in which texts.
  it('shows a word raw that generate redacts in 3 texts, pinned', () => {
    const raw = KINDS.map(kind =>
      found
        .get(kind)!
        .filter(one => one.raw.length > 0)
        .map(one => [one.index, one.raw]),
    );
    expect(raw).toEqual([
      [[84, ['York']]],
      [],
      [
        [332, ['Kowalski']],
        [396, ['York', 'New']],
      ],
      [],
    ]);
  });

  it.fails('shows no word raw that generate redacts', () => {
    for (const kind of KINDS)
      expect(found.get(kind)!.filter(one => one.raw.length > 0)).toEqual([]);
  });

  // Before: `IBM Oslo` after `Louis\n[PERSON] ` went out raw in both
  // chunkings (the context read `[PERSON]` where generate read the name).
  it('redacts what generate redacts after a released name (a line of the differential)', async () => {
    const text = differentialTexts('lines', SEEDS.lines, 253)[252]!;
    const guard = pii({ entities: ['PERSON', 'ORGANIZATION'], action: 'redact' });
    const { generated, streamed } = await windowAndGenerateTexts(guard, text, [[43], [3, 11, 1]]);
    expect(generated).toContain(
      'data [ORGANIZATION]\nLouis\n[PERSON] [PERSON] Mr. [ORGANIZATION] my',
    );
    expect(streamed).toEqual([generated, generated]);
  });
});

describe('window mode: records of a context read raw', () => {
  const z = '\u200b';
  const answer =
    `We met Anna Kowalski${z} and Lars${z}${z} Rivera in the hall, then Jonathan Livingston wrote to Mr. Dalton about it and Zed${z} said hi to Maria Lopez twice.\n`.repeat(
      4,
    );
  async function counts(sizes: number[] | undefined) {
    const events: GuardrailEvent[] = [];
    const middleware = guardrails({
      output: [invisibleText(), pii({ entities: ['PERSON', 'ORGANIZATION'], action: 'redact' })],
      stream: { mode: 'window' },
      onEvent: event => events.push(event),
    });
    const model = wrapLanguageModel({
      model: modelFor(answer, sizes ? cut(answer, sizes) : [answer]),
      middleware,
    });
    const text = sizes
      ? await streamText({ model, prompt: 'hi' }).text
      : (await generateText({ model, prompt: 'hi' })).text;
    const count = events.flatMap(event =>
      'record' in event && event.record.guardrail === 'invisible-text'
        ? [(event.record.info as { count: number }).count]
        : [],
    );
    return { text, count };
  }

  // A check that read the raw context changed it again, and `invisibleText`'s
  // count was added up over the part's checks: 43 for deltas of 3. Such a
  // check now reads the released context (`countsChanges`).
  it('counts no stripped character of the raw context again (deltas of 3: 31, as before it was read raw)', async () => {
    const generated = await counts(undefined);
    expect(generated.count).toEqual([16]);
    const streamed = await counts([3]);
    expect(streamed.text).toBe(generated.text);
    expect(streamed.count).toEqual([31]);
  });

  // Open (found here, older than the raw context): the released text a
  // check reads again is stripped and counted again (releaseAtCut and the
  // context of each check), so the part's count is above generate's.
  it.fails('counts what generate counts', async () => {
    expect((await counts([3])).count).toEqual((await counts(undefined)).count);
  });
});
