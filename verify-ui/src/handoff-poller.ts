import type { SessionStatusResult } from '@ageverify/protocol';
import type { ApiFailure, ApiResult } from './api';

/**
 * Spec "QR handoff": "the desktop polls for completion and redirects when the mobile device
 * finishes". The desktop asks POST /verify/status while its QR code is shown.
 *
 *   idle ──start──> waiting ──timer──> asking ──PENDING / transient failure──> waiting (delay below)
 *                     │  ▲                 ├── terminal state ──> finished (onFinish, never asks again)
 *          page hidden│  │page visible     └── 4xx other than 408/429 ──> gave-up (onGiveUp)
 *                     ▼  │(asks at once, or after the back-off while failing)
 *                    paused                       stop() from any state ──> idle
 *
 * Requests never overlap: the next one is scheduled only when the previous answer is in.
 * Pace: every POLL_INTERVAL_MS while the session is PENDING. A 429 (120 requests per 60 s per
 * session, shared with the phone) or a failure that may pass (network, 5xx, 408, an unreadable
 * answer) backs off exponentially up to MAX_BACKOFF_MS, and never asks sooner than the server's
 * X-RateLimit-Retry-After. A hidden page does not ask at all: nobody is there to be redirected,
 * and it asks at once when it becomes visible again. The session's 10-minute deadline ends polling
 * by itself: the server then answers EXPIRED, a terminal state.
 */
export const POLL_INTERVAL_MS = 2_000;
export const MAX_BACKOFF_MS = 60_000;

/** What to do after one answer ("decide, then apply": the poller below applies it). */
export type PollDecision =
  | { kind: 'finish'; status: SessionStatusResult }
  | { kind: 'again'; delayMs: number; failures: number }
  | { kind: 'give-up'; failure: ApiFailure };

/** Delay after the `failures`-th failure in a row (1-based): 4 s, 8 s, 16 s, … capped. */
export function backoffDelay(failures: number): number {
  return Math.min(POLL_INTERVAL_MS * 2 ** Math.max(1, failures), MAX_BACKOFF_MS);
}

/** A failure that asking again later can fix. 401/403/404/400 will not change by waiting. */
function isTransient(failure: ApiFailure): boolean {
  if (failure.kind !== 'http') return true;
  return failure.status === 408 || failure.status === 429 || failure.status >= 500;
}

/** Pure: the next step after one answer, given how many failures came right before it. */
export function decideAfterPoll(result: ApiResult<SessionStatusResult>, failuresBefore: number): PollDecision {
  if (result.ok) {
    if (result.value.state !== 'PENDING') return { kind: 'finish', status: result.value };
    return { kind: 'again', delayMs: POLL_INTERVAL_MS, failures: 0 };
  }
  const failure = result.failure;
  if (!isTransient(failure)) return { kind: 'give-up', failure };
  const failures = failuresBefore + 1;
  const serverWait = failure.kind === 'http' && failure.retryAfterMs !== undefined ? failure.retryAfterMs : 0;
  return { kind: 'again', delayMs: Math.min(Math.max(backoffDelay(failures), serverWait), MAX_BACKOFF_MS), failures };
}

/** Everything the poller takes from the page, so tests can drive it with fake timers. */
export interface PollerDeps {
  fetchStatus(): Promise<ApiResult<SessionStatusResult>>;
  setTimeout(callback: () => void, ms: number): unknown;
  clearTimeout(id: unknown): void;
  /** document.hidden */
  isHidden(): boolean;
  /** Subscribes to visibilitychange; returns the unsubscribe function. */
  onVisibilityChange(listener: () => void): () => void;
  /** The session reached a terminal state (VERIFIED, FAILED or EXPIRED). Called at most once per start(). */
  onFinish(status: SessionStatusResult): void;
  /** Polling cannot succeed (for example the token is no longer accepted). */
  onGiveUp(failure: ApiFailure): void;
}

export type PollerState = 'idle' | 'waiting' | 'asking' | 'paused' | 'finished' | 'gave-up';

export class HandoffPoller {
  private current: PollerState = 'idle';
  private timer: unknown = undefined;
  private failures = 0;
  /** Bumped by start() and stop(): an answer that arrives for an older run is dropped. */
  private run = 0;
  private unsubscribe: (() => void) | undefined;

  constructor(private readonly deps: PollerDeps) {}

  get state(): PollerState {
    return this.current;
  }

  /** True while the poller will still ask (waiting, asking or paused). */
  get active(): boolean {
    return this.current === 'waiting' || this.current === 'asking' || this.current === 'paused';
  }

  /** Starts polling; the first question is asked one interval from now. No-op while active. */
  start(): void {
    if (this.active) return;
    this.run += 1;
    this.failures = 0;
    this.unsubscribe = this.deps.onVisibilityChange(() => this.onVisibility());
    this.schedule(POLL_INTERVAL_MS);
  }

  /** Stops for good (until the next start()); an answer still in flight is ignored. */
  stop(): void {
    this.end('idle');
  }

  private schedule(delayMs: number): void {
    this.deps.clearTimeout(this.timer);
    if (this.deps.isHidden()) {
      this.current = 'paused';
      return;
    }
    this.current = 'waiting';
    this.timer = this.deps.setTimeout(() => void this.ask(), delayMs);
  }

  private onVisibility(): void {
    if (this.current === 'paused' && !this.deps.isHidden()) {
      // Back on the page: the phone may have finished meanwhile, so ask now; but while backing
      // off (a 429 or an outage), keep waiting rather than hit the limit again.
      if (this.failures === 0) void this.ask();
      else this.schedule(backoffDelay(this.failures));
    } else if (this.current === 'waiting' && this.deps.isHidden()) {
      this.deps.clearTimeout(this.timer);
      this.current = 'paused';
    }
  }

  private async ask(): Promise<void> {
    const run = this.run;
    this.deps.clearTimeout(this.timer);
    this.current = 'asking';
    const result = await this.deps.fetchStatus();
    if (run !== this.run || this.current !== 'asking') return;
    const decision = decideAfterPoll(result, this.failures);
    switch (decision.kind) {
      case 'finish':
        this.end('finished');
        this.deps.onFinish(decision.status);
        return;
      case 'give-up':
        this.end('gave-up');
        this.deps.onGiveUp(decision.failure);
        return;
      case 'again':
        this.failures = decision.failures;
        this.schedule(decision.delayMs);
    }
  }

  private end(state: PollerState): void {
    this.run += 1;
    this.deps.clearTimeout(this.timer);
    this.timer = undefined;
    this.unsubscribe?.();
    this.unsubscribe = undefined;
    this.current = state;
  }
}
