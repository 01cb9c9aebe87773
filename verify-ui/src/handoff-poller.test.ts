import { describe, expect, test } from 'bun:test';
import type { SessionStatusResult } from '@ageverify/protocol';
import type { ApiFailure, ApiResult } from './api';
import { HandoffPoller, MAX_BACKOFF_MS, POLL_INTERVAL_MS, backoffDelay, decideAfterPoll } from './handoff-poller';

const pending: SessionStatusResult = { state: 'PENDING', status: null, redirectUrl: null };
const verified: SessionStatusResult = { state: 'VERIFIED', status: 'verified', redirectUrl: 'https://shop.example/r?status=verified' };
const expired: SessionStatusResult = { state: 'EXPIRED', status: 'failed', redirectUrl: 'https://shop.example/r?status=failed' };
const ok = (value: SessionStatusResult): ApiResult<SessionStatusResult> => ({ ok: true, value });
const fail = (failure: ApiFailure): ApiResult<SessionStatusResult> => ({ ok: false, failure });
const http = (status: number, retryAfterMs?: number): ApiFailure =>
  retryAfterMs === undefined ? { kind: 'http', status, message: null } : { kind: 'http', status, message: null, retryAfterMs };

describe('decideAfterPoll', () => {
  test('PENDING asks again at the normal pace and clears the failure count', () => {
    expect(decideAfterPoll(ok(pending), 3)).toEqual({ kind: 'again', delayMs: POLL_INTERVAL_MS, failures: 0 });
  });

  test.each([
    ['VERIFIED', verified],
    ['FAILED', { state: 'FAILED', status: 'cancelled', redirectUrl: 'https://shop.example/c' } satisfies SessionStatusResult],
    ['EXPIRED', expired],
  ])('%s is terminal: finish with the status', (_name, status) => {
    expect(decideAfterPoll(ok(status), 0)).toEqual({ kind: 'finish', status });
  });

  test('back-off doubles per failure in a row and is capped', () => {
    expect([1, 2, 3, 4, 5, 6, 20].map(backoffDelay)).toEqual([4_000, 8_000, 16_000, 32_000, MAX_BACKOFF_MS, MAX_BACKOFF_MS, MAX_BACKOFF_MS]);
  });

  test.each([
    ['network', { kind: 'network' } as ApiFailure],
    ['invalid answer', { kind: 'invalid-response', status: 200 } as ApiFailure],
    ['500', http(500)],
    ['503', http(503)],
    ['408', http(408)],
    ['429 without Retry-After', http(429)],
  ])('%s is transient: back off', (_name, failure) => {
    expect(decideAfterPoll(fail(failure), 0)).toEqual({ kind: 'again', delayMs: 4_000, failures: 1 });
    expect(decideAfterPoll(fail(failure), 2)).toEqual({ kind: 'again', delayMs: 16_000, failures: 3 });
  });

  test('429 waits at least X-RateLimit-Retry-After, never more than the cap', () => {
    expect(decideAfterPoll(fail(http(429, 45_000)), 0)).toEqual({ kind: 'again', delayMs: 45_000, failures: 1 });
    expect(decideAfterPoll(fail(http(429, 1_000)), 0)).toEqual({ kind: 'again', delayMs: 4_000, failures: 1 });
    expect(decideAfterPoll(fail(http(429, 3_600_000)), 0)).toEqual({ kind: 'again', delayMs: MAX_BACKOFF_MS, failures: 1 });
  });

  test.each([400, 401, 403, 404, 409])('%d cannot be fixed by waiting: give up', (status) => {
    expect(decideAfterPoll(fail(http(status)), 0)).toEqual({ kind: 'give-up', failure: http(status) });
  });
});

/** Fake timers, visibility and a scripted status endpoint. */
class Harness {
  time = 0;
  hidden = false;
  readonly asked: number[] = [];
  readonly finished: SessionStatusResult[] = [];
  readonly gaveUp: ApiFailure[] = [];
  answers: Array<ApiResult<SessionStatusResult> | Promise<ApiResult<SessionStatusResult>>> = [];
  private timers: Array<{ id: number; at: number; callback: () => void }> = [];
  private nextId = 1;
  private visibilityListeners: Array<() => void> = [];
  readonly poller = new HandoffPoller({
    fetchStatus: async () => {
      this.asked.push(this.time);
      return this.answers.shift() ?? ok(pending);
    },
    setTimeout: (callback, ms) => {
      const id = this.nextId++;
      this.timers.push({ id, at: this.time + ms, callback });
      return id;
    },
    clearTimeout: (id) => {
      this.timers = this.timers.filter((timer) => timer.id !== id);
    },
    isHidden: () => this.hidden,
    onVisibilityChange: (listener) => {
      this.visibilityListeners.push(listener);
      return () => {
        this.visibilityListeners = this.visibilityListeners.filter((l) => l !== listener);
      };
    },
    onFinish: (status) => void this.finished.push(status),
    onGiveUp: (failure) => void this.gaveUp.push(failure),
  });

  get pendingTimers(): number {
    return this.timers.length;
  }
  get listeners(): number {
    return this.visibilityListeners.length;
  }

  /** Moves the clock, firing due timers and letting the answers they ask for settle. */
  async advance(ms: number): Promise<void> {
    const end = this.time + ms;
    for (;;) {
      const due = this.timers.filter((t) => t.at <= end).sort((a, b) => a.at - b.at)[0];
      if (!due) break;
      this.timers = this.timers.filter((t) => t !== due);
      this.time = due.at;
      due.callback();
      await settle();
    }
    this.time = end;
  }

