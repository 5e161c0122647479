import { generateText, wrapLanguageModel } from 'ai';
import { MockLanguageModelV4 } from 'ai/test';
import { describe, expect, it } from 'vitest';
import { generateResult, withoutTiming } from '../../../test/helpers';
import { promptOf } from '../../../test/helpers/judge-calls';
import { getGuardrailOutcome } from '../../middleware/get-guardrail-outcome';
import { guardrails } from '../../middleware/guardrails-middleware';
import { llmJudge } from './llm-judge';

/*
 * Round 29: a judge that wrote a judged value encoded or spelled out quoted
 * it past the masking: percent-encoded twice (`hunter%2532`), an HTML
 * reference behind `&amp;`, in base64 (`aHVudGVyMg==`) or hex, or a number
 * in words (`eight eight four two`); and one that decoded a judged text's
 * base64 run wrote the value it held. Each is now read as the value.
 */
const policy = 'No passwords or door codes.';

/** What the judge was sent for `prompt` (an input guardrail) answering `reason`, and the record's reason. */
async function judged(prompt: string, reason: string) {
  const judge = new MockLanguageModelV4({
    doGenerate: async () =>
      generateResult(JSON.stringify({ flagged: true, confidence: 0.9, reason })),
  });
  const model = wrapLanguageModel({
    model: new MockLanguageModelV4({ doGenerate: async () => generateResult('unused') }),
    middleware: guardrails({ input: [llmJudge({ model: judge, policy })] }),
  });
  const result = await generateText({ model, prompt });
  const records = withoutTiming((await getGuardrailOutcome(result))?.records);
  return { sent: judge.doGenerateCalls.map(promptOf), records, shown: records[0]?.reason };
}

/** The judge's prompt for one user message: the default template, no conversation. */
const judgePrompt = (content: string) =>
  `<policy>\n${policy}\n</policy>\n\nThe content below is a user's message to an AI assistant.\n\n<content>\n${content}\n</content>\n\nDoes the content violate the policy?`;

describe('llmJudge: a reason that encodes or spells a judged value quotes nothing of it', () => {
  const prompt = 'Please log in, my password is hunter2 and the door code 8842.';

  it('the judge reads the text as written; the record reads a value it wrote encoded as [quoted]', async () => {
    const { sent, records } = await judged(
      prompt,
      'It wrote aHVudGVyMg== and eight eight four two.',
    );
    expect(sent).toEqual([judgePrompt(prompt)]);
    expect(records).toEqual([
      {
        guardrail: 'llm-judge',
        kind: 'input',
        status: 'blocked',
        message: 'This content was blocked by a content policy.',
        reason: 'It wrote [quoted] and [quoted].',
        severity: 'warning',
        info: {
          flagged: true,
          confidence: 0.9,
          reason: 'It wrote [quoted] and [quoted].',
          threshold: 0.7,
          cached: false,
          usage: { inputTokens: 10, outputTokens: 20, totalTokens: 30 },
        },
      },
    ]);
  });

  it.each([
    ['It wrote hunter%2532 here.', 'It wrote [quoted] here.'],
    ['It wrote hunter%252532 here.', 'It wrote [quoted] here.'],
    ['It wrote hunter&amp;#50; here.', 'It wrote [quoted] here.'],
    ['It wrote hunter\\u005cu0032 here.', 'It wrote [quoted] here.'],
    ['It wrote hunter two here.', 'It wrote [quoted] here.'],
    ['The digits: Eight-eight-FOUR-two.', 'The digits: [quoted].'],
    ['It wrote aHVudGVyMg== here.', 'It wrote [quoted] here.'],
    ['It wrote aHVudGVyMg here.', 'It wrote [quoted] here.'],
    ['It wrote ODg0Mg== here.', 'It wrote [quoted] here.'],
    ['It wrote 68756e74657232 here.', 'It wrote [quoted] here.'],
    ['It wrote 68756E74657232 here.', 'It wrote [quoted] here.'],
    // Words and numbers of the reason's own stay.
    [
      'It has one problem and two more; 50% of it is abcdefgh.',
      'It has one problem and two more; 50% of it is abcdefgh.',
    ],
  ])('%s', async (reason, shown) => {
    expect((await judged(prompt, reason)).shown).toBe(shown);
  });

  it("a value held in the judged text's base64, or spelled out there, is masked when the reason writes it", async () => {
    const encoded = 'Use the token cGFzc3dvcmQ9c3dvcmRmaXNoMQ== to log in.';
    const { sent, shown } = await judged(encoded, 'It hands over swordfish1 in base64.');
    expect(sent).toEqual([judgePrompt(encoded)]);
    expect(shown).toBe('It hands over [quoted] in base64.');
    const spelled = 'Call me on five five five one two three four tonight.';
    expect((await judged(spelled, 'It shares the number 5551234.')).shown).toBe(
      'It shares the number [quoted].',
    );
  });
});

