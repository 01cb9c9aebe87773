import { describe, expect, test } from 'bun:test';
import { DEFAULT_WEBHOOK_SETTINGS as S, webhookSettings } from '../settings';
import { classifyOutcome, nextDeliveryStep, policyFor, retryAfterMs, type AttemptResult, type DeliveryPolicy } from './retry-policy';

const T0 = new Date('2026-01-15T12:00:00.000Z');
const res = (
  statusCode: number | null,
  errorClass: AttemptResult['errorClass'] = statusCode !== null && statusCode < 300 ? null : 'http',
  retryAfter: string | null = null,
): AttemptResult => ({
  statusCode,
  errorClass,
  errorMessage: null,
  retryAfter,
  durationMs: 1,
});
const MIN = 60_000;
const HOUR = 60 * MIN;

describe('spec limits are the defaults', () => {
  test('15 s attempt timeout, Retry-After ≤ 1 h, ≤ 10 min completion gap, 24 h window, 3 timeout / 3 in-request attempts, 7 days / 500', () => {
    expect(S.attemptTimeoutMs).toBe(15_000);
    expect(S.retryAfterCapMs).toBe(HOUR);
    expect(S.completionMaxDelayMs).toBe(10 * MIN);
    expect(S.deliveryWindowMs).toBe(24 * HOUR);
    expect(S.timeoutAttempts).toBe(3);
    expect(S.timeoutGranularityMs).toBe(5_000);
    expect(S.inRequestAttempts).toBe(3);
    expect(S.pauseAfterRejectionsMs).toBe(HOUR);
    expect(S.pauseAfterFailuresMs).toBe(24 * HOUR);
    expect(S.redeliverWindowMs).toBe(7 * 24 * HOUR);
    expect(S.redeliverBatchSize).toBe(500);
  });
  test('a lease shorter than the attempt timeout is refused (it would send twice)', () => {
    expect(() => webhookSettings({ leaseMs: 10_000 })).toThrow(/must exceed attemptTimeoutMs/);
  });
});

describe('policies by kind (Delivery rules 3–5)', () => {
  const cases: [string, DeliveryPolicy][] = [
    ['verification.completed', 'completion'],
    ['session.timeout', 'timeout'],
    ['session.started', 'in-request'],
    ['verification.failed', 'in-request'],
    ['verification.cancelled', 'in-request'],
  ];
  for (const [kind, policy] of cases) test(`${kind} → ${policy}`, () => expect(policyFor(kind as never)).toBe(policy));
});

describe('classifyOutcome: rejections are 401, 403, 404, 410 and non-public destinations', () => {
  const cases: [string, AttemptResult, string][] = [
    ['200', res(200), 'success'],
    ['204', res(204), 'success'],
    ['299', res(299), 'success'],
    ['401', res(401), 'rejection'],
    ['403', res(403), 'rejection'],
    ['404', res(404), 'rejection'],
    ['410', res(410), 'rejection'],
    ['non-public destination', res(null, 'destination'), 'rejection'],
    ['400 (not named: other failure)', res(400), 'failure'],
    ['429', res(429), 'failure'],
    ['500', res(500), 'failure'],
    ['503', res(503), 'failure'],
    ['301 redirect', res(301, 'redirect'), 'failure'],
    ['timeout', res(null, 'timeout'), 'failure'],
    ['connection', res(null, 'connection'), 'failure'],
    ['TLS', res(null, 'tls'), 'failure'],
    ['DNS', res(null, 'dns'), 'failure'],
  ];
  for (const [name, result, outcome] of cases) test(`${name} → ${outcome}`, () => expect(classifyOutcome(result)).toBe(outcome as never));
});

describe('Retry-After (Delivery rule 7): on 429 and 503 only, up to 1 hour', () => {
  const cases: [string, AttemptResult, number | null][] = [
    ['429 with 30 s', res(429, 'http', '30'), 30_000],
    ['503 with 120 s', res(503, 'http', '120'), 120_000],
    ['429 with 2 h is capped at 1 h', res(429, 'http', '7200'), HOUR],
    ['503 with an HTTP-date 90 s ahead', res(503, 'http', new Date(T0.getTime() + 90_000).toUTCString()), 90_000],
    ['500 with Retry-After is ignored', res(500, 'http', '30'), null],
    ['429 with garbage is ignored', res(429, 'http', 'soon'), null],
    ['429 with a date in the past is ignored', res(429, 'http', new Date(T0.getTime() - 1000).toUTCString()), null],
  ];
  for (const [name, result, ms] of cases) test(name, () => expect(retryAfterMs(result, T0, S)).toBe(ms));
});

