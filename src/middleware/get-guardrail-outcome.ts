import type { SharedV4ProviderMetadata } from '@ai-sdk/provider';
import { readingCallerArgument } from '../core/caller-values';
import { mergeOutcomes, outcomeOf } from '../core/outcome';
import type { GuardrailOutcome } from '../core/types';
import { collectToolCallRecords } from '../tools/collect-tool-records';
import { errorTextRecordsOf, modelOutputRecordsOf } from '../tools/tool-call-records';
import { GUARDRAILS_METADATA_KEY } from './blocked-response';

type MaybePromise<T> = T | PromiseLike<T>;

/** A step or a single call's result: anything carrying `providerMetadata`. */
export interface GuardrailOutcomeStep {
  providerMetadata?: MaybePromise<SharedV4ProviderMetadata | undefined>;
}

/** A `generateText` / `streamText` result: its steps (awaited when a promise). */
export interface GuardrailOutcomeRun {
  steps: MaybePromise<readonly GuardrailOutcomeStep[]>;
  /**
   * AI SDK 7's messages of the whole run, read for the calls it ran before
   * the first step (approved calls of the history).
   */
  responseMessages?: MaybePromise<readonly unknown[] | undefined>;
}

function isOutcome(value: unknown): value is GuardrailOutcome {
  return (
    value != null &&
    typeof value === 'object' &&
    typeof (value as GuardrailOutcome).status === 'string' &&
    Array.isArray((value as GuardrailOutcome).records)
  );
}

/**
 * The guardrail outcome the middleware put in one call's or step's provider
 * metadata (`providerMetadata.guardrails`), typed; `undefined` when there is
 * none. Synchronous, for callbacks that receive a step's parts, such as
 * `toUIMessageStream`'s `messageMetadata` (`part.providerMetadata` of a
 * `finish-step` part).
 */
export function guardrailOutcomeOf(
  providerMetadata: SharedV4ProviderMetadata | undefined,
): GuardrailOutcome | undefined {
  return readingCallerArgument('guardrailOutcomeOf', 'providerMetadata', () =>
    outcomeIn(providerMetadata),
  );
}

/** `guardrailOutcomeOf`, unguarded: its callers guard the reading. */
function outcomeIn(
  providerMetadata: SharedV4ProviderMetadata | undefined,
): GuardrailOutcome | undefined {
  const outcome = providerMetadata?.[GUARDRAILS_METADATA_KEY];
  return isOutcome(outcome) ? outcome : undefined;
}

/**
 * A stretch of reading `getGuardrailOutcome`'s argument (between its awaits):
 * a getter or a Proxy trap that throws is a TypeError naming it by kind.
 */
const readArgument = <T>(read: () => T): T =>
  readingCallerArgument('getGuardrailOutcome', 'its argument', read);

async function outcomeOfStep(step: GuardrailOutcomeStep): Promise<GuardrailOutcome | undefined> {
  const { value: metadata } = await settled(readArgument(() => step.providerMetadata));
  return readArgument(() => outcomeIn(metadata));
}

/**
 * `await value`, its `then` read inside a guarded stretch (round 42: the
 * `await` read it outside, and a `then` getter that threw sent the caller's
 * error out as it was, message and all): a getter that throws is the
 * TypeError by kind. A `then` method that throws or rejects is a rejection,
 * passed on as the run's own error. The value comes boxed: a promise
 * resolved with it would read its `then` again.
 */
function settled<T>(value: MaybePromise<T>): Promise<{ value: T }> {
  const then = readArgument(() =>
    isObject(value) ? (value as { then?: unknown }).then : undefined,
  );
  if (typeof then !== 'function') return Promise.resolve({ value: value as T });
  return new Promise((resolve, reject) => {
    let done = false;
    const onValue = (result: unknown) => {
      if (done) return;
      done = true;
      try {
        settled(result as T).then(resolve, reject);
      } catch (error) {
        reject(error);
      }
    };
    then.call(value, onValue, (error: unknown) => {
      if (done) return;
      done = true;
      reject(error);
    });
  });
}

function isObject(value: unknown): value is object {
  return value !== null && (typeof value === 'object' || typeof value === 'function');
}

/** A wrong argument (a JavaScript caller, a value typed as any): say what was expected, not a TypeError from deep inside. */
function notAResult(what: string, value: unknown, expected?: string): TypeError {
  const received = value === null ? 'null' : Array.isArray(value) ? 'an array' : typeof value;
  return new TypeError(
    `getGuardrailOutcome: ${what} must be ${expected ?? 'a generateText / streamText result or one of its steps'}, received ${received}`,
  );
}

