import { describe, expect, it } from 'vitest';
import { windowAndGenerateTexts } from '../../test/helpers';
import { pii } from '../guards/pii/pii';

/*
 * Round 48 review (hJ) of the window restart (hD, `contextPastChange` in
 * window-processor.ts): when a check changes its own left context, the
 * context now starts again at the first word start past the change rather
 * than being dropped. Differential runs, base 48e31fd1 against r48-hD, 4 x
 * 400 seeded texts written here (names, places, numbers, addresses; chat
 * lines with lower-case names), PERSON+ORGANIZATION or seven entities,
 * each streamed in deltas of 3, 11, 1 and of one random size: texts whose
 * stream differs from generate 171 -> 87; texts where a stream shows a
 * word raw that generate redacts 19 -> 7, none new. 4 texts differ only
 * with the restart, all over-redaction (a word at the pending text's
 * start read as an ORGANIZATION after the restarted context); this is one.
 */
const answer =
  'Dalton [PERSON] Mr. Dalton met to wrote [PERSON] Picard said [PERSON] hi 555-123-4567 Zed Dr.\n' +
  'from data Google 555-123-4567 New York ran my name is to ok in from York hi card lives at New Maria: Mr. Dalton at 42 Elm Street\n' +
  'said Rivera hi Rivera in card [PERSON] Oslo data at in card SSN me at Louis 123-45-6789 Berlin Maria: Acme Corp to\n' +
  '555-123-4567 jo.sm@mail.com hi Paris Maria: ran me at New [PERSON] ran the Smith 42 Elm Street at data Maria: jo.sm@mail.com in hi said Springfield Berlin from call York Lars at Springfield (555) 201-3344 Google call Dr. Smith from jo.sm@mail.com 4111 1111 1111 1111 my name is Smith wrote data we ok Dr. my name is my name is me at Rivera Maria: ok St. Picard Google at Acme Corp my name is Smith Mr. Dalton Oslo me at 555-123-4567 Paris';

describe('round 48 review: window context restarted past a change', () => {
  // Was open: generate leaves the address `jo.sm@mail.com` as it is (no
  // e-mail entity asked); streamed in deltas of 3, 11, 1 the restarted
  // context (cut at a word start past the change, in the middle of the
  // line) made NER read `jo` at the pending text's start as an
  // ORGANIZATION: `from [ORGANIZATION].sm@mail.com`. Round 48 (hL): the
  // check reads the kept context raw, as generate did (window-processor
  // `checkAfter`), and the context is not changed, so not restarted.
  it('streams as generate in deltas of 3, 11, 1', async () => {
    const guard = pii({ entities: ['PERSON', 'ORGANIZATION'], action: 'redact' });
    const { generated, streamed } = await windowAndGenerateTexts(guard, answer, [[3, 11, 1]]);
    expect(generated).toContain('[PERSON] from jo.sm@mail.com 4111 1111 1111 1111');
    expect(streamed).toEqual([generated]);
  });

  it('generate leaves the address whole (so the open test fails on the stream alone)', async () => {
    const guard = pii({ entities: ['PERSON', 'ORGANIZATION'], action: 'redact' });
    const { generated } = await windowAndGenerateTexts(guard, answer, []);
    expect(generated).toContain('[PERSON] from jo.sm@mail.com 4111 1111 1111 1111');
  });
});
