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
import { REMOVED_TOOL_CALL } from './removed-tool-calls';

/** What an aborted call rejects with: the signal's reason, as `fetch` and the AI SDK do. */
export function abortReasonOf(signal: AbortSignal | undefined): unknown {
  return signal?.reason ?? new DOMException('This operation was aborted', 'AbortError');
}

/** What one model call's guard is built from (see {@link CallGuard}). */
export interface CallGuardOptions {
  /** The sequential input guardrails' result: the prompt to send, records, a trip. */
  input: InputGuardResult;
  /** The call's `ctx.metadata`. */
  metadata: GuardrailMetadata;
  /** The call's `ctx.state`, shared by every guardrail of the call. */
  state: Map<string, unknown>;
  /** Aborts the model call and every running guardrail (a parallel trip, a cancelled stream). */
  controller: AbortController;
  /** Input guardrails that run beside the model call. Default none. */
  parallelGuardrails?: readonly Guardrail[];
  /** Receives one event per guardrail decision. */
  onEvent?: GuardrailEventListener;
  /** Frees what the call holds (the abort link to the caller's signal); called once the call ended. */
  release: () => void;
  /** Judges the prompt's texts with the verdict cache (for parallel guardrails). */
  judge: InputJudge;
  /** The time limit of a guardrail without its own `timeoutMs`. */
  defaultTimeoutMs: number;
  /** The caller's own abort signal (not the one a parallel trip aborts). */
  callerSignal?: AbortSignal;
  /** The call's 0-based index within its `generateText` / `streamText` run, when known. */
  step?: number;
  /**
   * `'final'`: the output guardrails skip a response that ends in tool calls
   * (see `outputScope`). Default `'every-step'`.
   */
  outputScope?: 'every-step' | 'final';
  /**
   * The model is not given what the caller sent, beyond what a record says
   * was modified (tool-definition guardrails removed tools, `toolOutputs`
   * withheld a tool result): a call that passes is reported `'modified'`.
   * Default false.
   */
  promptChanged?: boolean;
}

/**
 * Everything one model call needs to enforce its guardrails: the input
 * result, the shared context, and the controller whose signal the model call
 * was given (aborted by a parallel trip or a cancelled stream).
 */
export class CallGuard {
  readonly records: GuardrailRecord[];
  readonly input: InputGuardResult;
  /** The prompt the model is given: the input guardrails' modifications applied. */
  readonly prompt: LanguageModelV4Prompt;
  readonly metadata: GuardrailMetadata;
  readonly state: Map<string, unknown>;
  /** Aborts the model call and every running guardrail. */
  readonly controller: AbortController;
  readonly onEvent: GuardrailEventListener | undefined;
  readonly release: () => void;
  /** The time limit of a guardrail without its own `timeoutMs`. */
  readonly defaultTimeoutMs: number;
  /** The caller's own abort signal (not the one a parallel trip aborts). */
  readonly callerSignal: AbortSignal | undefined;
  /** The call's index within its run, when known (`ctx.step`). */
  readonly step: number | undefined;
  private outputScope: 'every-step' | 'final';
  private readonly promptChanged: boolean;
  /** A tool result of the model's response was modified or withheld (`toolOutputs`). */
  private responseChanged = false;
  private endsInToolCalls = false;
  private readonly parallelGuardrails: readonly Guardrail[];
  private readonly judge: InputJudge;
  private parallelRun: Promise<ChainResult | undefined> | undefined;

  constructor({
    input,
    metadata,
    state,
    controller,
    parallelGuardrails = [],
    onEvent,
    release,
    judge,
    defaultTimeoutMs,
    callerSignal,
    step,
    outputScope = 'every-step',
    promptChanged = false,
  }: CallGuardOptions) {
    this.promptChanged = promptChanged;
    this.step = step;
    this.outputScope = outputScope;
    this.input = input;
    this.prompt = input.prompt;
    this.records = [...input.records];
    this.metadata = metadata;
    this.state = state;
    this.controller = controller;
    this.parallelGuardrails = parallelGuardrails;
    this.onEvent = onEvent;
    this.release = release;
    this.judge = judge;
    this.defaultTimeoutMs = defaultTimeoutMs;
    this.callerSignal = callerSignal;
  }

  /** Verdicts taken from the cache instead of judging again, for the outcome. */
  get cachedVerdicts(): number {
    return this.input.cachedVerdicts + this.parallelCached;
  }

