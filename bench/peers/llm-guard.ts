/**
 * `llm-guard` (npm): `LLMGuard.validate` with only the guards of the task
 * enabled: its regex PII guard, and its prompt-injection guard alone and with
 * its jailbreak guard. It has no secret detector.
 */
import { LLMGuard } from 'llm-guard';
import { installedVersion, type SystemAdapter, spansFromValues } from './adapter';

const off = {
  pii: false,
  jailbreak: false,
  profanity: false,
  promptInjection: false,
  relevance: false,
  toxicity: false,
} as const;

const llmGuardTypes: Record<string, string> = {
  email: 'EMAIL_ADDRESS',
  phone: 'PHONE_NUMBER',
  ssn: 'US_SSN',
  credit_card: 'CREDIT_CARD',
  ip_address: 'IP_ADDRESS',
};

/** `llm-guard` PII and injection guards. */
export function llmGuard(): SystemAdapter {
  const piiGuard = new LLMGuard({ ...off, pii: true });
  const injectionOnly = new LLMGuard({ ...off, promptInjection: true });
  const injectionAndJailbreak = new LLMGuard({ ...off, promptInjection: true, jailbreak: true });
  const toxicityOnly = new LLMGuard({ ...off, toxicity: true });
  const injection = [
    {
      label: 'promptInjection',
      call: 'new LLMGuard({ promptInjection: true, others false }).validate(text)',
      async detect(text: string) {
        return { flagged: !(await injectionOnly.validate(text)).isValid };
      },
    },
    {
      label: 'promptInjection+jailbreak',
      call: 'new LLMGuard({ promptInjection: true, jailbreak: true, others false }).validate(text)',
      async detect(text: string) {
        return { flagged: !(await injectionAndJailbreak.validate(text)).isValid };
      },
    },
  ];
  return {
    system: 'llm-guard',
    version: installedVersion('llm-guard'),
    detectors: {
      pii: [
        {
          label: '',
          call: 'new LLMGuard({ pii: true, others false }).validate(text)',
          async detect(text) {
            const response = await piiGuard.validate(text);
            const found = response.results.flatMap(result =>
              (result.details ?? []).flatMap(detail => {
                const type = /^Found ([a-z_]+):/.exec(detail.message)?.[1];
                return type && detail.matched
                  ? [{ type: llmGuardTypes[type] ?? type, value: detail.matched }]
                  : [];
              }),
            );
            return { flagged: !response.isValid, spans: spansFromValues(text, found) };
          },
        },
      ],
      'injection-direct': injection,
      harmful: [
        {
          label: 'toxicity',
          call: 'new LLMGuard({ toxicity: true, others false }).validate(text) (offline word list)',
          async detect(text: string) {
            return { flagged: !(await toxicityOnly.validate(text)).isValid };
          },
        },
      ],
      'injection-indirect': injection,
    },
    unavailable: { secrets: 'no secret detector' },
    notes: [
      'PII results carry the matched values but not their offsets; every occurrence of a reported value counts as a predicted span.',
    ],
  };
}
