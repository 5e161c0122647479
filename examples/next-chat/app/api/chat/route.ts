import {
  convertToModelMessages,
  createUIMessageStreamResponse,
  isStepCount,
  streamText,
  toUIMessageStream,
} from 'ai';
import type { GuardrailOutcome } from 'ai-guardrails';
import type { ChatMessage } from '../../../lib/chat-message';
import { model, tools } from '../../../lib/guarded-chat';

const SEVERITY = { passed: 0, modified: 1, blocked: 2 } as const;

/** The outcome of a whole turn: every step's records; the most severe status. */
function mergeOutcomes(outcomes: GuardrailOutcome[]): GuardrailOutcome {
  return {
    status: outcomes.reduce<GuardrailOutcome['status']>(
      (status, outcome) => (SEVERITY[outcome.status] > SEVERITY[status] ? outcome.status : status),
      'passed',
    ),
    records: outcomes.flatMap(outcome => outcome.records),
  };
}

export async function POST(request: Request) {
  const { messages }: { messages: ChatMessage[] } = await request.json();

  // One outcome per step (a tool loop has several); the message shows them all.
  const steps: GuardrailOutcome[] = [];
  const result = streamText({
    model,
    tools,
    messages: await convertToModelMessages(messages),
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
        const outcome = part.providerMetadata?.guardrails as GuardrailOutcome | undefined;
        if (!outcome) return undefined;
        steps.push(outcome);
        return { guardrails: mergeOutcomes(steps) };
      },
    }),
  });
}
