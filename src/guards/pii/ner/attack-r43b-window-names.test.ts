import { describe, expect, it } from 'vitest';
import { windowAndGenerateTexts } from '../../../../test/helpers';
import { pii } from '../pii';

/*
 * Round 43b, an attacker's read of round 43's name rules in window
 * streaming: the request's object (chat-names.ts, `Ask Turing about …`),
 * two players (sports.ts, `Kim beat Adam`) and an honorific before a
 * masked placeholder (tagger.ts) each read a few tokens past their cue; a
 * stream cut at each delta must end as generate does.
 */
const answers: Array<[string, string]> = [
  [
    'Ask Turing about the budget.\nRemind Okafor to sign.',
    // The tagger takes `Remind` at the line's start into the name: more hidden, none released.
    'Ask [PERSON] about the budget.\n[PERSON] to sign.',
  ],
  [
    'Kim beat Adam easily. Jonas defeated Mateo in the semi-final.',
    '[PERSON] beat [PERSON] easily. [PERSON] defeated [PERSON] in the semi-final.',
  ],
  [
    'Prof. Adaeze Obi gave the talk. Tell Okonkwo the plan changed.',
    'Prof. [PERSON] gave the talk. Tell [PERSON] the plan changed.',
  ],
  [
    // Three words after the verb (the rule's most), then a firm word that rules the cue out.
    'Tell Okafor Nnamdi Eze the plan changed. Ask Turing Industries about it.',
    'Tell [PERSON] the plan changed. Ask Turing Industries about it.',
  ],
];

describe('round 43 name rules: window streaming ends as generate does', () => {
  it.each(answers)('%s', async (answer, expected) => {
    const { generated, streamed } = await windowAndGenerateTexts(
      pii({ entities: ['PERSON'], action: 'redact' }),
      answer,
      [[1], [2], [3], [5], [7], [11], [1, 7, 3], [30]],
    );
    expect(generated).toBe(expected);
    for (const text of streamed) expect(text).toBe(generated);
  });
});
