import type { LanguageModelV4Prompt, LanguageModelV4Usage } from '@ai-sdk/provider';
import { type ChainResult, runChain } from '../core/chain';
import { GuardrailTripwireError } from '../core/errors';
import { outcomeOf } from '../core/outcome';
import type {
  Guardrail,
  GuardrailEventListener,
  GuardrailKind,
  GuardrailMetadata,
  GuardrailOutcome,
  GuardrailRecord,
} from '../core/types';
import type { InputGuardResult, InputJudge } from './input-guard';

/** What an aborted call rejects with: the signal's reason, as `fetch` and the AI SDK do. */
export function abortReasonOf(signal: AbortSignal | undefined): unknown {
  return signal?.reason ?? new DOMException('This operation was aborted', 'AbortError');
}

/**
 * Everything one model call needs to enforce its guardrails: the input
 * result, the shared context, and the controller whose signal the model call
 * was given (aborted by a parallel trip or a cancelled stream).
 */
export class CallGuard {
  readonly records: GuardrailRecord[];
  private parallelRun: Promise<ChainResult | undefined> | undefined;

  constructor(
    readonly input: InputGuardResult,
    readonly prompt: LanguageModelV4Prompt,
    readonly metadata: GuardrailMetadata,
    readonly state: Map<string, unknown>,
    /** Aborts the model call and every running guardrail. */
    readonly controller: AbortController,
    private readonly parallelGuardrails: readonly Guardrail[],
    readonly onEvent: GuardrailEventListener | undefined,
    readonly release: () => void,
    /** Judges the prompt's texts with the verdict cache (for parallel guardrails). */
    private readonly judge: InputJudge,
    /** The time limit of a guardrail without its own `timeoutMs`. */
    readonly defaultTimeoutMs: number,
    /** The caller's own abort signal (not the one a parallel trip aborts). */
    readonly callerSignal: AbortSignal | undefined,
  ) {
    this.records = [...input.records];
  }

  /** Verdicts taken from the cache instead of judging again, for the outcome. */
  get cachedVerdicts(): number {
    return this.input.cachedVerdicts + this.parallelCached;
  }

  private parallelCached = 0;

  /** The call's outcome so far: its records, and how many verdicts came from the cache. */
  outcome(tripped: boolean): GuardrailOutcome {
    const outcome = outcomeOf(this.records, tripped);
    const cached = this.cachedVerdicts;
    return cached > 0 ? { ...outcome, cachedVerdicts: cached } : outcome;
  }

  /** True when the caller aborted the call: it must reject with the abort, not answer. */
  callerAborted(): boolean {
    return this.callerSignal?.aborted === true;
  }

  /** The caller's abort reason (the `AbortError` an unguarded model call rejects with). */
  abortReason(): unknown {
    return abortReasonOf(this.callerSignal);
  }

  /**
   * Starts the parallel input guardrails over the prompt's texts (once).
   * Resolves with the trip when one blocks, after aborting the model call.
   */
  startParallel(): Promise<ChainResult | undefined> {
    this.parallelRun ??= this.runParallel();
    return this.parallelRun;
  }

  private async runParallel(): Promise<ChainResult | undefined> {
    if (this.parallelGuardrails.length === 0) return undefined;
    const { texts, contents } = this.input;
    const runs = this.parallelGuardrails.map(async guardrail => {
      const result = await this.judge.judgeTexts(guardrail, texts, contents);
      // A parallel guardrail comes too late to change the prompt: only its block counts.
      if (result.trip && !this.controller.signal.aborted) {
        this.controller.abort(new GuardrailTripwireError({ record: result.trip }));
      }
      return result;
    });
    const results = await Promise.all(runs);
    const records = results.flatMap(r => r.records);
    for (const result of results) this.parallelCached += result.cachedVerdicts;
    // A guardrail cut short by another's trip reports an error; the first real trip is the cause.
    const trip =
      results.find(r => r.trip && r.trip.status === 'blocked')?.trip ??
      results.find(r => r.trip)?.trip;
    this.records.push(...records);
    return { content: '', records, trip };
  }

  /** True when the model call was aborted because a parallel guardrail tripped. */
  abortedByTrip(): boolean {
    return GuardrailTripwireError.isInstance(this.controller.signal.reason);
  }

  /** Runs an output chain over one text of the response. */
  async checkOutput(
    guardrails: readonly Guardrail[],
    text: string,
    {
      usage,
      kind = 'output',
      report = true,
    }: { usage?: LanguageModelV4Usage; kind?: GuardrailKind; report?: boolean } = {},
  ): Promise<ChainResult> {
    const result = await runChain(
      guardrails,
      text,
      {
        kind,
        messages: this.prompt,
        metadata: this.metadata,
        state: this.state,
        ...(usage && { usage }),
      },
      {
        abortSignal: this.controller.signal,
        onEvent: report ? this.onEvent : undefined,
        defaultTimeoutMs: this.defaultTimeoutMs,
      },
    );
    if (report) this.records.push(...result.records);
    if (report && kind === 'output') this.outputJudged = true;
    return result;
  }

  private outputJudged = false;

  /**
   * Runs the per-call output guardrails (a token budget settling its
   * reservation with the reported usage) once on an empty text when the
   * response had no text for the output chain to judge: a step that only
   * calls tools still used tokens, and its reservation must be settled, not
   * kept until the budget window resets.
   */
  async settlePerCallOutput(
    guardrails: readonly Guardrail[],
    usage: LanguageModelV4Usage | undefined,
  ): Promise<ChainResult | undefined> {
    if (this.outputJudged) return undefined;
    const perCall = guardrails.filter(guardrail => guardrail.perCall);
    if (perCall.length === 0) return undefined;
    return this.checkOutput(perCall, '', usage ? { usage } : {});
  }
}
