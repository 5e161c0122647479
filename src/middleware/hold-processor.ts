import type { Guardrail } from '../core/types';
import type { CallGuard } from './call-guard';
import {
  blockKey,
  HELD,
  type JudgedBlocks,
  type StreamPart as Part,
  type StreamProcessor,
} from './stream-processor';

/**
 * `hold` mode: every content part is held until the source ends and the
 * output guardrails passed; then the parts are released in their original
 * order (a modified text as one delta in place of its deltas). A blocked
 * answer is never seen, not even in part.
 */
export function holdProcessor(
  call: CallGuard,
  output: readonly Guardrail[],
  judged: JudgedBlocks,
): StreamProcessor {
  // Each held part with the block it belongs to: the normaliser may open a
  // block with an id that an ended block already used, and each block is
  // judged on its own, as window mode and generate judge it.
  const held: { part: Part; block: string | undefined }[] = [];
  const texts = new Map<string, string>();
  const openBlocks = new Map<string, string>();
  let blocks = 0;

  function blockOf(part: Part): string | undefined {
    const key = blockKey(part, judged);
    if (key === undefined) return undefined;
    let block = openBlocks.get(key);
    if (block === undefined) {
      block = `${key}#${blocks++}`;
      openBlocks.set(key, block);
      texts.set(block, '');
    }
    if (part.type === 'text-end' || part.type === 'reasoning-end') openBlocks.delete(key);
    return block;
  }

  return {
    push(part) {
      const block = blockOf(part);
      if (block !== undefined && (part.type === 'text-delta' || part.type === 'reasoning-delta')) {
        // An empty delta of a judged block carries nothing (no text, no
        // metadata): dropped, as window mode drops it and streamText does,
        // whether or not the block's text is changed.
        if (part.delta.length === 0 && part.providerMetadata === undefined) return HELD;
        texts.set(block, texts.get(block) + part.delta);
      }
      held.push({ part, block });
      return HELD;
    },

    async end(usage) {
      const replacements = new Map<string, string>();
      for (const [block, text] of texts) {
        const checked = await call.checkOutput(output, text, usage ? { usage } : {});
        if (checked.trip) return { parts: [], trip: checked.trip };
        if (checked.content !== text) replacements.set(block, checked.content);
      }
      if (replacements.size === 0) return { parts: held.map(({ part }) => part) };
      const parts: Part[] = [];
      const written = new Set<string>();
      for (const { part, block } of held) {
        const replacement = block === undefined ? undefined : replacements.get(block);
        if (block === undefined || replacement === undefined) {
          parts.push(part);
          continue;
        }
        const isDelta = part.type === 'text-delta' || part.type === 'reasoning-delta';
        const isEnd = part.type === 'text-end' || part.type === 'reasoning-end';
        if ((isDelta || isEnd) && !written.has(block)) {
          written.add(block);
          if (replacement.length > 0) {
            parts.push({
              type:
                part.type === 'text-delta' || part.type === 'text-end'
                  ? 'text-delta'
                  : 'reasoning-delta',
              id: (part as { id: string }).id,
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
