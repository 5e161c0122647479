import type { UIMessage } from 'ai';
import type { GuardrailOutcome } from 'ai-guardrails';

/** What the page reads from each assistant message's metadata: the guardrail outcome of the turn. */
export type ChatMetadata = { guardrails?: GuardrailOutcome };

/** A chat message of this app. */
export type ChatMessage = UIMessage<ChatMetadata>;

/**
 * The history to send back to the model: every turn except those a guardrail
 * blocked (the blocked answer and the user messages it answered). The
 * middleware judges every user text the client sends, since the client owns
 * the history, and a text it blocked once blocks again; so a chat that keeps
 * a blocked turn in its history would be blocked on every later turn.
 * Dropping is safe whatever the client claims: a turn not marked blocked is
 * judged (or its cached verdict applied) like any other.
 */
export function withoutBlockedTurns(messages: ChatMessage[]): ChatMessage[] {
  const kept: ChatMessage[] = [];
  for (const message of messages) {
    if (message.role === 'assistant' && message.metadata?.guardrails?.status === 'blocked') {
      while (kept.length > 0 && kept[kept.length - 1]!.role === 'user') kept.pop();
      continue;
    }
    kept.push(message);
  }
  return kept;
}