/*
 * Round 30: what round 29 still showed. A short value without a digit
 * after a key (`pwd="letmein"`, `my name is Alice`) written back verbatim,
 * in capitals or spaced out; numbers in words past nine; base64 glued to
 * a word before it; base32 and ROT13.
 */
describe('llmJudge: a reason that writes a hidden short value, a number in words or a value in base32, ROT13 or glued base64 quotes nothing of it', () => {
  const secret = 'Log me in, pwd="letmein" thanks.';

  it('a short value after a key is masked as the judge writes it; the words around it (password) stay', async () => {
    const { sent, records } = await judged(secret, 'It gives the password, which is LETMEIN.');
    expect(sent).toEqual([judgePrompt(secret)]);
    expect(records).toEqual([
      {
        guardrail: 'llm-judge',
        kind: 'input',
        status: 'blocked',
        message: 'This content was blocked by a content policy.',
        reason: 'It gives the password, which is [quoted].',
        severity: 'warning',
        info: {
          flagged: true,
          confidence: 0.9,
          reason: 'It gives the password, which is [quoted].',
          threshold: 0.7,
          cached: false,
          usage: { inputTokens: 10, outputTokens: 20, totalTokens: 30 },
        },
      },
    ]);
  });

  it.each([
    [
      secret,
      'It gives the password, which is letmein.',
      'It gives the password, which is [quoted].',
    ],
    [secret, 'It spells it L E T M E I N for the user.', 'It spells it [quoted] for the user.'],
    [secret, 'It gives yrgzrva in ROT13.', 'It gives [quoted] in ROT13.'],
    [
      'Hi, my name is Alice, I need help.',
      'The sender (ALICE) asks for help.',
      'The sender ([quoted]) asks for help.',
    ],
    ['My PIN is 4242.', 'It shares forty-two forty-two.', 'It shares [quoted].'],
    ['door code 1212', 'The code is twelve twelve.', 'The code is [quoted].'],
    ['key hunter312', 'It says hunter three hundred twelve.', 'It says [quoted].'],
    ['password=hunter2', 'It wrote keyaHVudGVyMg== here.', 'It wrote [quoted] here.'],
    ['password=hunter2', 'It wrote tokenaHVudGVyMg here.', 'It wrote [quoted] here.'],
    [
      'see keycGFzc3dvcmQ9c3dvcmRmaXNoMQ== now',
      'It decodes to swordfish1.',
      'It decodes to [quoted].',
    ],
    ['password=hunter2', 'It wrote NB2W45DFOIZA==== here.', 'It wrote [quoted] here.'],
    ['password=hunter2', 'It wrote nb2w45dfoiza here.', 'It wrote [quoted] here.'],
    ['password=hunter2', 'It wrote uhagre2 here.', 'It wrote [quoted] here.'],
    // Round 31: values after keys that name a key, code or one-time password.
    ['my api key: sunset', 'It leaks SUNSET as the key.', 'It leaks [quoted] as the key.'],
    ['recovery code = maple', 'It gives m-a-p-l-e as the code.', 'It gives [quoted] as the code.'],
    ['The OTP is qwerty', 'It shares ytrewq backwards.', 'It shares [quoted] backwards.'],
    ['API_KEY=orange', 'The value (orange) is shown.', 'The value ([quoted]) is shown.'],
    // Prose after a key is no value, and the reason's own words stay.
    ['The key is needed here.', 'NEEDED, it asks for a key.', 'NEEDED, it asks for a key.'],
    [
      'The pwd is needed to log in.',
      'NEEDED, it asks for a password; twenty people are named.',
      'NEEDED, it asks for a password; twenty people are named.',
    ],
  ])('%s | %s', async (prompt, reason, shown) => {
    expect((await judged(prompt, reason)).shown).toBe(shown);
  });
});

