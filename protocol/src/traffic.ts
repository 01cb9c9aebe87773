/**
 * The dashboard's traffic figures (issue 23, Deliver 2; docs/dashboard-api.md "Traffic"): sessions
 * per day by status, the session funnel with the L1 → document step-up, and webhook deliveries per
 * day with their latency. Days are UTC calendar days, written `YYYY-MM-DD`.
 */
import type { DashboardSessionStatus, DeliveryStateName } from './dashboard';

/** The period asked for with `?days=`: this many UTC days up to and including today. */
export const TRAFFIC_DAYS_DEFAULT = 30;
export const TRAFFIC_DAYS_MAX = 90;

export interface TrafficPeriod {
  days: number;
  /** First day of the period. */
  from: string;
  /** Last day of the period (today, UTC). */
  to: string;
}

/**
 * The funnel's steps, in order. Each counts the period's sessions that reached the step, on its
 * own (docs/dashboard-api.md says what each step means and where a step can be skipped).
 */
export const FUNNEL_STEPS = ['created', 'opened', 'captured', 'decided', 'validated'] as const;
export type FunnelStep = (typeof FUNNEL_STEPS)[number];
export type SessionFunnel = Record<FunnelStep, number>;

/** L1 sessions that went on to an ID document (decision "L1 decision"), and how those ended. */
export interface StepUpFigures {
  /** L1 sessions created in the period. */
  l1Sessions: number;
  /** Of those, the ones whose face age estimate reached a decision: verified, stepped up, or failed. */
  estimated: number;
  /** Of the estimated, the ones whose estimate was inconclusive and that continued with a document. */
  steppedUp: number;
  /** Of the stepped-up ones, those that reached a decision (verified or failed; not cancelled, not expired). */
  finished: number;
  /** Of the finished ones, those verified. */
  verified: number;
}

export type SessionStatusCounts = Record<DashboardSessionStatus, number>;

export interface SessionsOnDay {
  day: string;
  counts: SessionStatusCounts;
  total: number;
}

/** `GET /stats/sessions?days=&sandbox=` */
export interface SessionTrafficResponse {
  period: TrafficPeriod;
  /** The `sandbox` filter as applied: null for live and sandbox together. */
  sandbox: boolean | null;
  /** One entry per day of the period, oldest first, days without sessions included. */
  perDay: SessionsOnDay[];
  totals: SessionsOnDay['counts'] & { total: number };
  funnel: SessionFunnel;
  stepUp: StepUpFigures;
}

export type DeliveryStateCounts = Record<DeliveryStateName, number>;

export interface DeliveriesOnDay {
  day: string;
  /** Deliveries (one per event and endpoint) created that day, by their state now. */
  counts: DeliveryStateCounts;
  total: number;
  /** Requests sent to the endpoint(s) that day, and how many of those got no 2xx. */
  attempts: number;
  failedAttempts: number;
  /** Of the day's requests that have a duration, in whole milliseconds; null when none has. */
  latencyMedianMs: number | null;
  latencyP95Ms: number | null;
}

/** `GET /stats/webhooks?days=&endpointId=` */
export interface WebhookTrafficResponse {
  period: TrafficPeriod;
  /** The endpoint asked for, or null for all the tenant's endpoints. */
  endpointId: string | null;
  /** Delivered deliveries and their attempts are removed this many days after delivery (WEBHOOK_RETENTION_DAYS). */
  retentionDays: number;
  perDay: DeliveriesOnDay[];
  totals: Omit<DeliveriesOnDay, 'day'>;
}
