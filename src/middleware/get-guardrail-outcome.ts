import type { SharedV4ProviderMetadata } from '@ai-sdk/provider';
import { mergeOutcomes } from '../core/outcome';
import type { GuardrailOutcome } from '../core/types';
import { GUARDRAILS_METADATA_KEY } from './blocked-response';

type MaybePromise<T> = T | PromiseLike<T>;

/** A step or a single call's result: anything carrying `providerMetadata`. */
export interface GuardrailOutcomeStep {
  providerMetadata?: MaybePromise<SharedV4ProviderMetadata | undefined>;
}

/** A `generateText` / `streamText` result: its steps (awaited when a promise). */
export interface GuardrailOutcomeRun {
  steps: MaybePromise<readonly GuardrailOutcomeStep[]>;
}

/** Collects guardrail records that a run's steps carry outside provider metadata (tool guardrails). */
export type StepRecordCollector = (steps: readonly unknown[]) => GuardrailOutcome | undefined;

const collectors: StepRecordCollector[] = [];

/** Lets another part of the library (tool wrappers) add the records it leaves in steps. */
export function registerStepRecordCollector(collector: StepRecordCollector) {
  if (!collectors.includes(collector)) collectors.push(collector);
}

function isOutcome(value: unknown): value is GuardrailOutcome {
  return (
    value != null &&
    typeof value === 'object' &&
    typeof (value as GuardrailOutcome).status === 'string' &&
    Array.isArray((value as GuardrailOutcome).records)
  );
}

async function outcomeOfStep(step: GuardrailOutcomeStep): Promise<GuardrailOutcome | undefined> {
  const metadata = await step.providerMetadata;
  const outcome = metadata?.[GUARDRAILS_METADATA_KEY];
  return isOutcome(outcome) ? outcome : undefined;
}

/**
 * The guardrail outcome (`{ status, records }`) of a `generateText` or
 * `streamText` result (all its steps, awaited as needed) or of one step.
 * `status` is `'blocked'` when any step tripped, `'modified'` when any
 * guardrail modified something, else `'passed'`. Resolves to `undefined`
 * when nothing in it went through `guardrails()` or guarded tools.
 */
export async function getGuardrailOutcome(
  resultOrStep: GuardrailOutcomeRun | GuardrailOutcomeStep,
): Promise<GuardrailOutcome | undefined> {
  if ('steps' in resultOrStep && resultOrStep.steps !== undefined) {
    const steps = await resultOrStep.steps;
    const outcomes: GuardrailOutcome[] = [];
    for (const step of steps) {
      const outcome = await outcomeOfStep(step);
      if (outcome) outcomes.push(outcome);
    }
    for (const collect of collectors) {
      const outcome = collect(steps);
      if (outcome) outcomes.push(outcome);
    }
    return outcomes.length > 0 ? mergeOutcomes(outcomes) : undefined;
  }
  const single = await outcomeOfStep(resultOrStep as GuardrailOutcomeStep);
  if (single) {
    const outcomes = [single];
    for (const collect of collectors) {
      const outcome = collect([resultOrStep]);
      if (outcome) outcomes.push(outcome);
    }
    return mergeOutcomes(outcomes);
  }
  for (const collect of collectors) {
    const outcome = collect([resultOrStep]);
    if (outcome) return outcome;
  }
  return undefined;
}
