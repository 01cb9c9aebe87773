/**
 * Recording attempts after the send. The common case, a 2xx from an endpoint with nothing to reset
 * (Active, no failures, no probe), is recorded for a whole batch in one statement
 * (`recordAttempts`): the deliveries marked delivered and their attempt rows inserted together.
 * Everything else (a failure, a Retrying endpoint's probe, an endpoint whose state may change) is
 * recorded one attempt at a time (`recordAttempt`), in one short transaction: the attempt row, the
 * delivery's next step (delivered, retry at, not delivered; retry-policy.ts) and the endpoint's
 * transition (endpoints/endpoint-state.ts), under the endpoint's row lock.
 *
 * Only the holder of the current lease token settles a failed row or releases its lease: a worker
 * whose lease ran out (a slow send) records its attempt but leaves the row to its new holder. A
 * 2xx is the truth whoever records it, so a success marks the row delivered in any case.
 */
import { eq, sql } from 'drizzle-orm';
import type { Db, DbOrTx } from '../../../db/database';
import { rowsOf } from '../../../db/rows-of';
import { webhookAttempts, webhookDeliveries, webhookEndpoints } from '../../../db/schema';
import { timestamptz as at } from '../../../db/timestamptz';
import { describeError, type Logger } from '../../../log';
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

/** One finished send, waiting to be recorded. */
export interface FinishedAttempt {
  claimed: ClaimedDelivery;
  sentAt: Date;
  result: AttemptResult;
}

/**
 * Records a batch of finished attempts. 2xx answers of endpoints with nothing to reset go in one
 * statement; the rest (and the whole batch, should that statement fail, e.g. a deadlock with a
 * concurrent disable) go through `recordAttempt`, one transaction each, exactly as before
 * batching.
 */
export async function recordAttempts(deps: RecordDeps, finished: FinishedAttempt[], now: Date): Promise<void> {
  if (finished.length === 0) return;
  const successes = finished.filter((f) => !f.claimed.probe && classifyOutcome(f.result) === 'success');
  let fast: FinishedAttempt[] = [];
  if (successes.length > 0) {
    try {
      fast = await recordSuccesses(deps, successes, now);
    } catch (error) {
      deps.logger.warn('batched webhook record failed; recording one at a time', { attempts: successes.length, ...describeError(error) });
      fast = [];
    }
  }
  const recorded = new Set(fast);
  const rest = finished.filter((f) => !recorded.has(f));
  await Promise.all(
    rest.map((f) =>
      recordAttempt(deps, f.claimed, f.sentAt, f.result, now).catch((error: unknown) =>
        deps.logger.error('webhook delivery could not be recorded', { deliveryId: f.claimed.deliveryId, ...describeError(error) }),
      ),
    ),
  );
}

/**
 * 2xx answers, in one statement: only those whose endpoint is Active with nothing to reset (the
 * state machine's decision for them is "none", endpoint-state.ts `decideAfterAttempt`); the
 * endpoint is read without a lock, as `recordAttempt` does for a success. Each delivery becomes
 * delivered whoever holds it now (a 2xx is the truth); only the holder of the current lease token
 * releases the lease. A delivery that is gone (its endpoint was removed in flight) gets no
 * attempt row. Rows are locked in id order, so two batches never wait on each other in a cycle.
 * Returns the attempts recorded here; the caller records the others one by one.
 */
async function recordSuccesses(deps: RecordDeps, successes: FinishedAttempt[], now: Date): Promise<FinishedAttempt[]> {
  const { settings } = deps;
  const endpointIds = [...new Set(successes.map((f) => f.claimed.endpointId))];
  const clean = new Set(
    rowsOf<{ id: string }>(
      await deps.db.execute(sql`
        select e.id from webhook_endpoints e
        where e.id in (select value from json_array_elements_text(${JSON.stringify(endpointIds)}::json))
          and e.enabled and e.delivery_state = 'active' and e.consecutive_failures = 0
          and e.failing_since is null and e.retry_at is null and e.probe_lease_until is null`),
    ).map((row) => row.id),
  );
  const fast = successes.filter((f) => clean.has(f.claimed.endpointId));
  if (fast.length === 0) return [];
  const input = fast.map((f) => ({
    delivery_id: f.claimed.deliveryId,
    lease_token: f.claimed.leaseToken,
    attempt_id: webhookId('attempt'),
    tenant_id: f.claimed.tenantId,
    endpoint_id: f.claimed.endpointId,
    event_id: f.claimed.eventId,
    attempt_number: f.claimed.totalAttempts + 1,
    url: f.claimed.url,
    started_at: f.sentAt.toISOString(),
    duration_ms: f.result.durationMs,
    status_code: f.result.statusCode,
    error_message: f.result.responseSnippet?.slice(0, settings.responseSnippetBytes) ?? null,
  }));
  await deps.db.execute(sql`
    with input as (
      select * from json_to_recordset(${JSON.stringify(input)}::json) as x(
        delivery_id text, lease_token integer, attempt_id text, tenant_id text, endpoint_id text, event_id text,
        attempt_number integer, url text, started_at timestamptz, duration_ms integer, status_code integer, error_message text)),
    locked as (
      select d.id from webhook_deliveries d where d.id in (select delivery_id from input) order by d.id for update),
    updated as (
      update webhook_deliveries d
      set status = 'delivered', undelivered_reason = null,
          delivered_at = coalesce(d.delivered_at, ${at(now)}), settled_at = coalesce(d.delivered_at, ${at(now)}),
          attempts = d.attempts + 1, total_attempts = d.total_attempts + 1,
          lease_until = case when d.lease_token = x.lease_token then null else d.lease_until end,
          leased_by = case when d.lease_token = x.lease_token then null else d.leased_by end
      from input x
      where d.id = x.delivery_id and d.id in (select id from locked)
      returning d.id)
    insert into webhook_attempts (id, tenant_id, endpoint_id, delivery_id, event_id, purpose, attempt_number, url,
                                  started_at, duration_ms, status_code, error_class, error_message, outcome, worker_id)
    select x.attempt_id, x.tenant_id, x.endpoint_id, x.delivery_id, x.event_id, 'delivery', x.attempt_number, x.url,
           x.started_at, x.duration_ms, x.status_code, null, x.error_message, 'success', ${deps.workerId}
    from input x join updated u on u.id = x.delivery_id`);
  return fast;
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
