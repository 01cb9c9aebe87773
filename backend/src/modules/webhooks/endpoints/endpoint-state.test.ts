/**
 * The endpoint state machine's decisions, row by row of the spec table "Webhook endpoint
 * delivery", with time moved by hand (no sleeping). The database side (guarded UPDATEs, side
 * effects) is exercised end to end in delivery.test.ts.
 */
import { describe, expect, test } from 'bun:test';
import { decideAfterAttempt, effectiveState, type EndpointRow } from './endpoint-state';
import type { AttemptResult } from '../delivery/retry-policy';
import { DEFAULT_WEBHOOK_SETTINGS as S } from '../settings';

const T0 = new Date('2026-01-15T12:00:00.000Z');
const at = (ms: number) => new Date(T0.getTime() + ms);
const MIN = 60_000;
const HOUR = 60 * MIN;

const endpoint = (fields: Partial<EndpointRow> = {}): EndpointRow => ({
  id: 'whe_1',
  tenantId: 'ten_1',
  url: 'https://hooks.example.com/',
  secret: 'whsec_x',
  events: ['verification.completed'],
  pairId: null,
  enabled: true,
  createdAt: T0,
  legacy: false,
  deliveryState: 'active',
  consecutiveFailures: 0,
  failingSince: null,
  rejectingSince: null,
  lastFailureAt: null,
  lastFailureReason: null,
  retryAt: null,
  probeLeaseUntil: null,
  pausedAt: null,
  pauseReason: null,
  ...fields,
});
const r = (statusCode: number | null, errorClass: AttemptResult['errorClass'] = statusCode !== null && statusCode < 300 ? null : 'http', retryAfter: string | null = null): AttemptResult => ({
  statusCode,
  errorClass,
  errorMessage: null,
  retryAfter,
  durationMs: 1,
});

/** Applies a decision to an in-memory row, as the guarded UPDATE would. */
function step(row: EndpointRow, result: AttemptResult, now: Date): EndpointRow {
  const decision = decideAfterAttempt(row, result, now, S);
  return decision.kind === 'none' ? row : { ...row, ...decision.change };
}

describe('effective state', () => {
  test('Disabled is enabled = false whatever the delivery state', () => {
    expect(effectiveState(endpoint({ enabled: false, deliveryState: 'paused' }))).toBe('disabled');
    expect(effectiveState(endpoint({ deliveryState: 'retrying' }))).toBe('retrying');
  });
});

describe('Active → Retrying on repeated delivery failures', () => {
  test('one failure keeps it Active (counted), the second makes it Retrying with a next retry time', () => {
    const once = step(endpoint(), r(500), T0);
    expect(once).toMatchObject({ deliveryState: 'active', consecutiveFailures: 1, failingSince: T0 });
    const twice = step(once, r(503), at(5_000));
    expect(twice).toMatchObject({ deliveryState: 'retrying', consecutiveFailures: 2, failingSince: T0, retryAt: at(10_000) });
  });
  test('a 2xx in Active after one failure clears the count', () => {
    expect(step(step(endpoint(), r(500), T0), r(200), at(1000))).toMatchObject({ deliveryState: 'active', consecutiveFailures: 0, failingSince: null });
  });
  test('a clean Active endpoint is not written on success (no row churn under load)', () => {
    expect(decideAfterAttempt(endpoint(), r(200), T0, S)).toEqual({ kind: 'none' });
  });
  test('the probe spacing grows 5 s, 10 s, 20 s … and is capped at 10 min', () => {
    let row = step(step(endpoint(), r(500), T0), r(500), T0);
    const gaps: number[] = [row.retryAt!.getTime() - T0.getTime()];
    for (let i = 0; i < 10; i++) {
      row = step(row, r(500), T0);
      gaps.push(row.retryAt!.getTime() - T0.getTime());
    }
    expect(gaps).toEqual([5_000, 10_000, 20_000, 40_000, 80_000, 160_000, 320_000, 600_000, 600_000, 600_000, 600_000]);
  });
  test('Retry-After on 429/503 spaces the next request (up to 1 h)', () => {
    const row = step(step(endpoint(), r(500), T0), r(429, 'http', '7200'), T0);
    expect(row.retryAt).toEqual(at(HOUR));
  });
});