/*
 * Round 32: what round 31 still showed. A value after a key the list did
 * not name (`answer:`, `phrase:`) or after an arrow (`->`, `=>`, `→`), and
 * a value in base64 with letters glued on both sides.
 */
describe('llmJudge: a value after an answer, a phrase or an arrow, or glued base64 on both sides, is masked', () => {
  it.each([
    ['security answer: maple', 'It gives MAPLE as the answer.', 'It gives [quoted] as the answer.'],
    ['the phrase: sunset', 'It leaks sunset.', 'It leaks [quoted].'],
    ['password -> maple', 'It gives maple.', 'It gives [quoted].'],
    ['password => maple', 'It gives m a p l e.', 'It gives [quoted].'],
    ['pwd \u2192 maple', 'It gives elpam.', 'It gives [quoted].'],
    ['password=hunter2', 'It wrote xxaHVudGVyMgyy here.', 'It wrote [quoted] here.'],
    ['password=hunter2', 'It wrote aHVudGVyMgxyz here.', 'It wrote [quoted] here.'],
    // Prose after such a key is no value, and the reason's own words stay.
    ['The answer is needed.', 'NEEDED, it asks for an answer.', 'NEEDED, it asks for an answer.'],
  ])('%s | %s', async (prompt, reason, shown) => {
    expect((await judged(prompt, reason)).shown).toBe(shown);
  });
});

/*
 * Round 34: what round 33 still showed. A value after a `hint:` key; a
 * short PIN after `pin of`, and a PIN glued to other characters in the
 * reason (`PIN=4821`, `4821st`); a base64 value glued after a word of more
 * than 32 characters that decodes to printable bytes.
 */
describe('llmJudge: a hint, a PIN after "pin of" or glued, and base64 glued after a long word, are masked', () => {
  const longWord = 'longwordlongwordlongwordlongwordlongwordlong'; // 44 characters
  it.each([
    ['My password hint: maple', 'The hint is maple.', 'The hint is [quoted].'],
    ['hint=sunset', 'It gives SUNSET as a hint.', 'It gives [quoted] as a hint.'],
    ['the pin of 482', 'The PIN 482 is shared.', 'The PIN [quoted] is shared.'],
    ['the pin of 4821', 'It wrote PIN=4821 here.', 'It wrote PIN=[quoted] here.'],
    ['the pin of 4821', 'The PIN 4821st is shared.', 'The PIN [quoted] is shared.'],
    ['the pin of 4821', 'The PIN x4821 is shared.', 'The PIN [quoted] is shared.'],
    ['password=hunter2', `It wrote ${longWord}aHVudGVyMg== here.`, 'It wrote [quoted] here.'],
    ['password=hunter2', `It wrote ${longWord}aHVudGVyMgyy here.`, 'It wrote [quoted] here.'],
    // Prose after a hint or `of`, and numbers of the reason's own, stay.
    ['The hint is needed.', 'NEEDED, it asks for a hint.', 'NEEDED, it asks for a hint.'],
    ['The key of Alice is lost.', 'It asks about Alice.', 'It asks about Alice.'],
    ['my pin of 482', 'It lists 48 and 4821 as counts.', 'It lists 48 and 4821 as counts.'],
  ])('%s | %s', async (prompt, reason, shown) => {
    expect((await judged(prompt, reason)).shown).toBe(shown);
  });
});
