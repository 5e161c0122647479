import type { UIMessage } from 'ai';
import type { GuardrailOutcome } from 'ai-guardrails';

/** What the page reads from each assistant message's metadata: the guardrail outcome of the turn. */
export type ChatMetadata = { guardrails?: GuardrailOutcome };

/** A chat message of this app. */
export type ChatMessage = UIMessage<ChatMetadata>;