  async setHidden(hidden: boolean): Promise<void> {
    this.hidden = hidden;
    for (const listener of this.visibilityListeners.slice()) listener();
    await settle();
  }
}

const settle = () => new Promise<void>((resolve) => setTimeout(resolve, 0));

describe('HandoffPoller', () => {
  test('asks every 2 s while PENDING, one request at a time', async () => {
    const h = new Harness();
    h.poller.start();
    await h.advance(POLL_INTERVAL_MS - 1);
    expect(h.asked).toEqual([]);
    await h.advance(1 + POLL_INTERVAL_MS * 2);
    expect(h.asked).toEqual([2_000, 4_000, 6_000]);
    expect(h.poller.state).toBe('waiting');
    expect(h.pendingTimers).toBe(1);
  });

  test('a terminal answer calls onFinish once and stops everything', async () => {
    const h = new Harness();
    h.answers = [ok(pending), ok(verified)];
    h.poller.start();
    await h.advance(POLL_INTERVAL_MS * 10);
    expect(h.asked).toEqual([2_000, 4_000]);
    expect(h.finished).toEqual([verified]);
    expect(h.poller.state).toBe('finished');
    expect(h.pendingTimers).toBe(0);
    expect(h.listeners).toBe(0);
  });

  test('429s back off (honouring Retry-After), then the normal pace resumes', async () => {
    const h = new Harness();
    h.answers = [fail(http(429)), fail(http(429, 30_000)), ok(pending), ok(pending)];
    h.poller.start();
    await h.advance(60_000);
    // 2 s: 429 → wait 4 s; 6 s: 429 with Retry-After 30 s → wait 30 s; 36 s: PENDING → every 2 s.
    expect(h.asked.slice(0, 5)).toEqual([2_000, 6_000, 36_000, 38_000, 40_000]);
    expect(h.finished).toEqual([]);
  });

  test('an outage backs off up to the cap and keeps trying', async () => {
    const h = new Harness();
    h.answers = Array.from({ length: 8 }, () => fail({ kind: 'network' }));
    h.poller.start();
    await h.advance(400_000);
    const gaps = h.asked.slice(1, 8).map((at, i) => at - (h.asked[i] ?? 0));
    expect(gaps).toEqual([4_000, 8_000, 16_000, 32_000, 60_000, 60_000, 60_000]);
    expect(h.poller.active).toBe(true);
  });

  test('a 401 gives up: onGiveUp, nothing scheduled', async () => {
    const h = new Harness();
    h.answers = [fail(http(401))];
    h.poller.start();
    await h.advance(POLL_INTERVAL_MS * 5);
    expect(h.asked).toHaveLength(1);
    expect(h.gaveUp).toEqual([http(401)]);
    expect(h.poller.state).toBe('gave-up');
    expect(h.pendingTimers).toBe(0);
  });

  test('a hidden page does not ask; it asks at once when visible again', async () => {
    const h = new Harness();
    h.poller.start();
    await h.advance(POLL_INTERVAL_MS);
    expect(h.asked).toEqual([2_000]);
    await h.setHidden(true);
    expect(h.poller.state).toBe('paused');
    await h.advance(60_000);
    expect(h.asked).toEqual([2_000]);
    h.answers = [ok(verified)];
    await h.setHidden(false);
    expect(h.asked).toEqual([2_000, 62_000]);
    expect(h.finished).toEqual([verified]);
  });

  test('starting on a hidden page waits for it to be shown', async () => {
    const h = new Harness();
    h.hidden = true;
    h.poller.start();
    expect(h.poller.state).toBe('paused');
    await h.advance(10_000);
    expect(h.asked).toEqual([]);
    await h.setHidden(false);
    expect(h.asked).toEqual([10_000]);
  });

  test('hidden while backing off: shown again, it still waits the back-off', async () => {
    const h = new Harness();
    h.answers = [fail(http(429))];
    h.poller.start();
    await h.advance(POLL_INTERVAL_MS);
    await h.setHidden(true);
    await h.advance(1_000);
    await h.setHidden(false);
    expect(h.asked).toEqual([2_000]);
    await h.advance(4_000);
    expect(h.asked).toEqual([2_000, 7_000]);
  });

  test('stop() drops an answer still in flight and leaves nothing behind', async () => {
    const h = new Harness();
    let answer: (value: ApiResult<SessionStatusResult>) => void = () => {};
    h.answers = [new Promise((resolve) => (answer = resolve))];
    h.poller.start();
    await h.advance(POLL_INTERVAL_MS);
    expect(h.poller.state).toBe('asking');
    h.poller.stop();
    answer(ok(verified));
    await settle();
    expect(h.finished).toEqual([]);
    expect(h.poller.state).toBe('idle');
    expect(h.pendingTimers).toBe(0);
    expect(h.listeners).toBe(0);
  });

  test('start() while active is a no-op; after stop() it starts afresh', async () => {
    const h = new Harness();
    h.poller.start();
    h.poller.start();
    expect(h.pendingTimers).toBe(1);
    expect(h.listeners).toBe(1);
    h.poller.stop();
    h.poller.start();
    await h.advance(POLL_INTERVAL_MS);
    expect(h.asked).toEqual([2_000]);
  });
});
