import type {
  LanguageModelV4StreamPart,
  LanguageModelV4Usage,
  SharedV4ProviderMetadata,
} from '@ai-sdk/provider';
import type { GuardrailRecord } from '../core/types';
import { withoutAnswerQuotes } from './quoting-metadata';

/**
 * The contract between `guardStream` (which reads the model stream, waits
 * for parallel input guardrails and writes the envelope) and the three
 * stream modes (`hold`, `window`, `passthrough`, one processor each), and
 * the helpers they share. The processors import only this module, never
 * each other or `guardStream`.
 */

/** One part of a language-model stream. */
export type StreamPart = LanguageModelV4StreamPart;

/** How streamed responses are enforced. */
export type StreamMode = 'hold' | 'window' | 'passthrough';

/** Whether a text-like block of this type is judged by the output guardrails. */
export type JudgedBlocks = (type: 'text' | 'reasoning') => boolean;

/** What a processor decided: parts to release now, and possibly a trip. */
export interface ProcessorStep {
  parts: StreamPart[];
  trip?: GuardrailRecord;
  /** True when the trip cannot withhold anything (passthrough): the parts are released and the outcome reported. */
  reportOnly?: boolean;
}

/**
 * What a held delta releases: nothing. Shared and frozen, so a processor
 * returns it without allocating and `guardStream` recognises it by identity
 * (the one comparison a held delta costs the read loop).
 */
export const HELD: ProcessorStep = Object.freeze({
  parts: Object.freeze([]) as unknown as StreamPart[],
});

/**
 * A stream mode: receives the content parts of a response in order (already
 * normalised: every delta inside its block) and decides what to release.
 * The envelope (stream-start, response-metadata, finish) is handled by
 * `guardStream`.
 */
export interface StreamProcessor {
  push(part: StreamPart): Promise<ProcessorStep> | ProcessorStep;
  /** The source ended: release what is left. `usage` is the finish part's, when there was one. */
  end(usage: LanguageModelV4Usage | undefined): Promise<ProcessorStep>;
  /** Parts that close what was already released (open text parts), when the response is cut short. */
  close(): StreamPart[];
}

/** The text-like block a part belongs to, when it is judged: `text:<id>` or `reasoning:<id>`. */
export function blockKey(part: StreamPart, judged: JudgedBlocks): string | undefined {
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
 * True when a delta's provider metadata cannot quote the answer: what a
 * changed response keeps of it (`withoutAnswerQuotes`) is all of it (that
 * keeps the values it keeps as they are, so the same keys are the same
 * metadata). Window mode releases such metadata with its text.
 */
export function quotesNothing(metadata: SharedV4ProviderMetadata): boolean {
  const kept = withoutAnswerQuotes(metadata);
  const providers = Object.keys(metadata);
  if (Object.keys(kept).length !== providers.length) return false;
  for (const provider of providers) {
    const entry = metadata[provider];
    if (entry === null || typeof entry !== 'object' || Array.isArray(entry)) continue;
    if (Object.keys(entry).length !== Object.keys(kept[provider]!).length) return false;
  }
  return true;
}

/**
 * A delta's provider metadata after the answer was changed or blocked: what
 * cannot quote it (`withoutAnswerQuotes`); undefined when that leaves no key
 * (the delta then says nothing and goes).
 */
export function metadataKeptOnChange(
  metadata: SharedV4ProviderMetadata,
): SharedV4ProviderMetadata | undefined {
  const kept = withoutAnswerQuotes(metadata);
  for (const entry of Object.values(kept)) {
    if (entry === null || typeof entry !== 'object' || Object.keys(entry).length > 0) return kept;
  }
  return undefined;
}
