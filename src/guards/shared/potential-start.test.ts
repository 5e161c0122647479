import { streamText, wrapLanguageModel } from 'ai';
import { describe, expect, it } from 'vitest';
import { seededRandom } from '../../../bench/fixtures';
import { cut, modelFor, readAll } from '../../../test/helpers';
import type { Guardrail, GuardrailContext } from '../../core/types';
import { getGuardrailOutcome } from '../../middleware/get-guardrail-outcome';
import { guardrails } from '../../middleware/guardrails-middleware';
import { contentFilter } from '../content-filter/content-filter';
import { pii } from '../pii/pii';
import { secrets } from '../secrets/secrets';
import { normalizeText } from './normalize-text';
import { isOwnNormalFormFrom, plainView } from './potential-start';

const context: GuardrailContext = {
  kind: 'output',
  messages: [],
  metadata: {},
  state: new Map(),
  abortSignal: new AbortController().signal,
};

/** True when `check` passes `text` as it is and reports nothing. */
async function passesUnchanged(guardrail: Guardrail, text: string): Promise<boolean> {
  const verdict = await guardrail.check(text, { ...context, state: new Map() });
  return verdict.action === 'allow' && verdict.info === undefined;
}

// Every character whose normal form plainView claims to know, and a few it does not.
const PLAIN_CHARS = [
  ...Array.from({ length: 95 }, (_, i) => String.fromCharCode(32 + i)),
  '\t',
  '\n',
  '\r',
  '\u00a0',
  ...Array.from({ length: 64 }, (_, i) => String.fromCharCode(0xc0 + i)).filter(
    char => char !== '\u00d7' && char !== '\u00f7',
  ),
  ...Array.from({ length: 6 }, (_, i) => String.fromCharCode(0x2010 + i)),
  ...Array.from({ length: 8 }, (_, i) => String.fromCharCode(0x2018 + i)),
  '\u2026',
];
const OTHER_CHARS = [
  '\u200b',
  '\u0301',
  '\uff11',
  '\u0660',
  '\u00b2',
  '\u0430',
  '\u00d7',
  '\u2212',
];

describe('plainView', () => {
  it('is the normalised text of every text made of the characters it knows', () => {
    const random = seededRandom(1);
    for (let i = 0; i < 3000; i++) {
      const length = 1 + Math.floor(random() * 40);
      let text = '';
      for (let j = 0; j < length; j++)
        text += PLAIN_CHARS[Math.floor(random() * PLAIN_CHARS.length)];
      expect(plainView(text)).toBe(normalizeText(text).text);
    }
  });

  it('gives up (undefined) on any other character', () => {
    for (const char of OTHER_CHARS) expect(plainView(`plain ${char} text`)).toBeUndefined();
  });

  it('isOwnNormalFormFrom answers as plainView of the suffix being the suffix, on 3,000 random texts', () => {
    const random = seededRandom(2);
    const chars = [...PLAIN_CHARS, ...OTHER_CHARS];
    let own = 0;
    for (let i = 0; i < 3000; i++) {
      let text = '';
      for (let j = 0, length = 1 + Math.floor(random() * 30); j < length; j++) {
        // Mostly characters that are their own normal form, so both answers are common.
        text +=
          random() < 0.9
            ? PLAIN_CHARS[Math.floor(random() * 95)]
            : chars[Math.floor(random() * chars.length)];
      }
      const from = Math.floor(random() * (text.length + 1));
      const suffix = text.slice(from);
      const expected = plainView(suffix) === suffix;
      if (isOwnNormalFormFrom(text, from) !== expected) expect({ text, from }).toBe(undefined);
      if (expected) own++;
    }
    expect(own).toBeGreaterThan(1000);
    expect(own).toBeLessThan(2900);
  });
});

const pieces = {
  prose: [
    'The team reviewed the plan. ',
    'Please send the notes before Friday, ',
    'well: no data was lost ',
    '(see below) ',
    "you'd like a summary ",
    'a — b ',
    'state-of-the-art ',
    'naïve café ',
    '“quoted” ',
    'I a m ',
  ],
  pii: [
    'jane@example.com ',
    'jane [at] example [dot] com ',
    'call +1 415 555 0132 ',
    'card 4111 1111 1111 1111 ',
    'MAC de-ad-be-ef-ca-fe ',
    'MAC dead.beef.cafe ',
    'host fe80::1 ',
    'host dead::beef ',
    'SSN 536-22-4187 ',
  ],
  secrets: [
    'password = "hunter22x" ',
    'sshpass -p huntertwo ssh host ',
    'mysql -u root -phuntertwo ',
    'sumo, superstructure ',
    'AKIAQWERTYUIOPASDFGH ',
    'SKfacebeadfeedcafebabedeadbeefaced ',
    'Authorization: Bearer qWhXzKpLmNrTsVbGdYcFjUeI ',
    'curl -u admin:huntertwo https://example.com ',
    '--password huntertwo ',
    'apiKey: "qWhXzKpLmNrTsVbGdYcF" ',
    'token: ghp_R7dK2mQ9xL4vB8nT1wZ6yH3cF5jP0sA8eU2i ',
    'data:\n  password: cXdlcnR5\nkind: Secret\n',
  ],
  contentFilter: [
    'kill yourself ',
    'KILL YOURSELF ',
    'k i l l yourself ',
    'k1ll yourself ',
    'kill\u00a0yourself ',
    'Kill   yourself ',
    'a$$hole ',
    'sh1t ',
  ],
};