/**
 * The guardrail outcome (`{ status, records }`) of a `generateText` or
 * `streamText` result (all its steps, awaited as needed) or of one step.
 * `status` is `'blocked'` when any step tripped, `'modified'` when any
 * guardrail modified something, else `'passed'`. Resolves to `undefined`
 * when nothing in it went through `guardrails()` or guarded tools.
 * Records come step by step: each step's model-call records, then those of
 * the guarded tools it called (docs/middleware.md, "Order of records").
 */
export async function getGuardrailOutcome(
  resultOrStep: GuardrailOutcomeRun | GuardrailOutcomeStep,
): Promise<GuardrailOutcome | undefined> {
  if (!isObject(resultOrStep)) throw notAResult('its argument', resultOrStep);
  // Read once: `steps` was read twice, and `in` asked twice.
  const isRun = readArgument(() => 'steps' in resultOrStep);
  const givenSteps = isRun
    ? readArgument(() => (resultOrStep as GuardrailOutcomeRun).steps)
    : undefined;
  const steps: readonly GuardrailOutcomeStep[] =
    givenSteps !== undefined
      ? (await settled(givenSteps)).value
      : [resultOrStep as GuardrailOutcomeStep];
  if (!Array.isArray(steps)) throw notAResult('its steps', steps, 'an array of steps');
  const outcomes: GuardrailOutcome[] = [];
  const toolCallsSeen = new Set<unknown>();
  if (isRun) {
    // Calls approved in the history the client sent back run before the
    // first step, and their records are in no step: they come first.
    const before = await recordsBeforeFirstStep(resultOrStep as GuardrailOutcomeRun);
    for (const found of before) {
      // By the call's list of records, as collectToolCallRecords keys them: an
      // id the client chose may be the id of a call the model makes next.
      if (toolCallsSeen.has(found.records.records)) continue;
      toolCallsSeen.add(found.records.records);
      outcomes.push(outcomeOf(found.records.records, found.records.tripped));
    }
  }
  for (const step of readArgument(() => [...steps])) {
    if (!isObject(step)) throw notAResult('a step', step, 'an object');
    const outcome = await outcomeOfStep(step);
    if (outcome) outcomes.push(outcome);
    // Tool guardrails' records are kept with each tool call, not in provider
    // metadata. The step's tools ran after its model call and before the
    // next step's: their records go between the two.
    const tools = readArgument(() =>
      collectToolCallRecords([step] as Parameters<typeof collectToolCallRecords>[0], toolCallsSeen),
    );
    if (tools.records.length > 0) outcomes.push(outcomeOf(tools.records, tools.tripped));
  }
  return outcomes.length > 0 ? mergeOutcomes(outcomes) : undefined;
}

/**
 * The records of the guarded calls the AI SDK ran before a run's first step
 * (the approved calls of the history a client sent back, `needsApproval`):
 * their results are only in the tool message that starts
 * `responseMessages`, whose outputs the wrapper made (`toModelOutput`).
 */
async function recordsBeforeFirstStep(run: GuardrailOutcomeRun): Promise<
  Array<{
    toolCallId: unknown;
    records: NonNullable<ReturnType<typeof modelOutputRecordsOf>>;
  }>
> {
  let messages: readonly unknown[] | undefined;
  try {
    const all = await run.responseMessages;
    messages = Array.isArray(all) ? all : undefined;
  } catch {
    return []; // a run that failed: its steps say what is known
  }
  const found: Array<{
    toolCallId: unknown;
    records: NonNullable<ReturnType<typeof modelOutputRecordsOf>>;
  }> = [];
  readArgument(() => {
    for (const message of messages ?? []) {
      const { role, content } = (message ?? {}) as { role?: unknown; content?: unknown };
      if (role !== 'tool') break; // the first step's messages start here
      if (!Array.isArray(content)) continue;
      for (const part of content as Array<{
        type?: unknown;
        toolCallId?: unknown;
        output?: unknown;
      }>) {
        if (part?.type !== 'tool-result') continue;
        const records =
          modelOutputRecordsOf(part.output) ?? errorTextRecordsOf(part.toolCallId, part.output);
        if (records) found.push({ toolCallId: part.toolCallId, records });
      }
    }
  });
  return found;
}
