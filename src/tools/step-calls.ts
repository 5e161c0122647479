/**
 * The link that lets `guardTools(..., { stopOnTrip })` hold a streamed
 * step's calls until every call of the step is known: the `guardrails()`
 * middleware reads the model's stream and notes each `tool-call` part here
 * (by its tool call id) and when the step's calls are complete (the
 * `finish` part, or the end of the stream). A wrapped tool whose `execute`
 * starts earlier (AI SDK versions that run a call as soon as its part
 * arrives) waits for that, then for the argument checks of its siblings.
 *
 * Entries live while the step's stream is read, and `FORGET_AFTER_MS`
 * more once it ended, failed or was cancelled (the AI SDK may still be
 * handling the last parts it read ahead).
 */

/** How long a finished step's calls stay known after its stream ended. */
const FORGET_AFTER_MS = 30_000;

/** One tool call of a streamed step, as the model's stream gave it. */
export interface StreamedToolCall {
  toolCallId: string;
  toolName: string;
  /** The arguments as the model streamed them (JSON text). */
  input: string;
}

/** The tool calls of one streamed model response. */
export interface StepCalls {
  /** The calls seen so far (all of them once `complete` resolved). */
  readonly calls: StreamedToolCall[];
  /** Resolves when the response's tool calls are all known. */
  readonly complete: Promise<void>;
}

const stepsByCallId = new Map<string, StepCalls>();

/** The step a streamed tool call belongs to, while its stream is being read. */
export function streamedStepOf(toolCallId: string): StepCalls | undefined {
  return stepsByCallId.get(toolCallId);
}

/**
 * Notes the tool calls of one streamed response for `stopOnTrip` (see the
 * module comment). `toolCall` for each `tool-call` part, `complete` once
 * the calls are all known (`note` does both from the parts handed on),
 * `forget` when the stream is done with (it also completes).
 */
export function streamedStep() {
  const calls: StreamedToolCall[] = [];
  let resolve!: () => void;
  const step: StepCalls = {
    calls,
    complete: new Promise<void>(done => {
      resolve = done;
    }),
  };
  const toolCall = (toolCallId: string, toolName: string, input: string) => {
    calls.push({ toolCallId, toolName, input });
    stepsByCallId.set(toolCallId, step);
  };
  return {
    toolCall,
    complete: () => resolve(),
    /** Notes one part handed to the AI SDK: a `tool-call` part, or the `finish` part that completes the calls. */
    note(part: { type: string }) {
      if (part.type === 'tool-call') {
        const { toolCallId, toolName, input } = part as unknown as StreamedToolCall;
        if (typeof toolCallId === 'string') {
          toolCall(toolCallId, String(toolName), typeof input === 'string' ? input : '');
        }
      } else if (part.type === 'finish') {
        resolve();
      }
    },
    forget() {
      resolve();
      const timer = setTimeout(() => {
        for (const { toolCallId } of calls) {
          if (stepsByCallId.get(toolCallId) === step) stepsByCallId.delete(toolCallId);
        }
      }, FORGET_AFTER_MS);
      // A pending timer must not keep a Node process alive.
      (timer as { unref?: () => void }).unref?.();
    },
  };
}