const builtins: Array<[string, Guardrail, string[]]> = [
  ['pii', pii(), pieces.pii],
  ['secrets', secrets({ action: 'redact' }), pieces.secrets],
  ['contentFilter', contentFilter(), pieces.contentFilter],
];

describe('mayMatch of the built-in guardrails (window mode skips a check it rules out)', () => {
  for (const [name, guardrail, positives] of builtins) {
    it(`${name}: ordinary prose is ruled out`, () => {
      for (const text of pieces.prose.slice(0, 6)) expect(guardrail.mayMatch!(text)).toBe(false);
    });

    it(`${name}: every value it finds, written in letters only too, may match`, async () => {
      for (const value of positives) {
        const text = `Note: ${value}thanks.`;
        expect({ text, passes: await passesUnchanged(guardrail, text) }).toEqual({
          text,
          passes: false,
        });
        expect({ text, mayMatch: guardrail.mayMatch!(text) }).toEqual({ text, mayMatch: true });
      }
    });

    it(`${name}: never rules out a text its check would change (2,000 random mixes)`, async () => {
      const random = seededRandom(name.length * 7919);
      const fragments = [...pieces.prose, ...positives];
      let ruledOut = 0;
      let found = 0;
      for (let i = 0; i < 2000; i++) {
        let text = '';
        const count = 1 + Math.floor(random() * 4);
        for (let j = 0; j < count; j++) {
          const fragment = fragments[Math.floor(random() * fragments.length)]!;
          // Cut fragments too: a value that begins or ends at the edge of a checked text.
          const from = random() < 0.3 ? Math.floor(random() * fragment.length) : 0;
          text += fragment.slice(from);
        }
        const passes = await passesUnchanged(guardrail, text);
        if (!passes) found++;
        if (!guardrail.mayMatch!(text)) {
          ruledOut++;
          expect({ text, passes }).toEqual({ text, passes: true });
        }
      }
      // Both kinds occur, so the property was exercised.
      expect(ruledOut).toBeGreaterThan(100);
      expect(found).toBeGreaterThan(100);
    });
  }

  it('has no pre-filter where the needs are unknown: pii with URL or custom patterns, contentFilter with maxLength', () => {
    expect(pii({ entities: ['URL'] }).mayMatch).toBeUndefined();
    expect(
      pii({ custom: [{ type: 'TICKET', pattern: /TICKET-[A-Z]+/g, maxLength: 20 }] }).mayMatch,
    ).toBeUndefined();
    expect(contentFilter({ maxLength: 100 }).mayMatch).toBeUndefined();
  });
});

describe('window mode with mayMatch', () => {
  const answer =
    'The team reviewed the plan and agreed on three priorities. Please send the notes before Friday, ' +
    'and reach the device at MAC de-ad-be-ef-ca-fe or dead.beef.cafe if the build fails again.';

  it('streams prose and a letters-only value exactly as generate judges them, with one pass record each', async () => {
    const output = () => [pii(), secrets(), contentFilter()];
    const model = wrapLanguageModel({
      model: modelFor(answer, cut(answer, [4])),
      middleware: guardrails({ output: output(), stream: { mode: 'window' } }),
    });
    const result = streamText({ model, prompt: 'q' });
    const parts = await readAll(result.fullStream);
    const streamed = parts.flatMap(part => (part.type === 'text-delta' ? [part.text] : []));
    const expected = (await pii().check(answer, context)) as { content: string };
    expect(streamed.join('')).toBe(expected.content);
    expect(streamed.join('')).toBe(
      'The team reviewed the plan and agreed on three priorities. Please send the notes before Friday, ' +
        'and reach the device at MAC [MAC_ADDRESS] or [MAC_ADDRESS] if the build fails again.',
    );
    expect(streamed.length).toBeGreaterThanOrEqual(4);
    const outcome = await getGuardrailOutcome(result);
    const records = outcome?.records.map(({ guardrail, status }) => ({ guardrail, status }));
    expect(records).toEqual([
      { guardrail: 'pii', status: 'modified' },
      { guardrail: 'secrets', status: 'passed' },
      { guardrail: 'content-filter', status: 'passed' },
    ]);
  });
});
