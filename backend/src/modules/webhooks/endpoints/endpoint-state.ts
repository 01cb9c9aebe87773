/**
 * The webhook endpoint delivery state machine (spec "States and transitions", "Webhook endpoint
 * delivery"), in one place (docs/engineering-habits.md habit 3; diagram and rules in endpoint-state.md).
 *
 *   Active ──repeated failures──> Retrying ──2xx──> Active
 *   Retrying ──rejections ≥ 1 h / other failures ≥ 24 h──> Paused ──test and resume (2xx)──> Active
 *   Active | Retrying | Paused ──disable──> Disabled ──re-enable──> Active
 *
 * The spec's Disabled is the configuration flag `enabled = false`; the other three live in
 * `delivery_state`. Decisions are pure (`decideAfterAttempt`); every transition is applied by one
 * guarded `UPDATE … WHERE delivery_state = <from>` in the caller's transaction, together with its
 * side effects (pausing settles queued deliveries and writes the notice and the one email).
 */
import { and, eq, inArray } from 'drizzle-orm';
import type { DbOrTx } from '../../../db/database';
import { webhookDeliveries, webhookEndpoints, webhookRedeliveries } from '../../../db/schema';
import { changedFields, recordAudit, systemAudit } from '../../audit';
import { resolveEndpointNotices } from '../../notifications/dashboard-notices';
import { classifyOutcome, exponentialDelay, retryAfterMs, type AttemptResult } from '../delivery/retry-policy';
import type { WebhookSettings } from '../settings';
import { enqueuePauseNotification } from './pause-notification';

const ENDPOINT_STATES = ['active', 'retrying', 'paused', 'disabled'] as const;
export type EndpointState = (typeof ENDPOINT_STATES)[number];
export type DeliveryState = Exclude<EndpointState, 'disabled'>;

export type EndpointRow = typeof webhookEndpoints.$inferSelect;

export function effectiveState(row: Pick<EndpointRow, 'enabled' | 'deliveryState'>): EndpointState {
  return row.enabled ? (row.deliveryState as DeliveryState) : 'disabled';
}

/** What the endpoint row looks like after the decision (only the fields that change). */
export interface EndpointChange {
  deliveryState: DeliveryState;
  consecutiveFailures: number;
  failingSince: Date | null;
  rejectingSince: Date | null;
  lastFailureAt?: Date;
  lastFailureReason?: string;
  retryAt: Date | null;
  probeLeaseUntil: null;
  pausedAt?: Date;
  pauseReason?: string;
}

export type EndpointDecision = { kind: 'none' } | { kind: 'update'; from: DeliveryState; change: EndpointChange };

/** A short human description of a failed attempt, for health and the pause reason. */
function describeFailure(result: AttemptResult): string {
  if (result.errorClass === 'http' || result.errorClass === 'redirect') return `HTTP ${result.statusCode}`;
  const labels: Record<string, string> = {
    timeout: 'timeout',
    connection: 'connection error',
    tls: 'TLS error',
    dns: 'DNS error',
    destination: 'non-public destination',
  };
  return labels[result.errorClass ?? ''] ?? 'failure';
}

