import { describe, expect, it } from 'vitest';
import * as main from '../src';
import * as config from '../src/config';
import { NerModelLoadError } from '../src/guards/pii/ner/ner-model-loader';
import * as redis from '../src/redis';
import * as testing from '../src/testing';

describe('public entries', () => {
  it('the main entry exports every built-in guardrail and the core API', () => {
    const expected = [
      'guardrails',
      'guardTools',
      'guardTool',
      'isGuardrailBlocked',
      'guardrailTripped',
      'getGuardrailOutcome',
      'guardrailOutcomeOf',
      'defineGuardrail',
      'allow',
      'block',
      'modify',
      'GuardrailTripwireError',
      'GuardrailConfigError',
      'NerModelLoadError',
      'HarmfulModelLoadError',
      'pii',
      'findPii',
      'secrets',
      'findSecrets',
      'invisibleText',
      'promptInjection',
      'scorePromptInjection',
      'DEFAULT_PROMPT_INJECTION_THRESHOLD',
      'DEFAULT_INDIRECT_PROMPT_INJECTION_THRESHOLD',
      'allPiiEntities',
      'expression',
      'contentFilter',
      'harmfulContent',
      'scoreHarmful',
      'DEFAULT_HARMFUL_THRESHOLD',
      'urlFilter',
      'toolPolicy',
      'outputSchema',
      'tokenBudget',
      'rateLimit',
      'llmJudge',
      'memoryStore',
    ];
    const missing = expected.filter(name => !(name in main));
    expect(missing).toEqual([]);
  });

  it('NerModelLoadError is exported by name: the class a failed model load rejects with', () => {
    expect(main.NerModelLoadError).toBe(NerModelLoadError);
    const error = new main.NerModelLoadError('pii: the named-entity model could not be loaded');
    expect(error).toBeInstanceOf(Error);
    expect(error.name).toBe('NerModelLoadError');
  });

  it('the subpath entries export their factories', () => {
    expect(typeof config.loadGuardrailsConfig).toBe('function');
    expect(typeof redis.redisStore).toBe('function');
    expect(typeof testing.scriptedModel).toBe('function');
  });
});
