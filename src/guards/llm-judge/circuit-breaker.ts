/** Options of the judge's circuit breaker. */
export interface CircuitBreakerOptions {
  /** Consecutive failures (or timeouts and unsure failures confirmed by a health check) that open the circuit. */
  failures: number;
  /** How long the circuit stays open before one trial call is let through. */
  resetMs: number;
}

/** A failure that says the judge is down only when a health check fails too. */
export type UnsureFailure = 'timeout' | 'failure' | 'refused';

/**
 * Stops calling a judge that keeps failing: after `failures` consecutive
 * failures the circuit opens for `resetMs`, then one trial call decides
 * whether it closes again (success) or reopens (failure).
 *
 * Timeouts are counted apart, and so are failures the judged text may
 * cause as well as the judge (a rate limit, a server error: `'failure'`):
 * they open the circuit only when a health check of the judge (a fixed
 * text no client writes) runs out of time or fails too. `timeout()` says
 * when to start that check and `probed()` takes its outcome.
 */
export class CircuitBreaker {
  private consecutiveFailures = 0;
  /** Consecutive timeouts and unsure failures, not yet checked. */
  private consecutiveUnsure = 0;
  /** What the last of them was: what a failed health check opens the circuit for. */
  private lastUnsure: UnsureFailure = 'timeout';
  private openUntil = 0;
  private trialInFlight = false;
  private probing = false;
  /**
   * What opened the circuit last: judge failures, timeouts a health check
   * confirmed, failures the text may have caused that one confirmed, or
   * refusals (HTTP 401, 403) that one confirmed.
   */
  openedBy: 'failures' | 'timeouts' | 'checked-failures' | 'checked-refusals' = 'failures';

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
    this.consecutiveUnsure = 0;
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
   * Records a call that ran out of time, or (`'failure'`) failed in a way
   * the judged text may have caused, or (`'refused'`) was refused (HTTP 401,
   * 403: a key or account, or a WAF the text may have tripped). Returns true when the caller should
   * check the judge's health now (then call `probed`): after `failures`
   * consecutive such calls, or when the trial call of an open circuit was
   * one, and no check is running.
   */
  timeout(kind: UnsureFailure = 'timeout'): boolean {
    const wasTrial = this.trialInFlight;
    this.trialInFlight = false;
    this.consecutiveUnsure += 1;
    this.lastUnsure = kind;
    if (this.probing) return false;
    if (!wasTrial && this.consecutiveUnsure < this.options.failures) return false;
    this.probing = true;
    return true;
  }

  /**
   * The health check ended: `hung` (it timed out, or failed the way a judge
   * down for everyone fails) opens the circuit for `resetMs`; an answer says
   * the timeouts (or failures) were the texts', and their count starts again.
   */
  probed(hung: boolean) {
    this.probing = false;
    this.consecutiveUnsure = 0;
    if (!hung) return;
    this.consecutiveFailures = Math.max(this.consecutiveFailures + 1, this.options.failures);
    this.openedBy =
      this.lastUnsure === 'timeout'
        ? 'timeouts'
        : this.lastUnsure === 'refused'
          ? 'checked-refusals'
          : 'checked-failures';
    this.openUntil = this.now() + this.options.resetMs;
  }

  /** Releases a reserved trial that ended without a verdict either way (the caller left). */
  release() {
    this.trialInFlight = false;
  }
}
