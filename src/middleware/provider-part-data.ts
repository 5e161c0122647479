import type { LanguageModelV4Content, LanguageModelV4StreamPart } from '@ai-sdk/provider';

/**
 * The provider's own per-part data of a response a guardrail changed or
 * blocked. A judged text or reasoning part's `providerMetadata` may carry
 * the part's text as the model wrote it (an annotation, an item the
 * provider stores and the next turn refers to by its id), a text part's
 * `citations` quote it (`citedText`, a source's title) and a `source`
 * part's title and metadata (a search snippet) may quote it too: each can
 * hold what a guardrail hid. They are dropped; the parts a guardrail does
 * not judge (tool calls, files, unjudged reasoning) keep theirs.
 */

type Part = LanguageModelV4Content | LanguageModelV4StreamPart;

/** Whether a text-like part of this type is judged by the output guardrails. */
export type JudgedPartType = (type: 'text' | 'reasoning') => boolean;

function judgedTypeOf(type: Part['type']): 'text' | 'reasoning' | undefined {
  switch (type) {
    case 'text':
    case 'text-start':
    case 'text-delta':
    case 'text-end':
      return 'text';
    case 'reasoning':
    case 'reasoning-start':
    case 'reasoning-delta':
    case 'reasoning-end':
      return 'reasoning';
    default:
      return undefined;
  }
}

/**
 * The part without the provider data that may quote the answer: `undefined`
 * for a `source` part (dropped whole), the part itself when it has none.
 * With `citationsToo: false` only `providerMetadata` goes (window mode's
 * text parts, released before the rest of the answer is judged).
 */
export function withoutProviderText<P extends Part>(
  part: P,
  judged: JudgedPartType,
  citationsToo = true,
): P | undefined {
  // Sources back the answer's text: they go with it when the text is judged.
  if (part.type === 'source') return citationsToo && judged('text') ? undefined : part;
  const type = judgedTypeOf(part.type);
  if (type === undefined || !judged(type)) return part;
  const hasMetadata = 'providerMetadata' in part && part.providerMetadata !== undefined;
  const hasCitations = citationsToo && 'citations' in part && part.citations !== undefined;
  if (!hasMetadata && !hasCitations) return part;
  const {
    providerMetadata: _metadata,
    citations,
    ...rest
  } = part as P & { providerMetadata?: unknown; citations?: unknown };
  return (citationsToo || citations === undefined ? rest : { ...rest, citations }) as P;
}

/** A generate result's content without the provider data that may quote the answer. */
export function contentWithoutProviderText(
  content: LanguageModelV4Content[],
  judged: JudgedPartType,
): LanguageModelV4Content[] {
  const kept: LanguageModelV4Content[] = [];
  for (const part of content) {
    const scrubbed = withoutProviderText(part, judged);
    if (scrubbed !== undefined) kept.push(scrubbed);
  }
  return kept;
}

/**
 * A tool call with the input a guardrail rewrote, without its own provider
 * data (round 36): `@ai-sdk/openai`'s `itemId` names the call the provider
 * stored as the model wrote it, and for its provider-defined and custom
 * tools with `store` the next step sends that item by reference instead of
 * the arguments as judged. The call itself when the input is unchanged.
 */
export function withRewrittenInput<P extends { input: string; providerMetadata?: unknown }>(
  call: P,
  input: string,
): P {
  if (input === call.input) return call;
  const { providerMetadata: _metadata, ...rest } = call;
  return { ...rest, input } as P;
}
