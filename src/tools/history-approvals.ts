/**
 * Whether the AI SDK runs the call `toolCallId` because the history it was
 * given approves it (a `tool-approval-response` with `approved: true` in the
 * last message, a `tool` message, answering a `tool-approval-request` for
 * that call): the calls it runs before the first step, with the messages of
 * the history as `execute`'s `messages`. Mirrors the SDK's
 * `collectToolApprovals` (ai@6 and ai@7): the last request of an approval id
 * counts, the first response naming a call decides it, and a call with a
 * result in that message already is not run again. A call the model makes in
 * a step is never in the messages its `execute` gets (they end before the
 * response that holds it), so it is not taken for one. Linear in the
 * messages; a malformed history answers false (the SDK refuses it first).
 */
export function approvedInHistory(toolCallId: string, messages: unknown): boolean {
  if (!Array.isArray(messages) || messages.length === 0) return false;
  const last = messages[messages.length - 1] as { role?: unknown; content?: unknown } | null;
  if (last?.role !== 'tool' || !Array.isArray(last.content)) return false;
  const requested = new Map<unknown, unknown>();
  for (const message of messages as Array<{ role?: unknown; content?: unknown } | null>) {
    if (message?.role !== 'assistant' || !Array.isArray(message.content)) continue;
    for (const part of message.content as Array<Record<string, unknown> | null>) {
      if (part?.type === 'tool-approval-request') requested.set(part.approvalId, part.toolCallId);
    }
  }
  const parts = last.content as Array<Record<string, unknown> | null>;
  for (const part of parts) {
    if (part?.type === 'tool-result' && part.toolCallId === toolCallId) return false;
  }
  for (const part of parts) {
    if (part?.type !== 'tool-approval-response') continue;
    if (requested.get(part.approvalId) !== toolCallId) continue;
    return Boolean(part.approved);
  }
  return false;
}
