import {
  convertToModelMessages,
  createUIMessageStreamResponse,
  isStepCount,
  streamText,
  toUIMessageStream,
} from 'ai';
import { type GuardrailOutcome, guardrailOutcomeOf, mergeGuardrailOutcomes } from 'ai-guardrails';
import { type ChatMessage, withoutBlockedTurns } from '../../../lib/chat-message';
import { readChatRequest } from '../../../lib/chat-request';
import { model, tools } from '../../../lib/guarded-chat';

export async function POST(request: Request) {
  // The client owns the body: capped, validated, and only `messages` is read.
  const messages = await readChatRequest(request, tools);
  if (messages instanceof Response) return messages;

  // One outcome per step (a tool loop has several); the message shows them all.
  const steps: GuardrailOutcome[] = [];
  const result = streamText({
    model,
    tools,
    // A blocked turn would block again (every user text is judged): leave it out.
    messages: await convertToModelMessages(withoutBlockedTurns(messages)),
    stopWhen: isStepCount(3),
  });

  return createUIMessageStreamResponse({
    stream: toUIMessageStream<typeof tools, ChatMessage>({
      stream: result.stream,
      tools,
      originalMessages: messages,
      // The middleware reports its outcome in each step's provider metadata;
      // forward it so the page can show what was blocked or redacted.
      messageMetadata: ({ part }) => {
        if (part.type !== 'finish-step') return undefined;
        const outcome = guardrailOutcomeOf(part.providerMetadata);
        if (!outcome) return undefined;
        steps.push(outcome);
        return { guardrails: mergeGuardrailOutcomes(steps) };
      },
    }),
  });
}