  private parallelCached = 0;

  /** The call's outcome so far: its records, and how many verdicts came from the cache. */
  outcome(tripped: boolean): GuardrailOutcome {
    const outcome = outcomeOf(this.records, tripped);
    if ((this.promptChanged || this.responseChanged) && outcome.status === 'passed') {
      outcome.status = 'modified';
    }
    const cached = this.cachedVerdicts;
    return cached > 0 ? { ...outcome, cachedVerdicts: cached } : outcome;
  }

  /** Notes that a tool result of the model's response was modified or withheld. */
  noteResponseChanged(): void {
    this.responseChanged = true;
    this.thisResponseChanged = true;
  }

  /** With `retry`: whether the response being judged now was changed (`noteResponseChanged`). */
  private thisResponseChanged = false;
  /** With `retry`: the records of the earlier model responses of this call. */
  private earlierResponses: ReadonlySet<GuardrailRecord> | undefined;

  /**
   * With `retry`: a new model response is asked for (before the model is
   * called again, so its tool-call judgments count for it).
   * `responseModified` then tells about that response only: the provider
   * data returned (body, logprobs, part metadata) is its own.
   */
  nextResponse(): void {
    this.thisResponseChanged = false;
    this.earlierResponses = new Set(this.records);
  }

  /**
   * True when a guardrail changed or judged against the model's response (the
   * latest one, with `retry`): an output record other than passed, a dropped
   * call to a removed tool, or a tool call or provider-executed tool result
   * modified or withheld. Then the provider's raw response body holds what
   * was hidden.
   */
  responseModified(): boolean {
    const earlier = this.earlierResponses;
    return (
      this.thisResponseChanged ||
      this.records.some(
        record =>
          earlier?.has(record) !== true &&
          ((record.kind === 'output' && record.status !== 'passed') ||
            record.guardrail === REMOVED_TOOL_CALL),
      )
    );
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
    // Reported in phase order, right after the sequential input's records,
    // also when output records came first (a window stream judges while
    // these still run): the same order in generate and every stream mode.
    this.records.splice(this.input.records.length, 0, ...records);
    return { content: '', records, trip };
  }

  /** True when the model call was aborted because a parallel guardrail tripped. */
  abortedByTrip(): boolean {
    return GuardrailTripwireError.isInstance(this.controller.signal.reason);
  }

  /**
   * The response made a tool call: with `outputScope: 'final'` its text is
   * not judged (only a response without tool calls is a final answer).
   */
  noteToolCall(): void {
    this.endsInToolCalls = true;
  }

  /**
   * Judges every response's text after all: where text is released before
   * the response is known to end in tool calls (window and passthrough
   * streams), skipping would let text by unjudged.
   */
  judgeEveryStep(): void {
    this.outputScope = 'every-step';
  }

  /** With `retry`: the attempt whose answer is judged now (tagged on its output records). */
  private attempt: number | undefined;

  /** With `retry`: the attempt whose response is judged now; undefined without retry. */
  get currentAttempt(): number | undefined {
    return this.attempt;
  }

  /**
   * Starts judging the answer of attempt `attempt` (1 is the first answer):
   * its output records carry the number, and its tool calls and per-call
   * settlement are its own.
   */
  startAttempt(attempt: number): void {
    this.attempt = attempt;
    this.endsInToolCalls = false;
    this.outputJudged = false;
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
    if (!report) {
      // Window checks judge overlapping slices of a text: a per-call guardrail
      // (a budget) would count them again and again; settlePerCallOutput
      // runs it once with the response's usage.
      guardrails = guardrails.filter(guardrail => !guardrail.perCall);
      if (guardrails.length === 0) return { content: text, records: [] };
    }
    if (kind === 'output' && this.outputScope === 'final' && this.endsInToolCalls) {
      // Not a final answer: per-call guardrails are settled by settlePerCallOutput.
      return { content: text, records: [] };
    }
    // With retry, the chain tags each record (and its event and span) with the attempt.
    const attempt = this.attempt;
    const result = await runChain(
      guardrails,
      text,
      {
        kind,
        messages: this.prompt,
        metadata: this.metadata,
        state: this.state,
        ...(usage && { usage }),
        ...(this.step !== undefined && { step: this.step }),
        ...(attempt !== undefined && { attempt }),
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
