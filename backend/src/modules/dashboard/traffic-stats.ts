/**
 * The dashboard's traffic figures (issue 23, Deliver 2): what the overview's and the webhook
 * pages' charts show. The rules, in one place (docs/dashboard-api.md "Traffic" says the same to
 * the API's readers):
 *
 * - The period is `days` UTC calendar days up to and including today; a session or delivery
 *   belongs to the day it was created, an attempt to the day it started.
 * - A session's status is the dashboard's (session-routes.ts): its state, with a cancelled session
 *   (FAILED, outcome `cancelled`) apart; a PENDING session past its deadline counts as EXPIRED
 *   already, as validation and the verify UI treat it, before the sweeper has written it.
 * - Funnel steps, each counted on its own among the period's sessions:
 *   created (all); opened (the verify UI loaded it while PENDING: `opened_at`, verify/service.ts);
 *   captured (the engine measured at least one capture: a retry or a decision was counted);
 *   decided (VERIFIED, or FAILED other than cancelled); validated (the merchant's validation used it).
 *   A sandbox outcome chosen through the simulate API is decided without a capture, and a
 *   cancelled session can be validated without a decision, so a step can exceed the one before it.
 * - Step-up: L1 sessions whose face estimate reached a decision (`check_decisions > 0`: the first
 *   decision of an L1 session is the estimate's), those that went on to an ID document
 *   (`check_stage = 'document'`, engine/checks/check-service.ts), those of them that reached a decision,
 *   and those verified.
 * - Webhooks: deliveries (one per event and endpoint) by their state now; attempts are every
 *   request sent to an endpoint, dashboard tests included; latency is the median and the 95th
 *   percentile of the attempts' durations (an attempt refused before a request has none).
 *
 * One SQL aggregate per figure, the same text on PGlite and PostgreSQL (FILTER, percentile_cont,
 * to_char on the UTC wall time); on sessions_tenant_created_idx and the webhook tables' endpoint
 * indexes, so a query reads the period's rows only.
 */
import { type SQL, sql } from 'drizzle-orm';
import {
  DASHBOARD_SESSION_STATUSES,
  type DashboardSessionStatus,
  type DeliveriesOnDay,
  type DeliveryStateName,
  type SessionTrafficResponse,
  type StepUpFigures,
  TRAFFIC_DAYS_DEFAULT,
  TRAFFIC_DAYS_MAX,
  type TrafficPeriod,
  type WebhookTrafficResponse,
} from '@ageverify/protocol';
import type { Db } from '../../db/database';
import { rowsOf } from '../../db/rows-of';
import { timestamptz } from '../../db/timestamptz';
import { defineErrors } from '../../errors/app-error';

export const TRAFFIC_ERRORS = defineErrors({
  DAYS_INVALID: {
    status: 400,
    message: (p: { given: string }) => `days must be a whole number from 1 to ${TRAFFIC_DAYS_MAX} (got "${p.given}")`,
  },
});

const DAY_MS = 24 * 60 * 60 * 1000;
const DELIVERY_STATES: readonly DeliveryStateName[] = ['delivered', 'undelivered', 'pending'];

/** `?days=`: absent means the default; anything but a whole number within the bounds is refused. */
export function parseDays(raw: string | undefined): number {
  if (raw === undefined) return TRAFFIC_DAYS_DEFAULT;
  const days = /^\d{1,3}$/.test(raw) ? Number(raw) : Number.NaN;
  if (!(days >= 1 && days <= TRAFFIC_DAYS_MAX)) throw TRAFFIC_ERRORS.DAYS_INVALID({ given: raw.slice(0, 20) });
  return days;
}

export interface PeriodBounds {
  period: TrafficPeriod;
  /** Start of the first day, inclusive; end of today, exclusive. */
  start: Date;
  end: Date;
  /** Every day of the period, oldest first. */
  dayKeys: string[];
}

