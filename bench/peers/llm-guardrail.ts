/**
 * `llm_guardrail`: its bundled TF-IDF + logistic-regression models, run
 * offline. `checkInjection` is its prompt-injection model; the second variant
 * also counts its jailbreak model, as the direct set mixes both kinds.
 * It has no PII or secret detector.
 */
import { checkInjection, checkJailbreak } from 'llm_guardrail';
import { type Detector, installedVersion, type SystemAdapter } from './adapter';

/** `llm_guardrail` prompt-injection (and jailbreak) models. */
export function llmGuardrail(): SystemAdapter {
  const injection: Detector[] = [
    {
      label: 'checkInjection',
      call: 'checkInjection(text)',
      async detect(text) {
        return { flagged: (await checkInjection(text)).detected };
      },
    },
    {
      label: 'checkInjection+checkJailbreak',
      call: 'checkInjection(text) || checkJailbreak(text)',
      async detect(text) {
        const [injected, jailbreak] = await Promise.all([
          checkInjection(text),
          checkJailbreak(text),
        ]);
        return { flagged: injected.detected || jailbreak.detected };
      },
    },
  ];
  return {
    system: 'llm_guardrail',
    version: installedVersion('llm_guardrail'),
    detectors: { 'injection-direct': injection, 'injection-indirect': injection },
    unavailable: {
      pii: 'no PII detector',
      secrets: 'no secret detector',
      harmful: 'no harmful-content detector',
    },
    notes: [],
  };
}