describe('completion retries (rule 3): capped exponential ≤ 10 min between attempts, up to 24 h', () => {
  const deadlineAt = new Date(T0.getTime() + 24 * HOUR);
  test('5 s, 10 s, 20 s … then 10 min, never more', () => {
    const delays = Array.from({ length: 12 }, (_, i) => {
      const step = nextDeliveryStep({ policy: 'completion', attempts: i + 1, deadlineAt }, res(500), T0, S);
      return step.kind === 'retry' ? step.at.getTime() - T0.getTime() : null;
    });
    expect(delays).toEqual([5_000, 10_000, 20_000, 40_000, 80_000, 160_000, 320_000, 600_000, 600_000, 600_000, 600_000, 600_000]);
  });
  test('rejections are retried too (durable), until the endpoint pauses', () => {
    expect(nextDeliveryStep({ policy: 'completion', attempts: 1, deadlineAt }, res(404), T0, S).kind).toBe('retry');
  });
  test('the last retry is at the 24 h deadline, then not delivered', () => {
    const late = new Date(deadlineAt.getTime() - 60_000);
    expect(nextDeliveryStep({ policy: 'completion', attempts: 150, deadlineAt }, res(500), late, S)).toEqual({ kind: 'retry', at: deadlineAt });
    expect(nextDeliveryStep({ policy: 'completion', attempts: 151, deadlineAt }, res(500), deadlineAt, S)).toEqual({ kind: 'undelivered', reason: 'expired' });
  });
  test('a Retry-After beyond the window ends it (the receiver asked for later than we may try)', () => {
    const late = new Date(deadlineAt.getTime() - 60_000);
    expect(nextDeliveryStep({ policy: 'completion', attempts: 3, deadlineAt }, res(429, 'http', '3600'), late, S)).toEqual({
      kind: 'undelivered',
      reason: 'expired',
    });
  });
  test('Retry-After longer than the backoff is honoured', () => {
    expect(nextDeliveryStep({ policy: 'completion', attempts: 1, deadlineAt }, res(503, 'http', '1800'), T0, S)).toEqual({
      kind: 'retry',
      at: new Date(T0.getTime() + 1_800_000),
    });
  });
});

describe('timeout retries (rule 4): configured attempts (3), exponential at 5 s granularity', () => {
  const deadlineAt = new Date(T0.getTime() + 24 * HOUR);
  test('attempt 1 → +5 s, attempt 2 → +10 s, attempt 3 → not delivered', () => {
    expect(nextDeliveryStep({ policy: 'timeout', attempts: 1, deadlineAt }, res(500), T0, S)).toEqual({ kind: 'retry', at: new Date(T0.getTime() + 5_000) });
    expect(nextDeliveryStep({ policy: 'timeout', attempts: 2, deadlineAt }, res(500), T0, S)).toEqual({ kind: 'retry', at: new Date(T0.getTime() + 10_000) });
    expect(nextDeliveryStep({ policy: 'timeout', attempts: 3, deadlineAt }, res(500), T0, S)).toEqual({ kind: 'undelivered', reason: 'attempts_exhausted' });
  });
  test('scheduled on 5-second boundaries', () => {
    const odd = new Date(T0.getTime() + 1_234);
    const step = nextDeliveryStep({ policy: 'timeout', attempts: 1, deadlineAt }, res(500), odd, S);
    expect(step).toEqual({ kind: 'retry', at: new Date(T0.getTime() + 10_000) });
  });
  test('the configured count applies', () => {
    const five = webhookSettings({ timeoutAttempts: 5 });
    expect(nextDeliveryStep({ policy: 'timeout', attempts: 4, deadlineAt }, res(500), T0, five)).toEqual({
      kind: 'retry',
      at: new Date(T0.getTime() + 40_000),
    });
    expect(nextDeliveryStep({ policy: 'timeout', attempts: 5, deadlineAt }, res(500), T0, five).kind).toBe('undelivered');
  });
});

describe('in-request retries (rule 5): 3 attempts, rejections not retried', () => {
  const deadlineAt = new Date(T0.getTime() + 24 * HOUR);
  const cases: [string, number, AttemptResult, string][] = [
    ['500 on attempt 1 → retry', 1, res(500), 'retry'],
    ['500 on attempt 2 → retry', 2, res(500), 'retry'],
    ['500 on attempt 3 → not delivered', 3, res(500), 'undelivered'],
    ['401 on attempt 1 → not retried', 1, res(401), 'undelivered'],
    ['404 on attempt 1 → not retried', 1, res(404), 'undelivered'],
    ['410 on attempt 1 → not retried', 1, res(410), 'undelivered'],
    ['non-public destination → not retried', 1, res(null, 'destination'), 'undelivered'],
    ['timeout on attempt 1 → retry', 1, res(null, 'timeout'), 'retry'],
    ['200 → delivered', 1, res(200), 'delivered'],
  ];
  for (const [name, attempts, result, kind] of cases)
    test(name, () => expect(nextDeliveryStep({ policy: 'in-request', attempts, deadlineAt }, result, T0, S).kind).toBe(kind as never));
  test('the rejection is recorded as such', () => {
    expect(nextDeliveryStep({ policy: 'in-request', attempts: 1, deadlineAt }, res(404), T0, S)).toEqual({ kind: 'undelivered', reason: 'rejected' });
  });
});
