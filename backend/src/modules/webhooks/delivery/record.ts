/**
 * Recording one attempt, in one short transaction after the send: the attempt row, the delivery's
 * next step (delivered, retry at, not delivered; retry-policy.ts) and the endpoint's transition
 * (endpoints/endpoint-state.ts).
 *
 * Only the holder of the current lease token settles a failed row or releases its lease: a worker
 * whose lease ran out (a slow send) records its attempt but leaves the row to its new holder. A
 * 2xx is the truth whoever records it, so a success marks the row delivered in any case.
 */
import { eq, sql } from 'drizzle-orm';
import type { Db, DbOrTx } from '../../../db/database';
import { webhookAttempts, webhookDeliveries, webhookEndpoints } from '../../../db/schema';
import { timestamptz as at } from '../../../db/timestamptz';
import type { Logger } from '../../../log';
import { applyEndpointDecision, decideAfterAttempt, lockEndpoint, readEndpoint, type EndpointDecision, type EndpointRow } from '../endpoints/endpoint-state';
import { webhookId } from '../ids';
import type { WebhookSettings } from '../settings';
import type { ClaimedDelivery } from './claim';
import { classifyOutcome, nextDeliveryStep, type AttemptResult, type DeliveryPolicy, type Outcome } from './retry-policy';

export interface RecordDeps {
  db: Db;
  logger: Logger;
  settings: WebhookSettings;
  workerId: string;
}

export async function recordAttempt(deps: RecordDeps, claimed: ClaimedDelivery, sentAt: Date, result: AttemptResult, now: Date): Promise<void> {
  const { settings } = deps;
  const outcome = classifyOutcome(result);
  await deps.db.transaction(async (tx) => {
    const endpointStep = await endpointAfterAttempt(tx, claimed, result, outcome, now, settings);
    if (!endpointStep) return; // removed while in flight: its deliveries went with it
    if (!(await settleDelivery(tx, claimed, result, outcome, now, settings))) return;
    await tx.insert(webhookAttempts).values({
      id: webhookId('attempt'),
      tenantId: claimed.tenantId,
      endpointId: claimed.endpointId,
      deliveryId: claimed.deliveryId,
      eventId: claimed.eventId,
      purpose: 'delivery',
      attemptNumber: claimed.totalAttempts + 1,
      url: claimed.url,
      startedAt: sentAt,
      durationMs: result.durationMs,
      statusCode: result.statusCode,
      errorClass: result.errorClass,
      errorMessage: result.errorMessage?.slice(0, 1000) ?? result.responseSnippet?.slice(0, settings.responseSnippetBytes) ?? null,
      outcome,
      workerId: deps.workerId,
    });
    const { endpoint, decision, releaseProbe } = endpointStep;
    const applied = await applyEndpointDecision(tx, endpoint, decision, now);
    if ((decision.kind === 'none' || !applied) && releaseProbe) {
      await tx.update(webhookEndpoints).set({ probeLeaseUntil: null }).where(eq(webhookEndpoints.id, endpoint.id));
    }
  });
  if (outcome !== 'success') {
    deps.logger.info('webhook attempt failed', {
      deliveryId: claimed.deliveryId,
      eventId: claimed.eventId,
      endpointId: claimed.endpointId,
      statusCode: result.statusCode,
      errorClass: result.errorClass,
    });
  }
}

interface EndpointStep {
  endpoint: EndpointRow;
  decision: EndpointDecision;
  /** This was the Retrying endpoint's one request: its probe lease goes with this record. */
  releaseProbe: boolean;
}

/** The endpoint row and what the attempt does to its state; null when the endpoint is gone. */
async function endpointAfterAttempt(
  tx: DbOrTx,
  claimed: ClaimedDelivery,
  result: AttemptResult,
  outcome: Outcome,
  now: Date,
  settings: WebhookSettings,
): Promise<EndpointStep | null> {
  // The endpoint row is locked only when its state may change. A success to an endpoint with
  // nothing to reset (the common case) leaves it alone, so that concurrent records and claims
  // for one busy endpoint do not queue behind its row lock.
  let endpoint = outcome === 'success' ? await readEndpoint(tx, claimed.endpointId) : await lockEndpoint(tx, claimed.endpointId);
  if (!endpoint) return null;
  let decision = decideAfterAttempt(endpoint, result, now, settings);
  const releaseProbe = claimed.probe && endpoint.probeLeaseUntil !== null;
  if (outcome === 'success' && (decision.kind !== 'none' || releaseProbe)) {
    endpoint = await lockEndpoint(tx, claimed.endpointId);
    if (!endpoint) return null;
    decision = decideAfterAttempt(endpoint, result, now, settings);
  }
  return { endpoint, decision, releaseProbe };
}

/** The delivery row's next step. Returns false when the row is gone (nothing left to record against). */
async function settleDelivery(
  tx: DbOrTx,
  claimed: ClaimedDelivery,
  result: AttemptResult,
  outcome: Outcome,
  now: Date,
  settings: WebhookSettings,
): Promise<boolean> {
  const counts = { attempts: sql`${webhookDeliveries.attempts} + 1`, totalAttempts: sql`${webhookDeliveries.totalAttempts} + 1` };
  // Only the holder of the current lease releases it; a worker whose lease ran out does not.
  const releaseLease = {
    leaseUntil: sql`case when ${webhookDeliveries.leaseToken} = ${claimed.leaseToken} then null else ${webhookDeliveries.leaseUntil} end`,
    leasedBy: sql`case when ${webhookDeliveries.leaseToken} = ${claimed.leaseToken} then null else ${webhookDeliveries.leasedBy} end`,
  };
  if (outcome === 'success') {
    // Delivered is the truth even if the row was settled meanwhile (disabled while in flight).
    const [updated] = await tx
      .update(webhookDeliveries)
      .set({
        status: 'delivered',
        undeliveredReason: null,
        deliveredAt: sql`coalesce(${webhookDeliveries.deliveredAt}, ${at(now)})`,
        settledAt: sql`coalesce(${webhookDeliveries.deliveredAt}, ${at(now)})`,
        ...counts,
        ...releaseLease,
      })
      .where(eq(webhookDeliveries.id, claimed.deliveryId))
      .returning({ id: webhookDeliveries.id });
    return Boolean(updated);
  }
  const [delivery] = await tx.select().from(webhookDeliveries).where(eq(webhookDeliveries.id, claimed.deliveryId)).for('update');
  if (!delivery) return false;
  // A settled row (delivered by another holder, or settled by a pause or a disable) keeps its
  // status; so does a row whose lease was taken over: its new holder decides.
  let set: Partial<typeof webhookDeliveries.$inferInsert> = {};
  if (delivery.status === 'pending' && delivery.leaseToken === claimed.leaseToken) {
    const step = nextDeliveryStep(
      { policy: delivery.policy as DeliveryPolicy, attempts: delivery.attempts + 1, deadlineAt: delivery.deadlineAt },
      result,
      now,
      settings,
    );
    set =
      step.kind === 'retry'
        ? { nextAttemptAt: step.at }
        : step.kind === 'undelivered'
          ? { status: 'undelivered', undeliveredReason: step.reason, settledAt: now }
          : { status: 'delivered', deliveredAt: now, settledAt: now };
  }
  await tx
    .update(webhookDeliveries)
    .set({ ...set, ...counts, ...releaseLease })
    .where(eq(webhookDeliveries.id, delivery.id));
  return true;
}
