/** Options of the judge's circuit breaker. */
export interface CircuitBreakerOptions {
  /** Consecutive failures (or timeouts confirmed by a health check) that open the circuit. */
  failures: number;
  /** How long the circuit stays open before one trial call is let through. */
  resetMs: number;
}

/**
 * Stops calling a judge that keeps failing: after `failures` consecutive
 * failures the circuit opens for `resetMs`, then one trial call decides
 * whether it closes again (success) or reopens (failure).
 *
 * Timeouts are counted apart: the judged text may cause them (a long text),
 * so they open the circuit only when a health check of the judge (a fixed
 * text no client writes) runs out of time or fails too. `timeout()` says
 * when to start that check and `probed()` takes its outcome.
 */
export class CircuitBreaker {
  private consecutiveFailures = 0;
  private consecutiveTimeouts = 0;
  private openUntil = 0;
  private trialInFlight = false;
  private probing = false;
  /** What opened the circuit last: judge failures, or timeouts a health check confirmed. */
  openedBy: 'failures' | 'timeouts' = 'failures';

  constructor(
    private readonly options: CircuitBreakerOptions,
    private readonly now: () => number = Date.now,
  ) {}

  /**
   * Whether a call may go ahead. When the circuit is open this returns the
   * milliseconds left before the next trial, else `undefined` (and, after the
   * reset time, reserves the single trial call).
   */
  acquire(): number | undefined {
    if (this.consecutiveFailures < this.options.failures) return undefined;
    const left = this.openUntil - this.now();
    if (left > 0) return left;
    if (this.trialInFlight) return 0;
    this.trialInFlight = true;
    return undefined;
  }

  /** Records a successful call: the circuit closes. */
  success() {
    this.consecutiveFailures = 0;
    this.consecutiveTimeouts = 0;
    this.trialInFlight = false;
  }

  /** Records a failed call: may open (or reopen) the circuit. */
  failure() {
    this.consecutiveFailures += 1;
    this.trialInFlight = false;
    if (this.consecutiveFailures >= this.options.failures) {
      this.openedBy = 'failures';
      this.openUntil = this.now() + this.options.resetMs;
    }
  }

  /**
   * Records a call that ran out of time. Returns true when the caller
   * should check the judge's health now (then call `probed`): after
   * `failures` consecutive timeouts, or when the trial call of an open
   * circuit timed out, and no check is running.
   */
  timeout(): boolean {
    const wasTrial = this.trialInFlight;
    this.trialInFlight = false;
    this.consecutiveTimeouts += 1;
    if (this.probing) return false;
    if (!wasTrial && this.consecutiveTimeouts < this.options.failures) return false;
    this.probing = true;
    return true;
  }

  /**
   * The health check ended: `hung` (it timed out, or failed the way a judge
   * down for everyone fails) opens the circuit for `resetMs`; an answer says
   * the timeouts were the texts', and their count starts again.
   */
  probed(hung: boolean) {
    this.probing = false;
    this.consecutiveTimeouts = 0;
    if (!hung) return;
    this.consecutiveFailures = Math.max(this.consecutiveFailures + 1, this.options.failures);
    this.openedBy = 'timeouts';
    this.openUntil = this.now() + this.options.resetMs;
  }

  /** Releases a reserved trial that ended without a verdict either way (the caller left). */
  release() {
    this.trialInFlight = false;
  }
}