describe('Retrying → Active when the endpoint returns 2xx', () => {
  test('normal pacing resumes and the failure clocks reset', () => {
    const retrying = endpoint({ deliveryState: 'retrying', consecutiveFailures: 7, failingSince: T0, rejectingSince: T0, retryAt: at(HOUR), probeLeaseUntil: at(HOUR) });
    expect(step(retrying, r(204), at(2 * HOUR))).toMatchObject({ deliveryState: 'active', consecutiveFailures: 0, failingSince: null, rejectingSince: null, retryAt: null, probeLeaseUntil: null });
  });
});

describe('Retrying → Paused after rejections lasting at least 1 hour', () => {
  const retrying = (since: Date) => endpoint({ deliveryState: 'retrying', consecutiveFailures: 5, failingSince: since, rejectingSince: since });
  for (const status of [401, 403, 404, 410]) {
    test(`HTTP ${status}: still Retrying at 59:59, Paused at 1:00:00`, () => {
      expect(step(retrying(T0), r(status), at(HOUR - 1000)).deliveryState).toBe('retrying');
      const paused = step(retrying(T0), r(status), at(HOUR));
      expect(paused).toMatchObject({ deliveryState: 'paused', pausedAt: at(HOUR) });
      expect(paused.pauseReason).toContain(`HTTP ${status}`);
      expect(paused.pauseReason).toContain('1 hour');
    });
  }
  test('a non-public destination is a rejection too', () => {
    expect(step(retrying(T0), r(null, 'destination'), at(HOUR)).deliveryState).toBe('paused');
  });
  test('a 5xx in between restarts the rejection clock (rejections must last the hour)', () => {
    const mixed = step(retrying(T0), r(500), at(30 * MIN));
    expect(mixed.rejectingSince).toBeNull();
    const rejectedAgain = step(mixed, r(404), at(31 * MIN));
    expect(rejectedAgain.rejectingSince).toEqual(at(31 * MIN));
    expect(step(rejectedAgain, r(404), at(HOUR + 30 * MIN)).deliveryState).toBe('retrying');
    expect(step(rejectedAgain, r(404), at(HOUR + 31 * MIN)).deliveryState).toBe('paused');
  });
});

describe('Retrying → Paused after other failures lasting at least 24 hours', () => {
  const retrying = endpoint({ deliveryState: 'retrying', consecutiveFailures: 100, failingSince: T0 });
  const kinds: [string, AttemptResult][] = [
    ['5xx', r(502)],
    ['timeout', r(null, 'timeout')],
    ['connection', r(null, 'connection')],
    ['TLS', r(null, 'tls')],
    ['DNS', r(null, 'dns')],
  ];
  for (const [name, result] of kinds) {
    test(`${name}: still Retrying at 23:59:59, Paused at 24:00:00`, () => {
      expect(step(retrying, result, at(24 * HOUR - 1000)).deliveryState).toBe('retrying');
      const paused = step(retrying, result, at(24 * HOUR));
      expect(paused.deliveryState).toBe('paused');
      expect(paused.pauseReason).toContain('24 hours');
    });
  }
  test('a 5xx lasting 2 hours does not pause (the 1 h rule is for rejections only)', () => {
    expect(step(retrying, r(500), at(2 * HOUR)).deliveryState).toBe('retrying');
  });
});

describe('Paused and Disabled change only by an operator action', () => {
  test('a response still in flight when the endpoint paused does not resume it', () => {
    expect(decideAfterAttempt(endpoint({ deliveryState: 'paused', pausedAt: T0 }), r(200), at(1000), S)).toEqual({ kind: 'none' });
  });
  test('nor does it change a disabled endpoint', () => {
    expect(decideAfterAttempt(endpoint({ enabled: false }), r(500), at(1000), S)).toEqual({ kind: 'none' });
  });
});
