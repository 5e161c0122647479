import { generateText, streamText, wrapLanguageModel } from 'ai';
import { MockLanguageModelV4 } from 'ai/test';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import {
  generateResult,
  guardContext,
  streamOf,
  textParts,
  withoutTiming,
} from '../../../../test/helpers';
import { buildGuardrailsConfig } from '../../../config/load-guardrails-config';
import { GuardrailFailClosedError } from '../../../core/chain';
import type { GuardrailEvent } from '../../../core/types';
import { getGuardrailOutcome } from '../../../middleware/get-guardrail-outcome';
import { guardrails } from '../../../middleware/guardrails-middleware';
import { findPiiWithScopedModel } from '../find-pii';
import { findPii } from '../find-pii-bundled';
import { pii } from '../pii';
import { bundledNerModel } from './bundled-ner-model';
import type { NerModel } from './ner-model';
import { NerModelLoadError, setNerModelLoader } from './ner-model-loader';

const userText = 'Please forward this to Grace Okafor in accounting.';
const redactedText = 'Please forward this to [PERSON] in accounting.';

/** The prompt of one user text, as the model receives it. */
const userPrompt = (text: string) => [{ role: 'user', content: [{ type: 'text', text }] }];

/** How often the model was loaded, through the shipped loader (the real `import()` of the chunk). */
let loads = 0;
/** The loader of the tests that fail: rejects, once per call. */
const failingLoader = () => {
  loads++;
  return Promise.reject(new Error('chunk lazy-ner-model-4VPPBNWJ.js failed to load'));
};

beforeEach(async () => {
  loads = 0;
  // The shipped loader (`import('./lazy-ner-model')`), counted, with nothing loaded yet.
  const { lazyNerModel } = await import('./lazy-ner-model');
  setNerModelLoader(() => {
    loads++;
    return import('./lazy-ner-model').then(() => lazyNerModel());
  });
});

afterEach(() => setNerModelLoader());

describe('pii() loads the tagger the first time a check needs it', () => {
  it('generateText: the first call loads it once, then redacts the name', async () => {
    const model = new MockLanguageModelV4({ doGenerate: async () => generateResult('Done.') });
    const guarded = wrapLanguageModel({
      model,
      middleware: guardrails({ input: [pii({ entities: ['PERSON'] })] }),
    });
    expect(loads).toBe(0);
    const result = await generateText({ model: guarded, prompt: userText });
    expect(loads).toBe(1);
    expect(model.doGenerateCalls[0]!.prompt).toEqual(userPrompt(redactedText));
    expect(result.text).toBe('Done.');
    expect(withoutTiming((await getGuardrailOutcome(result))?.records)).toEqual([
      {
        guardrail: 'pii',
        kind: 'input',
        status: 'modified',
        info: { types: ['PERSON'], spans: [{ type: 'PERSON', start: 23, end: 35 }] },
      },
    ]);
    // Loaded: the next check is synchronous, and loads nothing again.
    const again = pii({ entities: ['PERSON'] }).check(userText, guardContext('input'));
    expect(again).not.toBeInstanceOf(Promise);
    expect(again).toEqual({
      action: 'modify',
      content: redactedText,
      info: { types: ['PERSON'], spans: [{ type: 'PERSON', start: 23, end: 35 }] },
    });
    expect(loads).toBe(1);
  });

  it('streamText (window): the first window waits for the load; exact text parts and record', async () => {
    const deltas = ['Sent to Grace ', 'Oka', 'for and to Ada', ' Lovelace', ' today.'];
    const model = new MockLanguageModelV4({ doStream: async () => streamOf(textParts(deltas)) });
    const result = streamText({
      model: wrapLanguageModel({
        model,
        middleware: guardrails({
          output: [pii({ entities: ['PERSON'] })],
          stream: { mode: 'window' },
        }),
      }),
      prompt: 'Who got it?',
    });
    const texts: string[] = [];
    for await (const part of result.fullStream)
      if (part.type === 'text-delta') texts.push(part.text);
    expect(texts).toEqual(['Sent to [PERSON] and to [PERSON] today.']);
    expect(withoutTiming((await getGuardrailOutcome(result))?.records)).toEqual([
      {
        guardrail: 'pii',
        kind: 'output',
        status: 'modified',
        info: {
          types: ['PERSON'],
          spans: [
            { type: 'PERSON', start: 8, end: 20 },
            { type: 'PERSON', start: 28, end: 40 },
          ],
        },
      },
    ]);
    expect(loads).toBe(1);
  });

  it('concurrent first checks share one load', async () => {
    const guardrail = pii({ entities: ['PERSON', 'LOCATION'] });
    const checks = [
      guardrail.check(userText, guardContext('input')),
      guardrail.check('Grace Okafor lives in Lagos.', guardContext('input')),
      pii({ entities: 'all' }).check('Write to Grace Okafor.', guardContext('input')),
    ];
    for (const check of checks) expect(check).toBeInstanceOf(Promise);
    expect(await Promise.all(checks)).toEqual([
      {
        action: 'modify',
        content: redactedText,
        info: { types: ['PERSON'], spans: [{ type: 'PERSON', start: 23, end: 35 }] },
      },
      {
        action: 'modify',
        content: '[PERSON] lives in [LOCATION].',
        info: {
          types: ['PERSON', 'LOCATION'],
          spans: [
            { type: 'PERSON', start: 0, end: 12 },
            { type: 'LOCATION', start: 22, end: 27 },
          ],
        },
      },
      {
        action: 'modify',
        content: 'Write to [PERSON].',
        info: { types: ['PERSON'], spans: [{ type: 'PERSON', start: 9, end: 21 }] },
      },
    ]);
    expect(loads).toBe(1);
  });

  it('a config entry (type pii with entities) loads it too', async () => {
    const model = new MockLanguageModelV4({ doGenerate: async () => generateResult('Done.') });
    const { middleware } = buildGuardrailsConfig({
      input: [{ type: 'pii', entities: ['PERSON', 'EMAIL_ADDRESS'] }],
    });
    const result = await generateText({
      model: wrapLanguageModel({ model, middleware }),
      prompt: `${userText} Mail grace@example.com.`,
    });
    expect(model.doGenerateCalls[0]!.prompt).toEqual(
      userPrompt(`${redactedText} Mail [EMAIL_ADDRESS].`),
    );
    expect(result.text).toBe('Done.');
    expect(loads).toBe(1);
  });

  it('without a tagged type it never loads, and checks synchronously', () => {
    const verdict = pii({ entities: ['EMAIL_ADDRESS'] }).check(
      `${userText} Mail grace@example.com.`,
      guardContext('input'),
    );
    expect(verdict).toEqual({
      action: 'modify',
      content: `${userText} Mail [EMAIL_ADDRESS].`,
      info: { types: ['EMAIL_ADDRESS'], spans: [{ type: 'EMAIL_ADDRESS', start: 56, end: 73 }] },
    });
    expect(pii().check(userText, guardContext('input'))).toEqual({ action: 'allow' });
    expect(loads).toBe(0);
  });

  it('findPii finds names synchronously with the bundled weights, loading nothing', () => {
    expect(findPii(userText, { entities: ['PERSON'] })).toEqual([
      { type: 'PERSON', start: 23, end: 35 },
    ]);
    expect(loads).toBe(0);
  });
});

