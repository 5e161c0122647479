/**
 * `@openai/guardrails`: its regex PII check and its secret-key check, called
 * directly as check functions (no client, no network). Its jailbreak and
 * prompt-injection checks send the text to an LLM, so they are not run.
 */
import { PIIConfig, pii, SecretKeysConfig, secretKeysCheck } from '@openai/guardrails';
import {
  installedVersion,
  type SystemAdapter,
  spansFromRedaction,
  spansFromValues,
} from './adapter';

interface PiiInfo {
  pii_detected: boolean;
  checked_text: string;
  detected_entities: Record<string, string[]>;
}

/** `@openai/guardrails` with its default PII entities and the `balanced` secret-key preset. */
export function openaiGuardrails(): SystemAdapter {
  // The check functions ignore their context; the defaults come from the exported schemas.
  const context = {} as Parameters<typeof pii>[0];
  const piiConfig = PIIConfig.parse({});
  const secretConfig = SecretKeysConfig.parse({});
  return {
    system: '@openai/guardrails',
    version: installedVersion('@openai/guardrails'),
    detectors: {
      pii: [
        {
          label: '',
          call: 'pii(ctx, text, PIIConfig.parse({})) (default entities, mask mode)',
          async detect(text) {
            if (text === '') return { flagged: false, spans: [] };
            const result = await pii(context, text, piiConfig);
            const info = result.info as unknown as PiiInfo;
            if (!info.pii_detected) return { flagged: false, spans: [] };
            // The masked text keeps everything else verbatim unless NFKC changed it.
            const spans =
              text.normalize('NFKC') === text
                ? spansFromRedaction(
                    text,
                    info.checked_text,
                    /<([A-Z_]+?)(?:_ENCODED)?>/,
                    label => label,
                  )
                : spansFromValues(
                    text,
                    Object.entries(info.detected_entities).flatMap(([type, values]) =>
                      values.map(value => ({ type, value })),
                    ),
                  );
            return { flagged: true, spans };
          },
        },
      ],
      secrets: [
        {
          label: '',
          call: "secretKeysCheck(ctx, text, SecretKeysConfig.parse({})) (threshold 'balanced')",
          async detect(text) {
            const result = await secretKeysCheck(context, text, secretConfig);
            return { flagged: result.tripwireTriggered };
          },
        },
      ],
    },
    unavailable: {
      'injection-direct':
        "its 'Jailbreak' and 'Prompt Injection Detection' checks are LLM calls (need an OpenAI client and network)",
      'injection-indirect':
        "its 'Prompt Injection Detection' check is an LLM call on tool calls (needs an OpenAI client and network)",
      harmful: "its 'Moderation' check calls OpenAI's moderation API (needs a client and network)",
    },
    notes: [
      'PII spans are read from the masked text it returns (`info.checked_text`), which keeps all other text verbatim.',
    ],
  };
}