/** After an attempt to the endpoint (its row read under FOR UPDATE): does its state change? */
export function decideAfterAttempt(endpoint: EndpointRow, result: AttemptResult, now: Date, settings: WebhookSettings): EndpointDecision {
  const state = effectiveState(endpoint);
  // Paused and Disabled change only by an operator's action (test and resume, enable), never by a
  // response that was already in flight.
  if (state === 'paused' || state === 'disabled') return { kind: 'none' };
  const outcome = classifyOutcome(result);

  if (outcome === 'success') {
    const clean =
      state === 'active' &&
      endpoint.consecutiveFailures === 0 &&
      endpoint.failingSince === null &&
      endpoint.retryAt === null &&
      endpoint.probeLeaseUntil === null;
    if (clean) return { kind: 'none' };
    // Retrying → Active: a 2xx ends the run; normal pacing resumes.
    return {
      kind: 'update',
      from: state,
      change: { deliveryState: 'active', consecutiveFailures: 0, failingSince: null, rejectingSince: null, retryAt: null, probeLeaseUntil: null },
    };
  }

  const failures = endpoint.consecutiveFailures + 1;
  // The pause clocks: the run of failures starts at the first failure after the last 2xx; the run
  // of rejections at the first rejection after anything else (docs/decisions/0014).
  const failingSince = endpoint.failingSince ?? now;
  const rejectingSince = outcome === 'rejection' ? (endpoint.rejectingSince ?? now) : null;
  const reason = describeFailure(result);
  const base = { consecutiveFailures: failures, failingSince, rejectingSince, lastFailureAt: now, lastFailureReason: reason, probeLeaseUntil: null } as const;

  if (state === 'retrying') {
    const rejectedFor = rejectingSince ? now.getTime() - rejectingSince.getTime() : 0;
    const failingFor = now.getTime() - failingSince.getTime();
    if (outcome === 'rejection' && rejectedFor >= settings.pauseAfterRejectionsMs) {
      return {
        kind: 'update',
        from: state,
        change: {
          ...base,
          deliveryState: 'paused',
          retryAt: null,
          pausedAt: now,
          pauseReason: `rejections (last: ${reason}) since ${rejectingSince!.toISOString()}, at least 1 hour`,
        },
      };
    }
    if (failingFor >= settings.pauseAfterFailuresMs) {
      return {
        kind: 'update',
        from: state,
        change: {
          ...base,
          deliveryState: 'paused',
          retryAt: null,
          pausedAt: now,
          pauseReason: `failures (last: ${reason}) since ${failingSince.toISOString()}, at least 24 hours`,
        },
      };
    }
  }

  const next: DeliveryState = state === 'retrying' || failures >= settings.failuresToRetrying ? 'retrying' : 'active';
  let retryAt: Date | null = null;
  if (next === 'retrying') {
    // One request at a time, spaced by capped exponential backoff counted from entering Retrying,
    // or longer when the receiver asked for it (Retry-After, capped at 1 h).
    const n = Math.max(1, failures - settings.failuresToRetrying + 1);
    const delay = Math.max(exponentialDelay(n, settings.endpointFirstDelayMs, settings.endpointMaxDelayMs), retryAfterMs(result, now, settings) ?? 0);
    retryAt = new Date(now.getTime() + delay);
  }
  return { kind: 'update', from: state, change: { ...base, deliveryState: next, retryAt } };
}

/**
 * Applies a decision with the guarded UPDATE. Returns false when the row was no longer in the
 * expected state (an operator acted meanwhile); the caller then leaves the endpoint alone.
 */
export async function applyEndpointDecision(tx: DbOrTx, endpoint: EndpointRow, decision: EndpointDecision, now: Date): Promise<boolean> {
  if (decision.kind === 'none') return true;
  const updated = await tx
    .update(webhookEndpoints)
    .set(decision.change)
    .where(and(eq(webhookEndpoints.id, endpoint.id), eq(webhookEndpoints.enabled, true), eq(webhookEndpoints.deliveryState, decision.from)))
    .returning({ id: webhookEndpoints.id });
  if (updated.length === 0) return false;
  if (decision.change.deliveryState === 'paused') await onPaused(tx, endpoint, decision.change, now);
  return true;
}

/**
 * Side effects of Retrying → Paused, in the same transaction: queued deliveries are recorded as not
 * delivered (they stay redeliverable for 7 days), redeliveries in progress stop, the dashboard
 * notice and the one email per pause are written (spec "Webhook endpoint delivery"), and the audit
 * trail records the pause with the service as its actor (issue 23).
 */
async function onPaused(tx: DbOrTx, endpoint: EndpointRow, change: EndpointChange, now: Date): Promise<void> {
  await recordAudit(tx, systemAudit(now), {
    tenantId: endpoint.tenantId,
    action: 'endpoint.paused',
    targetId: endpoint.id,
    targetLabel: endpoint.url,
    changes: { ...changedFields({ state: endpoint.deliveryState }, { state: 'paused' }), reason: { from: null, to: change.pauseReason ?? null } },
  });
  await settlePending(tx, endpoint.id, 'endpoint_paused', now);
  await interruptRedeliveries(tx, endpoint.id, 'endpoint paused', now);
  await enqueuePauseNotification(
    tx,
    { tenantId: endpoint.tenantId, endpointId: endpoint.id, url: endpoint.url, pausedAt: change.pausedAt!, reason: change.pauseReason! },
    now,
  );
}