describe('a failed load fails closed', () => {
  it('generateText: a typed error record, the model never called, even with onError allow', async () => {
    setNerModelLoader(failingLoader);
    for (const onError of [undefined, 'allow'] as const) {
      const model = new MockLanguageModelV4({ doGenerate: async () => generateResult('Done.') });
      const events: GuardrailEvent[] = [];
      const guardrail = pii({ entities: ['PERSON'] });
      if (onError) guardrail.onError = onError;
      const guarded = wrapLanguageModel({
        model,
        middleware: guardrails({ input: [guardrail], onEvent: event => events.push(event) }),
      });
      const result = await generateText({ model: guarded, prompt: userText });
      expect(model.doGenerateCalls).toHaveLength(0);
      expect(result.text).toBe("Sorry, I can't help with that.");
      const outcome = await getGuardrailOutcome(result);
      expect(outcome?.status).toBe('blocked');
      expect(withoutTiming(outcome?.records)).toEqual([
        {
          guardrail: 'pii',
          kind: 'input',
          status: 'error',
          reason:
            'pii: the named-entity model could not be loaded (chunk lazy-ner-model-4VPPBNWJ.js failed to load)',
        },
      ]);
      // The name is in no record or event.
      expect(JSON.stringify(outcome)).not.toContain('Okafor');
      expect(JSON.stringify(events)).not.toContain('Okafor');
    }
    // Each call tried again (a failed load is not kept).
    expect(loads).toBe(2);
  });

  it('the check rejects with NerModelLoadError (cause kept); the next check loads again', async () => {
    setNerModelLoader(failingLoader);
    const guardrail = pii({ entities: ['PERSON'] });
    const first = [
      guardrail.check(userText, guardContext('input')),
      guardrail.check(userText, guardContext('input')),
    ];
    for (const check of first) {
      const error = await Promise.resolve(check).catch((caught: unknown) => caught);
      expect(error).toBeInstanceOf(NerModelLoadError);
      expect(error).toBeInstanceOf(GuardrailFailClosedError);
      expect((error as Error).cause).toEqual(
        new Error('chunk lazy-ner-model-4VPPBNWJ.js failed to load'),
      );
    }
    // Concurrent checks shared the failed load.
    expect(loads).toBe(1);
    const { lazyNerModel } = await import('./lazy-ner-model');
    let model: NerModel | undefined;
    setNerModelLoader(async () => {
      model = lazyNerModel();
      return model;
    });
    expect(await guardrail.check(userText, guardContext('input'))).toEqual({
      action: 'modify',
      content: redactedText,
      info: { types: ['PERSON'], spans: [{ type: 'PERSON', start: 23, end: 35 }] },
    });
    // The model pii() loaded is the one findPii tags with: the same weights, decoded once.
    expect(model).toBe(bundledNerModel());
  });

  it('a find asked for a tagged type with no model given throws NerModelLoadError', () => {
    expect(() => findPiiWithScopedModel(userText, { entities: ['PERSON'] })).toThrow(
      new NerModelLoadError('pii: no named-entity model was loaded for this check'),
    );
    // Without a tagged type no model is read.
    expect(findPiiWithScopedModel('Mail grace@example.com.')).toEqual([
      { type: 'EMAIL_ADDRESS', start: 5, end: 22 },
    ]);
  });
});