export function periodOf(now: Date, days: number): PeriodBounds {
  const today = Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate());
  const start = new Date(today - (days - 1) * DAY_MS);
  const dayKeys = Array.from({ length: days }, (_, i) => new Date(start.getTime() + i * DAY_MS).toISOString().slice(0, 10));
  return { period: { days, from: dayKeys[0]!, to: dayKeys.at(-1)! }, start, end: new Date(today + DAY_MS), dayKeys };
}

/** The UTC calendar day of a timestamptz column, as `YYYY-MM-DD`. */
const dayOf = (column: SQL) => sql`to_char(${column} at time zone 'UTC', 'YYYY-MM-DD')`;
/** A decision was reached: verified, or failed for a reason other than the user's cancel. */
const DECIDED = sql`(state = 'VERIFIED' or (state = 'FAILED' and coalesce(outcome, '') <> 'cancelled'))`;
const STEPPED_UP = sql`(verification_mode = 'L1' and check_stage = 'document')`;

function zeroStatuses(): Record<DashboardSessionStatus, number> {
  return Object.fromEntries(DASHBOARD_SESSION_STATUSES.map((status) => [status, 0])) as Record<DashboardSessionStatus, number>;
}

function zeroDeliveries(): Record<DeliveryStateName, number> {
  return Object.fromEntries(DELIVERY_STATES.map((state) => [state, 0])) as Record<DeliveryStateName, number>;
}

export async function sessionTraffic(db: Db, tenantId: string, now: Date, days: number, sandbox: boolean | null): Promise<SessionTrafficResponse> {
  const { period, start, end, dayKeys } = periodOf(now, days);
  const inPeriod = sql`tenant_id = ${tenantId} and created_at >= ${timestamptz(start)} and created_at < ${timestamptz(end)}
    ${sandbox === null ? sql`` : sql`and sandbox = ${sandbox}`}`;
  const status = sql`case
      when state = 'PENDING' and expires_at <= ${timestamptz(now)} then 'EXPIRED'
      when state = 'FAILED' and outcome = 'cancelled' then 'CANCELLED'
      else state end`;
  const perStatus = rowsOf<{ day: string; status: DashboardSessionStatus; sessions: number }>(
    await db.execute(sql`
      select ${dayOf(sql`created_at`)} as day, ${status} as status, count(*)::int as sessions
      from sessions where ${inPeriod}
      group by 1, 2`),
  );
  const [funnel] = rowsOf<Record<string, number>>(
    await db.execute(sql`
      select count(*)::int as created,
        count(*) filter (where opened_at is not null)::int as opened,
        count(*) filter (where check_retries > 0 or check_decisions > 0)::int as captured,
        count(*) filter (where ${DECIDED})::int as decided,
        count(*) filter (where validated_at is not null)::int as validated,
        count(*) filter (where verification_mode = 'L1')::int as l1_sessions,
        count(*) filter (where verification_mode = 'L1' and check_decisions > 0)::int as l1_estimated,
        count(*) filter (where ${STEPPED_UP})::int as stepped_up,
        count(*) filter (where ${STEPPED_UP} and ${DECIDED})::int as step_up_finished,
        count(*) filter (where ${STEPPED_UP} and state = 'VERIFIED')::int as step_up_verified
      from sessions where ${inPeriod}`),
  );

  const byDay = new Map(dayKeys.map((day) => [day, zeroStatuses()]));
  const totals = { ...zeroStatuses(), total: 0 };
  for (const row of perStatus) {
    const counts = byDay.get(row.day);
    const n = Number(row.sessions);
    if (!counts) continue;
    counts[row.status] += n;
    totals[row.status] += n;
    totals.total += n;
  }
  const figure = (name: string) => Number(funnel?.[name] ?? 0);
  const stepUp: StepUpFigures = {
    l1Sessions: figure('l1_sessions'),
    estimated: figure('l1_estimated'),
    steppedUp: figure('stepped_up'),
    finished: figure('step_up_finished'),
    verified: figure('step_up_verified'),
  };
  return {
    period,
    sandbox,
    perDay: dayKeys.map((day) => {
      const counts = byDay.get(day)!;
      return { day, counts, total: Object.values(counts).reduce((sum, n) => sum + n, 0) };
    }),
    totals,
    funnel: {
      created: figure('created'),
      opened: figure('opened'),
      captured: figure('captured'),
      decided: figure('decided'),
      validated: figure('validated'),
    },
    stepUp,
  };
}

