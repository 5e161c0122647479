/** Options of the judge's circuit breaker. */
export interface CircuitBreakerOptions {
  /** Consecutive failures that open the circuit. */
  failures: number;
  /** How long the circuit stays open before one trial call is let through. */
  resetMs: number;
}

/**
 * Stops calling a judge that keeps failing: after `failures` consecutive
 * failures the circuit opens for `resetMs`, then one trial call decides
 * whether it closes again (success) or reopens (failure).
 */
export class CircuitBreaker {
  private consecutiveFailures = 0;
  private openUntil = 0;
  private trialInFlight = false;

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
    this.trialInFlight = false;
  }

  /** Records a failed call: may open (or reopen) the circuit. */
  failure() {
    this.consecutiveFailures += 1;
    this.trialInFlight = false;
    if (this.consecutiveFailures >= this.options.failures) {
      this.openUntil = this.now() + this.options.resetMs;
    }
  }

  /** Releases a reserved trial that ended without a verdict either way (the caller left). */
  release() {
    this.trialInFlight = false;
  }
}
