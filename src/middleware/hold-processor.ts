import type { LanguageModelV4StreamPart } from '@ai-sdk/provider';
import type { Guardrail } from '../core/types';
import type { CallGuard } from './call-guard';
import type { StreamProcessor } from './guarded-stream';

type Part = LanguageModelV4StreamPart;

/** The text-like block a part belongs to, when it is judged: `text:<id>` or `reasoning:<id>`. */
export function blockKey(
  part: Part,
  judged: (type: 'text' | 'reasoning') => boolean,
): string | undefined {
  switch (part.type) {
    case 'text-start':
    case 'text-delta':
    case 'text-end':
      return judged('text') ? `text:${part.id}` : undefined;
    case 'reasoning-start':
    case 'reasoning-delta':
    case 'reasoning-end':
      return judged('reasoning') ? `reasoning:${part.id}` : undefined;
    default:
      return undefined;
  }
}

/**
 * `hold` mode: every content part is held until the source ends and the
 * output guardrails passed; then the parts are released in their original
 * order (a modified text as one delta in place of its deltas). A blocked
 * answer is never seen, not even in part.
 */
export function holdProcessor(
  call: CallGuard,
  output: readonly Guardrail[],
  judged: (type: 'text' | 'reasoning') => boolean,
): StreamProcessor {
  const held: Part[] = [];
  const texts = new Map<string, string>();

  return {
    push(part) {
      held.push(part);
      const key = blockKey(part, judged);
      if (key !== undefined && (part.type === 'text-delta' || part.type === 'reasoning-delta')) {
        texts.set(key, (texts.get(key) ?? '') + part.delta);
      } else if (key !== undefined && !texts.has(key)) {
        texts.set(key, '');
      }
      return { parts: [] };
    },

    async end(usage) {
      const replacements = new Map<string, string>();
      for (const [key, text] of texts) {
        const checked = await call.checkOutput(output, text, usage ? { usage } : {});
        if (checked.trip) return { parts: [], trip: checked.trip };
        if (checked.content !== text) replacements.set(key, checked.content);
      }
      if (replacements.size === 0) return { parts: held };
      const parts: Part[] = [];
      const written = new Set<string>();
      for (const part of held) {
        const key = blockKey(part, judged);
        const replacement = key === undefined ? undefined : replacements.get(key);
        if (key === undefined || replacement === undefined) {
          parts.push(part);
          continue;
        }
        const isDelta = part.type === 'text-delta' || part.type === 'reasoning-delta';
        const isEnd = part.type === 'text-end' || part.type === 'reasoning-end';
        if ((isDelta || isEnd) && !written.has(key)) {
          written.add(key);
          if (replacement.length > 0) {
            parts.push({
              type:
                part.type === 'text-delta' || part.type === 'text-end'
                  ? 'text-delta'
                  : 'reasoning-delta',
              id: part.id,
              delta: replacement,
            });
          }
        }
        if (!isDelta) parts.push(part);
      }
      return { parts };
    },

    close() {
      return [];
    },
  };
}
