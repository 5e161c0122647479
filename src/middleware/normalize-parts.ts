import type { LanguageModelV4StreamPart } from '@ai-sdk/provider';

type Part = LanguageModelV4StreamPart;

/** A stream of parts normalised per text or reasoning block. */
export interface PartNormalizer {
  /** The well-formed parts that stand for `part` (none, it, or a synthesised start and it). */
  push(part: Part): Part[];
  /**
   * True when `part` is a delta of an open block: it stands for itself, and
   * `push` need not be asked (no array per delta on the hot path).
   */
  isOpenDelta(part: Part): boolean;
}

/**
 * Makes text and reasoning blocks well formed before any stream mode sees
 * them, so every mode judges the same text: a delta with no open block opens
 * one (a delta after its block's end starts a new block, judged like any
 * other), a repeated start of an open block is dropped (the block goes on,
 * its text is kept), and an end with no open block is dropped. Without this,
 * a provider's malformed stream could slip a delta past a mode that judges
 * blocks, or make one mode forget text that another judged.
 */
export function partNormalizer(): PartNormalizer {
  // Open blocks by id, one set per block type (no key built per delta).
  const openText = new Set<string>();
  const openReasoning = new Set<string>();
  // The id of the last text delta found open: the next delta most likely has it too.
  let lastOpenText: string | undefined;
  return {
    isOpenDelta(part) {
      if (part.type === 'text-delta') {
        if (part.id === lastOpenText) return true;
        if (!openText.has(part.id)) return false;
        lastOpenText = part.id;
        return true;
      }
      if (part.type === 'reasoning-delta') return openReasoning.has(part.id);
      return false;
    },
    push(part) {
      switch (part.type) {
        case 'text-start':
        case 'reasoning-start': {
          const open = part.type === 'text-start' ? openText : openReasoning;
          if (open.has(part.id)) return [];
          open.add(part.id);
          return [part];
        }
        case 'text-delta':
        case 'reasoning-delta': {
          const open = part.type === 'text-delta' ? openText : openReasoning;
          if (open.has(part.id)) return [part];
          open.add(part.id);
          const startType = part.type === 'text-delta' ? 'text-start' : 'reasoning-start';
          return [{ type: startType, id: part.id } as Part, part];
        }
        case 'text-end':
        case 'reasoning-end': {
          const open = part.type === 'text-end' ? openText : openReasoning;
          if (part.type === 'text-end' && part.id === lastOpenText) lastOpenText = undefined;
          if (!open.delete(part.id)) return [];
          return [part];
        }
        default:
          return [part];
      }
    },
  };
}