/** Pending deliveries of an endpoint become "not delivered" (pause, disable). */
async function settlePending(tx: DbOrTx, endpointId: string, reason: 'endpoint_paused' | 'endpoint_disabled', now: Date): Promise<number> {
  const rows = await tx
    .update(webhookDeliveries)
    .set({ status: 'undelivered', undeliveredReason: reason, settledAt: now })
    .where(and(eq(webhookDeliveries.endpointId, endpointId), eq(webhookDeliveries.status, 'pending')))
    .returning({ id: webhookDeliveries.id });
  return rows.length;
}

async function interruptRedeliveries(tx: DbOrTx, endpointId: string, note: string, now: Date): Promise<void> {
  await tx
    .update(webhookRedeliveries)
    .set({ status: 'interrupted', finishedAt: now, note })
    .where(and(eq(webhookRedeliveries.endpointId, endpointId), eq(webhookRedeliveries.status, 'waiting')));
}

const RESET = {
  consecutiveFailures: 0,
  failingSince: null,
  rejectingSince: null,
  retryAt: null,
  probeLeaseUntil: null,
  pausedAt: null,
  pauseReason: null,
} as const;

/** Active | Retrying | Paused → Disabled: new events and queued retries stop. Returns false if already disabled. */
export async function disableEndpoint(tx: DbOrTx, endpointId: string, now: Date): Promise<boolean> {
  const [row] = await tx
    .update(webhookEndpoints)
    .set({ enabled: false, probeLeaseUntil: null, retryAt: null })
    .where(and(eq(webhookEndpoints.id, endpointId), eq(webhookEndpoints.enabled, true)))
    .returning({ id: webhookEndpoints.id });
  if (!row) return false;
  await settlePending(tx, endpointId, 'endpoint_disabled', now);
  await interruptRedeliveries(tx, endpointId, 'endpoint disabled', now);
  return true;
}

/** Disabled → Active. Undelivered events stay redeliverable (spec: "Recent undelivered events can be redelivered"). */
export async function enableEndpoint(tx: DbOrTx, endpointId: string, now: Date): Promise<boolean> {
  const [row] = await tx
    .update(webhookEndpoints)
    .set({ enabled: true, deliveryState: 'active', ...RESET })
    .where(and(eq(webhookEndpoints.id, endpointId), eq(webhookEndpoints.enabled, false)))
    .returning({ id: webhookEndpoints.id });
  if (!row) return false;
  await resolveEndpointNotices(tx, endpointId, now);
  return true;
}

/**
 * Paused (or Retrying) → Active after a signed test event succeeded. Past events are not resent
 * (spec Delivery rule 11): nothing is re-armed here.
 */
export async function resumeEndpoint(tx: DbOrTx, endpointId: string, now: Date): Promise<boolean> {
  const [row] = await tx
    .update(webhookEndpoints)
    .set({ deliveryState: 'active', ...RESET })
    .where(and(eq(webhookEndpoints.id, endpointId), eq(webhookEndpoints.enabled, true), inArray(webhookEndpoints.deliveryState, ['paused', 'retrying'])))
    .returning({ id: webhookEndpoints.id });
  if (!row) return false;
  await resolveEndpointNotices(tx, endpointId, now);
  return true;
}

export async function readEndpoint(tx: DbOrTx, endpointId: string): Promise<EndpointRow | null> {
  const [row] = await tx.select().from(webhookEndpoints).where(eq(webhookEndpoints.id, endpointId));
  return row ?? null;
}

/** Locks and reads an endpoint row inside a transaction. */
export async function lockEndpoint(tx: DbOrTx, endpointId: string): Promise<EndpointRow | null> {
  const [row] = await tx.select().from(webhookEndpoints).where(eq(webhookEndpoints.id, endpointId)).for('update');
  return row ?? null;
}