interface AttemptFigures {
  attempts: number;
  failed_attempts: number;
  median_ms: number | null;
  p95_ms: number | null;
}

const wholeMs = (value: number | string | null) => (value === null ? null : Math.round(Number(value)));

export async function webhookTraffic(
  db: Db,
  tenantId: string,
  now: Date,
  days: number,
  endpointId: string | null,
  retentionDays: number,
): Promise<WebhookTrafficResponse> {
  const { period, start, end, dayKeys } = periodOf(now, days);
  const ofEndpoint = endpointId === null ? sql`` : sql`and endpoint_id = ${endpointId}`;
  const deliveries = rowsOf<{ day: string; status: DeliveryStateName; deliveries: number }>(
    await db.execute(sql`
      select ${dayOf(sql`created_at`)} as day, status, count(*)::int as deliveries
      from webhook_deliveries
      where tenant_id = ${tenantId} ${ofEndpoint} and created_at >= ${timestamptz(start)} and created_at < ${timestamptz(end)}
      group by 1, 2`),
  );
  const attemptsOf = (grouped: boolean) => sql`
      select ${grouped ? sql`${dayOf(sql`started_at`)} as day,` : sql``}
        count(*)::int as attempts,
        count(*) filter (where outcome <> 'success')::int as failed_attempts,
        percentile_cont(0.5) within group (order by duration_ms) as median_ms,
        percentile_cont(0.95) within group (order by duration_ms) as p95_ms
      from webhook_attempts
      where tenant_id = ${tenantId} ${ofEndpoint} and started_at >= ${timestamptz(start)} and started_at < ${timestamptz(end)}
      ${grouped ? sql`group by 1` : sql``}`;
  const attemptsPerDay = rowsOf<AttemptFigures & { day: string }>(await db.execute(attemptsOf(true)));
  const [attemptTotals] = rowsOf<AttemptFigures>(await db.execute(attemptsOf(false)));

  const byDay = new Map<string, DeliveriesOnDay>(
    dayKeys.map((day) => [day, { day, counts: zeroDeliveries(), total: 0, attempts: 0, failedAttempts: 0, latencyMedianMs: null, latencyP95Ms: null }]),
  );
  const totals: WebhookTrafficResponse['totals'] = {
    counts: zeroDeliveries(),
    total: 0,
    attempts: Number(attemptTotals?.attempts ?? 0),
    failedAttempts: Number(attemptTotals?.failed_attempts ?? 0),
    latencyMedianMs: wholeMs(attemptTotals?.median_ms ?? null),
    latencyP95Ms: wholeMs(attemptTotals?.p95_ms ?? null),
  };
  for (const row of deliveries) {
    const entry = byDay.get(row.day);
    const n = Number(row.deliveries);
    if (!entry || !DELIVERY_STATES.includes(row.status)) continue;
    entry.counts[row.status] += n;
    entry.total += n;
    totals.counts[row.status] += n;
    totals.total += n;
  }
  for (const row of attemptsPerDay) {
    const entry = byDay.get(row.day);
    if (!entry) continue;
    entry.attempts = Number(row.attempts);
    entry.failedAttempts = Number(row.failed_attempts);
    entry.latencyMedianMs = wholeMs(row.median_ms);
    entry.latencyP95Ms = wholeMs(row.p95_ms);
  }
  return { period, endpointId, retentionDays, perDay: dayKeys.map((day) => byDay.get(day)!), totals };
}
