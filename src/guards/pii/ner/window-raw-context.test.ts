import { generateText, streamText, wrapLanguageModel } from 'ai';
import { beforeAll, describe, expect, it } from 'vitest';
import { cut, modelFor, windowAndGenerateTexts } from '../../../../test/helpers';
import {
  type DifferentialKind,
  type Differing,
  differentialTexts,
  type HELD_OUT_KINDS,
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
 *
 * Round 49 (hC): a context whose start falls in a piece with changes before
 * and after it is mapped to its raw text past each change (`alignedOffset`;
 * else that piece's part reads as released and the pieces after it raw: it
 * read all released before), a context started again past a change is read
 * raw too, and up to 16 restarts (2 before): differing 8 -> 1, 2 -> 1, 13
 * -> 0, 6 -> 1 (29 -> 3), raw where generate redacts 1, 0, 2, 0 -> none
 * (in-sample: the seeds are this test's).
 *
 * Round 50 (hC): a raw reading refused (its first words, cut inside a
 * multi-word reading, read otherwise than generate read them) is tried
 * again from the first line start past it, then from where the ordinary
 * context starts, before the released context is read: differing 1, 1, 0,
 * 1 -> none (in-sample; held out: window-held-out-r50.test.ts).
 */
/** The kinds this differential was read on (round 50's held-out kinds are not). */
type InSampleKind = Exclude<DifferentialKind, (typeof HELD_OUT_KINDS)[number]>;
const SEEDS: Record<InSampleKind, number> = {
  lines: 4801,
  speakers: 4802,
  places: 4803,
  emails: 4804,
};
const KINDS = Object.keys(SEEDS) as InSampleKind[];

describe('window mode with names: the context read raw', () => {
  const found = new Map<DifferentialKind, Differing[]>();
  beforeAll(async () => {
    for (const kind of KINDS) found.set(kind, await windowDifferential(kind, SEEDS[kind], 400));
  }, 600_000);

  it('no text of 400 differs from generate (lines, speakers, places, e-mails)', () => {
    expect(KINDS.map(kind => found.get(kind)!.length)).toEqual([0, 0, 0, 0]);
  });

  // Round 48 left 3 (`York` of lines 84, `Kowalski` of places 332, `New
  // York` of places 396); each has a test of its own below.
  it('shows no word raw that generate redacts', () => {
    for (const kind of KINDS)
      expect(found.get(kind)!.filter(one => one.raw.length > 0)).toEqual([]);
  });

  // Round 49 left 3 (lines 364, speakers 40, e-mails 52); each has a test
  // of its own below (round 50).
  it('differs in no text, pinned', () => {
    expect(KINDS.map(kind => found.get(kind)!.map(one => one.index))).toEqual([[], [], [], []]);
  });

  /**
   * Text `index` of the differential of `kind` (PERSON and ORGANIZATION),
   * streamed in deltas of `sizes`: generate's text holds `expected`, and the
   * stream's is generate's.
   */
  async function streamsAsGenerate(
    kind: InSampleKind,
    index: number,
    sizes: number[],
    expected: string,
  ) {
    const text = differentialTexts(kind, SEEDS[kind], index + 1)[index]!;
    const guard = pii({ entities: ['PERSON', 'ORGANIZATION'], action: 'redact' });
    const { generated, streamed } = await windowAndGenerateTexts(guard, text, [sizes]);
    expect(generated).toContain(expected);
    expect(streamed).toEqual([generated]);
  }

  // Before: `York` went out raw. The last check's context began in a piece
  // whose release changed its first word and a later one (`Mr. [PERSON] to
  // [PERSON]`), so it read all its context released: `Smith Zed` as
  // `[PERSON] [PERSON]`, after which the tagger leaves `York` outside; read
  // raw, as generate read it, `York` is an organisation.
  it('redacts `York` after a line of released names as generate does (lines 84, deltas of 19)', async () => {
    await streamsAsGenerate(
      'lines',
      84,
      [19],
      'we [PERSON] [PERSON]\n555-123-4567 [ORGANIZATION] data and from me at New Oslo',
    );
  });

  // Before: `from [PERSON]\nKowalski flew`. The context read again changed
  // its place list (`New Springfield Oslo Bolivia` read from its start), so
  // did the two restarts, and the pending text judged alone read its first
  // word, `Oslo`, as a name, and `Kowalski` on the next line not.
  it('reads `Oslo` ending a line as generate does (places 332, deltas of 35)', async () => {
    await streamsAsGenerate(
      'places',
      332,
      [35],
      'via flew [ORGANIZATION] from . [ORGANIZATION] from Oslo\n[PERSON] flew , Chad',
    );
  });

  // Before: `Springfield , New York .` went out raw. The restart past a
  // changed context read its released names as placeholders.
  it('redacts `New York` ending a list as generate does (places 396, deltas of 11)', async () => {
    await streamsAsGenerate(
      'places',
      396,
      [11],
      'Berlin New York Chad San Francisco Springfield , [ORGANIZATION] .\nthe we',
    );
  });

  // Round 50: each of these read its raw context from the first word start
  // of the raw pieces kept, inside a multi-word reading; its first words
  // read otherwise than generate read them, the reading was refused (its
  // redaction is not the released text), and the check read its context
  // released, placeholders and all. From the first line start past it, the
  // raw reading is taken (window-processor `RAW_STARTS`).
  // - lines 364, before `card\n[ORGANIZATION] said`: the raw start `Street`
  //   of `42 Elm Street` read `Street Anna Kowalski` as a person; read
  //   released, `data [PERSON] card` made the next line's name an
  //   organisation.
  // - speakers 40, before `[PERSON]: here ask`: the raw start `York` of
  //   `New York` read `York New Livingston Google` otherwise; read
  //   released, the speaker rule took `Sam:` after `[PERSON] ` as a name.
  // - e-mails 52, before `hi [PERSON] [PERSON]@example.org`: the raw start
  //   `Dalton` of `Mr. Dalton` typed it an organisation; read released,
  //   `bob` after `hi [PERSON] ` a name. Only the line start fixes this one
  //   (the ordinary context's start reads raw otherwise too).
  it.each([
    [
      'lines',
      364,
      [3, 11, 1],
      'from lives at data [PERSON] card\n[PERSON] said [PERSON] from [PERSON] data lives at Berlin\n',
    ],
    [
      'speakers',
      40,
      [3, 11, 1],
      'mateus [PERSON] is and [PERSON] Sam: here ask\n[PERSON]: name [ORGANIZATION] the',
    ],
    [
      'emails',
      52,
      [9],
      'at [ORGANIZATION] hi [PERSON] bob@example.org to bob@example.org said [PERSON] mail',
    ],
  ] as const)(
    'streams as generate after a refused raw start (%s %i, deltas of %j)',
    async (kind, index, sizes, expected) => {
      await streamsAsGenerate(kind, index, [...sizes], expected);
    },
  );

  // Before: `Paris` went out as `[PERSON]`. The context began inside a
  // released piece with changes before and after its start (`New York\nsaid
  // me at card [PERSON] [ORGANIZATION]`), which no unchanged prefix or
  // suffix maps, so it read all released; mapped past each change, it reads
  // raw as generate did.
  it('reads a context starting between two changes of its piece raw (lines 284, deltas of 3, 11, 1)', async () => {
    await streamsAsGenerate(
      'lines',
      284,
      [3, 11, 1],
      'and wrote wrote [PERSON] [ORGANIZATION] Paris 42 Elm Street Dr. York [PERSON] Smith',
    );
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
  // check now reads the released context (`countsChanges`). Round 49: 31
  // then, the held-back text of each check read and counted again by the
  // next; a check whose record counts its changes is now recorded for the
  // text it releases (a check of that text, when it holds some back).
  it('counts each stripped character once, as generate does (16, deltas of 3, 1, 7 and 3, 11, 1)', async () => {
    const generated = await counts(undefined);
    expect(generated.count).toEqual([16]);
    for (const sizes of [[3], [1], [7], [3, 11, 1]]) {
      const streamed = await counts(sizes);
      expect(streamed.text).toBe(generated.text);
      expect(streamed.count).toEqual([16]);
    }
  });
});
