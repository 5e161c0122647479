/**
 * Our detectors, run the way the eval command runs them: one guardrail through
 * `runChain` (the middleware's code path), reading the record it leaves.
 */
import type { GoldSpan } from '../../src/cli/scoring';
import { runChain } from '../../src/core/chain';
import type { Guardrail, GuardrailKind } from '../../src/core/types';
import { contentFilter } from '../../src/guards/content-filter/content-filter';
import { harmfulContent } from '../../src/guards/harmful-content/harmful-content';
import { pii } from '../../src/guards/pii/pii';
import { promptInjection } from '../../src/guards/prompt-injection/prompt-injection';
import { secrets } from '../../src/guards/secrets/secrets';
import { type Detector, ownVersion, type SystemAdapter } from './adapter';

function chainDetector(call: string, guardrail: Guardrail, kind: GuardrailKind): Detector[] {
  return [
    {
      label: '',
      call,
      async detect(text) {
        const result = await runChain([guardrail], text, {
          kind,
          messages: [],
          metadata: {},
          state: new Map(),
        });
        const record = result.records[0];
        const info = record?.info as { spans?: GoldSpan[] } | undefined;
        return { flagged: record !== undefined && record.status !== 'passed', spans: info?.spans };
      },
    },
  ];
}

/** ai-guardrails (this repository's source), with the options the eval command uses. */
export function aiGuardrails(): SystemAdapter {
  return {
    system: 'ai-guardrails',
    version: `${ownVersion()} (working tree)`,
    detectors: {
      pii: chainDetector(
        "pii({ action: 'block', entities: 'all' })",
        pii({ action: 'block', entities: 'all' }),
        'input',
      ),
      secrets: chainDetector("secrets({ action: 'block' })", secrets({ action: 'block' }), 'input'),
      'injection-direct': chainDetector('promptInjection() on input', promptInjection(), 'input'),
      'injection-indirect': chainDetector(
        "promptInjection() on tool_output (mode 'indirect')",
        promptInjection(),
        'tool_output',
      ),
      harmful: [
        ...chainDetector('harmfulContent() on input', harmfulContent(), 'input').map(d => ({
          ...d,
          label: 'harmfulContent',
        })),
        ...chainDetector(
          'contentFilter() on input (default blocklist)',
          contentFilter(),
          'input',
        ).map(d => ({ ...d, label: 'contentFilter' })),
      ],
    },
    unavailable: {},
    notes: [],
  };
}
