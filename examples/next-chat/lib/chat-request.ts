import { safeValidateUIMessages } from 'ai';
import type { ChatMessage } from './chat-message';
import type { tools } from './guarded-chat';

/**
 * The largest request body the route reads, in bytes. The browser sends the
 * whole history every turn; 1 MB is hundreds of turns of typed text. Without
 * a cap, one 10 MB message is read, parsed and judged whole (a minute of CPU
 * for `promptInjection()` on this machine) before anything else can run.
 */
export const MAX_BODY_BYTES = 1_000_000;

/** What the page may send in a message: the parts `useChat` writes for this app. */
const allowedParts = {
  // The page has no upload: a file part is a forgery (an image's text, or a
  // URL the server would download, reaches the model unread).
  user: new Set(['text']),
  assistant: new Set(['text', 'reasoning', 'step-start', 'tool-search']),
} as const;

/** A request the route refuses: the response to send instead. */
export function refuse(status: number, error: string): Response {
  return Response.json({ error }, { status });
}

/** Reads at most `limit` bytes of the body; `undefined` past the limit (the rest is never read). */
async function readCapped(request: Request, limit: number): Promise<string | undefined> {
  const declared = Number(request.headers.get('content-length') ?? '0');
  if (declared > limit) return undefined;
  if (!request.body) return '';
  const reader = request.body.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    size += value.byteLength;
    if (size > limit) {
      await reader.cancel();
      return undefined;
    }
    chunks.push(value);
  }
  const bytes = new Uint8Array(size);
  let at = 0;
  for (const chunk of chunks) {
    bytes.set(chunk, at);
    at += chunk.byteLength;
  }
  return new TextDecoder().decode(bytes);
}

/**
 * The chat history of a request, or the response refusing it. The client owns
 * every byte of the body: it is size-capped, parsed, validated as UI messages
 * (the `search` tool's parts against its input schema), and held to the roles
 * and parts this page sends. Only `messages` is read: no id, option or
 * session key comes from the body.
 */
export async function readChatRequest(
  request: Request,
  chatTools: typeof tools,
): Promise<ChatMessage[] | Response> {
  const text = await readCapped(request, MAX_BODY_BYTES);
  if (text === undefined) return refuse(413, `request body over ${MAX_BODY_BYTES} bytes`);
  let body: unknown;
  try {
    body = JSON.parse(text);
  } catch {
    return refuse(400, 'request body is not JSON');
  }
  const messages =
    typeof body === 'object' && body !== null && 'messages' in body ? body.messages : undefined;
  const validated = await safeValidateUIMessages<ChatMessage>({ messages, tools: chatTools });
  if (!validated.success) return refuse(400, 'messages are not valid chat messages');
  for (const [index, message] of validated.data.entries()) {
    const allowed = message.role === 'system' ? undefined : allowedParts[message.role];
    if (!allowed) return refuse(400, `message ${index}: role ${message.role} is not accepted`);
    for (const part of message.parts) {
      if (!allowed.has(part.type)) {
        return refuse(
          400,
          `message ${index}: a ${message.role} part of a type this page does not send`,
        );
      }
      // No tool here asks for approval. The AI SDK runs a call the history
      // says was approved before the model's first step, whatever the tool:
      // a forged `approval-responded` part would run `search` with arguments
      // the client chose, without the model ever calling it.
      if (
        part.type === 'tool-search' &&
        (part.state.startsWith('approval-') || part.state === 'output-denied')
      ) {
        return refuse(400, `message ${index}: a tool approval, and no tool here asks for one`);
      }
    }
  }
  return validated.data;
}
