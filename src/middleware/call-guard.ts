import type { LanguageModelV4Prompt, LanguageModelV4Usage } from '@ai-sdk/provider';
import { type ChainResult, runChain } from '../core/chain';
import { GuardrailTripwireError } from '../core/errors';
import type {
  Guardrail,
  GuardrailEventListener,
  GuardrailKind,
  GuardrailMetadata,
  GuardrailRecord,
} from '../core/types';
import type { InputGuardResult } from './input-guard';

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
  ) {
    this.records = [...input.records];
  }

  /**
   * Starts the parallel input guardrails over the new input (once). Resolves
   * with the trip when one blocks, after aborting the model call.
   */
  startParallel(): Promise<ChainResult | undefined> {
    this.parallelRun ??= this.runParallel();
    return this.parallelRun;
  }

  private async runParallel(): Promise<ChainResult | undefined> {
    const texts = this.input.newInputTexts;
    if (this.parallelGuardrails.length === 0 || texts.length === 0) return undefined;
    const context = {
      kind: 'input' as const,
      messages: this.prompt,
      metadata: this.metadata,
      state: this.state,
    };
    const runs = this.parallelGuardrails.flatMap(guardrail =>
      texts.map(async text => {
        const result = await runChain([guardrail], text, context, {
          abortSignal: this.controller.signal,
          onEvent: this.onEvent,
        });
        // A parallel guardrail comes too late to change the prompt: only its block counts.
        if (result.trip && !this.controller.signal.aborted) {
          this.controller.abort(new GuardrailTripwireError({ record: result.trip }));
        }
        return result;
      }),
    );
    const results = await Promise.all(runs);
    const records = results.flatMap(r => r.records);
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
      { abortSignal: this.controller.signal, onEvent: report ? this.onEvent : undefined },
    );
    if (report) this.records.push(...result.records);
    return result;
  }
}
