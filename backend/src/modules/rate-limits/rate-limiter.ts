/**
 * Per-tenant rate limits (spec "Limits"): fixed 60 s windows aligned to
 * the clock, one bucket per tenant and endpoint shared by all the tenant's keys, counted in the
 * database with one atomic upsert so that every backend instance counts in the same bucket.
 */
import { lt, sql } from 'drizzle-orm';
import type { Db } from '../../db/database';
import { rowsOf } from '../../db/rows-of';
import { rateLimitWindows } from '../../db/schema';
import { timestamptz } from '../../db/timestamptz';

export const RATE_LIMIT_WINDOW_SECONDS = 60;

/** Spec "Limits": 300 creates and 100 validations per 60 s per account; overrides per tenant. */
export const DEFAULT_LIMITS = { create: 300, validate: 100 } as const;
export type RateLimitBucket = keyof typeof DEFAULT_LIMITS;

/**
 * The verify UI's API is limited per session (its callers hold a session or handoff token, not an
 * API key): generous for a person and for status polling every 2 s, tight for a script.
 */
export const VERIFY_UI_LIMIT = 120;

/**
 * Buckets of the verify UI's API: `verify-ui` counts a session's authenticated calls,
 * `verify-ui-denied` the calls with a wrong token, so strangers never use up the user's bucket.
 */
export type VerifyUiBucket = 'verify-ui' | 'verify-ui-denied';

export interface RateLimitDecision {
  allowed: boolean;
  limit: number;
  remaining: number;
  /** Whole seconds until the window resets (≥ 1). */
  retryAfterSeconds: number;
}

export function windowStart(now: Date): Date {
  const ms = RATE_LIMIT_WINDOW_SECONDS * 1000;
  return new Date(Math.floor(now.getTime() / ms) * ms);
}

/** `subject` is the tenant id for the merchant API, the session id for the verify UI's API. */
export async function consume(db: Db, subject: string, bucket: RateLimitBucket | VerifyUiBucket, limit: number, now: Date): Promise<RateLimitDecision> {
  const start = windowStart(now);
  // Every request of a tenant increments this one row, so its lock is the queue all of them wait
  // in, and an ordinary commit holds it until the WAL is flushed to disk: the tenant's requests
  // would run one fsync at a time (issue 14). The count is committed without waiting for the
  // flush (synchronous_commit off for this statement's own transaction, set in the same statement
  // so it stays one round trip): the row lock is released at once, and the only cost is that a
  // database crash may forget the last fraction of a second of counts — harmless for a rate limit.
  const result = await db.execute(sql`
    with relaxed as (select set_config('synchronous_commit', 'off', true))
    insert into rate_limit_windows (subject, bucket, window_start, count)
    select ${subject}, ${bucket}, ${timestamptz(start)}, 1 from relaxed
    on conflict (subject, bucket, window_start) do update set count = rate_limit_windows.count + 1
    returning count`);
  const [row] = rowsOf<{ count: number }>(result);
  const used = Number(row!.count);
  const resetAt = start.getTime() + RATE_LIMIT_WINDOW_SECONDS * 1000;
  return {
    allowed: used <= limit,
    limit,
    remaining: Math.max(0, limit - used),
    retryAfterSeconds: Math.max(1, Math.ceil((resetAt - now.getTime()) / 1000)),
  };
}

export function rateLimitHeaders(decision: Pick<RateLimitDecision, 'limit' | 'remaining' | 'retryAfterSeconds' | 'allowed'>): Record<string, string> {
  const headers: Record<string, string> = {
    'x-ratelimit-limit': String(decision.limit),
    'x-ratelimit-window': String(RATE_LIMIT_WINDOW_SECONDS),
    'x-ratelimit-remaining': String(decision.remaining),
  };
  // Spec: X-RateLimit-Retry-After is present only on 429.
  if (!decision.allowed) headers['x-ratelimit-retry-after'] = String(decision.retryAfterSeconds);
  return headers;
}

/** Old windows are useless after they close; the sweeper deletes them. */
export async function deleteClosedWindows(db: Db, now: Date): Promise<void> {
  await db.delete(rateLimitWindows).where(lt(rateLimitWindows.windowStart, new Date(windowStart(now).getTime() - RATE_LIMIT_WINDOW_SECONDS * 1000)));
}
