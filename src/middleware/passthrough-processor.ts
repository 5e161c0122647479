import type { Guardrail } from '../core/types';
import type { CallGuard } from './call-guard';
import { blockKey, type JudgedBlocks, type StreamProcessor } from './stream-processor';

/**
 * `passthrough` mode: parts flow as the model writes them; the output
 * guardrails judge the finished texts and their records and outcome are
 * reported in the finish part, but no text can be withheld. (Generated files
 * and, with `toolCalls`, tool calls are judged before this processor sees
 * them, in every mode: those are withheld.)
 */
export function passthroughProcessor(
  call: CallGuard,
  output: readonly Guardrail[],
  judged: JudgedBlocks,
): StreamProcessor {
  const texts = new Map<string, string>();
  return {
    push(part) {
      const key = blockKey(part, judged);
      if (key !== undefined && (part.type === 'text-delta' || part.type === 'reasoning-delta')) {
        texts.set(key, (texts.get(key) ?? '') + part.delta);
      }
      return { parts: [part] };
    },
    async end(usage) {
      for (const text of texts.values()) {
        const checked = await call.checkOutput(output, text, usage ? { usage } : {});
        if (checked.trip) return { parts: [], trip: checked.trip, reportOnly: true };
      }
      return { parts: [] };
    },
    close() {
      return [];
    },
  };
}
