/**
 * Retry policies, as pure decisions (docs/engineering-habits.md "Decide, then apply"; the dispatcher applies them).
 * Spec "Events", delivery rules 3–7:
 *
 * - completion (`verification.completed`): durable, capped exponential backoff, at most 10 minutes
 *   between attempts, for up to 24 hours, then recorded as not delivered (rule 3).
 * - timeout (`session.timeout`): durable, the configured attempt count (default 3), exponential
 *   delay scheduled at 5-second granularity, within the same 24-hour window (rule 4).
 * - in-request (the other kinds): the configured short sequence (default 3 attempts); rejections
 *   such as 401 or 404 end it at once (rule 5).
 * - Retry-After on 429 or 503 is honoured up to one hour (rule 7).
 */
import type { EventKind } from '@ageverify/protocol';
import type { WebhookSettings } from '../settings';

const DELIVERY_POLICIES = ['completion', 'timeout', 'in-request'] as const;
export type DeliveryPolicy = (typeof DELIVERY_POLICIES)[number];

export function policyFor(kind: EventKind): DeliveryPolicy {
  if (kind === 'verification.completed') return 'completion';
  if (kind === 'session.timeout') return 'timeout';
  return 'in-request';
}

/** How one attempt ended, as recorded (webhook_attempts.error_class; null for an HTTP response). */
export type ErrorClass = 'http' | 'redirect' | 'timeout' | 'connection' | 'tls' | 'dns' | 'destination';

export interface AttemptResult {
  /** HTTP status when a response arrived. */
  statusCode: number | null;
  /** null for a 2xx. */
  errorClass: ErrorClass | null;
  errorMessage: string | null;
  /** The raw Retry-After header of a 429 or 503, if any. */
  retryAfter: string | null;
  durationMs: number;
  responseSnippet?: string | null;
}

/**
 * Spec "Webhook endpoint delivery": rejections are HTTP 401, 403, 404, 410 and a non-public
 * destination; everything else that is not a 2xx is an "other failure" (5xx, timeout,
 * connection, TLS, DNS, and also 3xx, 4xx other than those, which the spec does not name).
 */
const REJECTION_STATUSES: readonly number[] = [401, 403, 404, 410];
export type Outcome = 'success' | 'rejection' | 'failure';

export function classifyOutcome(result: Pick<AttemptResult, 'statusCode' | 'errorClass'>): Outcome {
  if (result.statusCode !== null && result.statusCode >= 200 && result.statusCode < 300) return 'success';
  if (result.errorClass === 'destination') return 'rejection';
  if (result.statusCode !== null && REJECTION_STATUSES.includes(result.statusCode)) return 'rejection';
  return 'failure';
}

/**
 * The wait a receiver asked for, in ms, capped (rule 7), or null. Only 429 and 503 count.
 * Accepts delta-seconds and HTTP-dates (RFC 9110 §10.2.3).
 */
export function retryAfterMs(
  result: Pick<AttemptResult, 'statusCode' | 'retryAfter'>,
  now: Date,
  settings: Pick<WebhookSettings, 'retryAfterCapMs'>,
): number | null {
  if (result.statusCode !== 429 && result.statusCode !== 503) return null;
  const raw = result.retryAfter?.trim();
  if (!raw) return null;
  let ms: number;
  if (/^\d+$/.test(raw)) ms = Number(raw) * 1000;
  else {
    const at = Date.parse(raw);
    if (Number.isNaN(at)) return null;
    ms = at - now.getTime();
  }
  if (!Number.isFinite(ms) || ms <= 0) return null;
  return Math.min(ms, settings.retryAfterCapMs);
}

/** Capped exponential: first · 2^(n−1), n ≥ 1, never above max. */
export function exponentialDelay(n: number, firstMs: number, maxMs: number): number {
  const exponent = Math.min(Math.max(n - 1, 0), 40);
  return Math.min(firstMs * 2 ** exponent, maxMs);
}

/** Rounds a time up to the next multiple of `granularityMs` since the epoch (rule 4's 5-second granularity). */
function ceilTo(time: number, granularityMs: number): number {
  return Math.ceil(time / granularityMs) * granularityMs;
}

export interface DeliveryFacts {
  policy: DeliveryPolicy;
  /** Attempts made in this run, including the one just made. */
  attempts: number;
  deadlineAt: Date;
}

export type DeliveryStep = { kind: 'delivered' } | { kind: 'retry'; at: Date } | { kind: 'undelivered'; reason: 'rejected' | 'attempts_exhausted' | 'expired' };

/** What happens to one delivery after an attempt (the endpoint's own pacing is endpoints/endpoint-state.ts). */
export function nextDeliveryStep(delivery: DeliveryFacts, result: AttemptResult, now: Date, settings: WebhookSettings): DeliveryStep {
  const outcome = classifyOutcome(result);
  if (outcome === 'success') return { kind: 'delivered' };
  const t = now.getTime();
  let at: number;
  switch (delivery.policy) {
    case 'completion':
      at = t + exponentialDelay(delivery.attempts, settings.completionFirstDelayMs, settings.completionMaxDelayMs);
      break;
    case 'timeout':
      if (delivery.attempts >= settings.timeoutAttempts) return { kind: 'undelivered', reason: 'attempts_exhausted' };
      at = ceilTo(t + exponentialDelay(delivery.attempts, settings.timeoutGranularityMs, Number.MAX_SAFE_INTEGER), settings.timeoutGranularityMs);
      break;
    case 'in-request': {
      // Rule 5: rejections are not retried in-request.
      if (outcome === 'rejection') return { kind: 'undelivered', reason: 'rejected' };
      if (delivery.attempts >= settings.inRequestAttempts) return { kind: 'undelivered', reason: 'attempts_exhausted' };
      const delays = settings.inRequestDelaysMs;
      at = t + (delays[Math.min(delivery.attempts - 1, delays.length - 1)] ?? 0);
      break;
    }
  }
  const asked = retryAfterMs(result, now, settings);
  const deadline = delivery.deadlineAt.getTime();
  if (asked !== null) {
    // Honour the receiver's wait; if it reaches past the window, the window wins (rule 3/4: within 24 h).
    at = Math.max(at, t + asked);
    if (at > deadline) return { kind: 'undelivered', reason: 'expired' };
  }
  // Backoff alone never skips the window's last chance: the final attempt happens at the deadline.
  if (at > deadline) at = deadline;
  if (at <= t) return { kind: 'undelivered', reason: 'expired' };
  return { kind: 'retry', at: new Date(at) };
}
