/**
 * The dispatcher: claims due deliveries, sends them outside any transaction, records every attempt.
 *
 *   claim (short transaction: FOR UPDATE SKIP LOCKED, lease, commit)
 *     → send (no transaction open; 15 s at most)
 *       → record (short transaction: attempt row, delivery step, endpoint transition)
 *
 * Several instances run this against one PostgreSQL. A row is claimed by exactly one of them (row
 * locks with SKIP LOCKED, then a lease and a lease token committed before sending), so no attempt
 * is sent twice while instances are alive. A crash between claim and record leaves the lease to
 * run out (`leaseMs`, longer than the attempt timeout); the row is then claimed again and sent
 * again: a duplicate, never a loss (spec Delivery rule 1: at-least-once). The interrupted attempt
 * is recorded when the row is re-claimed.
 *
 * Pacing (spec "Webhook endpoint delivery", Delivery rule 6): deliveries to an Active endpoint are
 * claimed freely; a Retrying endpoint gets one request at a time: its row is locked, it must have
 * nothing in flight and its `retry_at` must have come, and the single claim takes a probe lease on
 * the endpoint row itself, so a concurrent claimer re-checking the row (PostgreSQL EvalPlanQual)
 * sees the lease and skips it. Active claims take FOR SHARE on the endpoint row, so they cannot
 * interleave with the transition to Retrying.
 */
import { hostname } from 'node:os';
import { and, eq, inArray, lte, sql } from 'drizzle-orm';
import type { EventKind } from '@ageverify/protocol';
import type { Clock } from '../../../clock';
import type { Db, DbOrTx } from '../../../db/database';
import { rowsOf } from '../../../db/rows-of';
import { events, webhookAttempts, webhookDeliveries, webhookEndpoints } from '../../../db/schema';
import { randomBase62 } from '../../../ids';
import type { Logger } from '../../../log';
import { fixBodyAtFirstSend } from '../envelope';
import { attemptDelivery } from './attempt';
import type { GuardOptions } from '../destinations/destination-guard';
import { applyEndpointDecision, decideAfterAttempt, lockEndpoint, readEndpoint } from '../endpoints/endpoint-state';
import { webhookId } from '../ids';
import { releaseRedeliveryBatches } from '../endpoints/redelivery';
import { classifyOutcome, nextDeliveryStep, type AttemptResult, type DeliveryPolicy } from './retry-policy';
import type { WebhookSettings } from '../settings';

export interface DispatcherDeps {
  db: Db;
  clock: Clock;
  logger: Logger;
  guard: GuardOptions;
  settings: WebhookSettings;
  /** Names this instance in leases and attempt rows. */
  workerId?: string;
}

export interface ClaimedDelivery {
  deliveryId: string;
  leaseToken: number;
  tenantId: string;
  eventId: string;
  endpointId: string;
  url: string;
  policy: DeliveryPolicy;
  totalAttempts: number;
  body: string;
  secret: string;
  /** The one request of a Retrying endpoint. */
  probe: boolean;
}

export interface DeliveredAttempt {
  claimed: ClaimedDelivery;
  result: AttemptResult;
}

const at = (date: Date) => sql`${date.toISOString()}::timestamptz`;

export function createDispatcher(deps: DispatcherDeps) {
  const { db, clock, logger, settings } = deps;
  const workerId = deps.workerId ?? `${hostname()}:${process.pid}:${randomBase62(6)}`;

  /** One short transaction: pick due rows, lease them, fix send-time bodies, commit. */
  async function claim(limit: number): Promise<ClaimedDelivery[]> {
    if (limit <= 0) return [];
    const now = clock.now();
    const leaseUntil = new Date(now.getTime() + settings.leaseMs);
    return db.transaction(async (tx) => {
      const picked: { id: string; interrupted: boolean; previousHolder: string | null; probe: boolean }[] = [];

      // Retrying endpoints first: at most one request each, and only with nothing in flight. A row
      // whose window closes before the endpoint's next allowed request is not sent (rule 3: up to
      // 24 h); housekeeping records it as not delivered.
      const probing = rowsOf<{ id: string }>(
        await tx.execute(sql`
          select e.id from webhook_endpoints e
          where e.enabled and e.delivery_state = 'retrying'
            and (e.retry_at is null or e.retry_at <= ${at(now)})
            and (e.probe_lease_until is null or e.probe_lease_until <= ${at(now)})
            and exists (select 1 from webhook_deliveries d where d.endpoint_id = e.id and d.status = 'pending'
                        and d.next_attempt_at <= ${at(now)} and (d.lease_until is null or d.lease_until <= ${at(now)})
                        and d.deadline_at >= coalesce(e.retry_at, d.next_attempt_at))
            and not exists (select 1 from webhook_deliveries d where d.endpoint_id = e.id and d.lease_until > ${at(now)})
          order by e.retry_at nulls first
          limit ${limit}
          for update of e skip locked`),
      );
      for (const endpoint of probing) {
        const [next] = rowsOf<{ id: string; interrupted: boolean; previous_holder: string | null }>(
          await tx.execute(sql`
            select d.id, (d.lease_until is not null) as interrupted, d.leased_by as previous_holder
            from webhook_deliveries d join webhook_endpoints e on e.id = d.endpoint_id
            where d.endpoint_id = ${endpoint.id} and d.status = 'pending' and d.next_attempt_at <= ${at(now)}
              and (d.lease_until is null or d.lease_until <= ${at(now)})
              and d.deadline_at >= coalesce(e.retry_at, d.next_attempt_at)
            order by d.next_attempt_at, d.created_at
            limit 1
            for update of d skip locked`),
        );
        if (!next) continue;
        await tx.update(webhookEndpoints).set({ probeLeaseUntil: leaseUntil }).where(eq(webhookEndpoints.id, endpoint.id));
        picked.push({ id: next.id, interrupted: Boolean(next.interrupted), previousHolder: next.previous_holder, probe: true });
      }

      const room = limit - picked.length;
      if (room > 0) {
        const active = rowsOf<{ id: string; interrupted: boolean; previous_holder: string | null }>(
          await tx.execute(sql`
            select d.id, (d.lease_until is not null) as interrupted, d.leased_by as previous_holder
            from webhook_deliveries d join webhook_endpoints e on e.id = d.endpoint_id
            where d.status = 'pending' and d.next_attempt_at <= ${at(now)}
              and (d.lease_until is null or d.lease_until <= ${at(now)})
              and e.enabled and e.delivery_state = 'active'
            order by d.next_attempt_at
            limit ${room}
            for update of d skip locked
            for share of e skip locked`),
        );
        for (const row of active) picked.push({ id: row.id, interrupted: Boolean(row.interrupted), previousHolder: row.previous_holder, probe: false });
      }
      if (picked.length === 0) return [];

      const ids = picked.map((p) => p.id);
      const leased = await tx
        .update(webhookDeliveries)
        .set({ leaseUntil, leaseToken: sql`${webhookDeliveries.leaseToken} + 1`, leasedBy: workerId })
        .where(inArray(webhookDeliveries.id, ids))
        .returning({ id: webhookDeliveries.id, leaseToken: webhookDeliveries.leaseToken });
      const tokens = new Map(leased.map((row) => [row.id, row.leaseToken]));
      // An interrupted attempt counts as an attempt made (it may have been sent), so numbers stay unique.
      const interrupted = picked.filter((p) => p.interrupted).map((p) => p.id);
      if (interrupted.length > 0) {
        await tx
          .update(webhookDeliveries)
          .set({ totalAttempts: sql`${webhookDeliveries.totalAttempts} + 1` })
          .where(inArray(webhookDeliveries.id, interrupted));
      }

      const rows = await tx
        .select({ delivery: webhookDeliveries, secret: webhookEndpoints.secret, event: { id: events.id, kind: events.kind, tenantId: events.tenantId, test: events.test, data: events.data, body: events.body } })
        .from(webhookDeliveries)
        .innerJoin(events, eq(events.id, webhookDeliveries.eventId))
        .innerJoin(webhookEndpoints, eq(webhookEndpoints.id, webhookDeliveries.endpointId))
        .where(inArray(webhookDeliveries.id, ids));

      const claimed: ClaimedDelivery[] = [];
      for (const row of rows) {
        const pick = picked.find((p) => p.id === row.delivery.id)!;
        if (pick.interrupted) {
          // The previous holder's lease ran out without a record: it may or may not have sent.
          await tx.insert(webhookAttempts).values({
            id: webhookId('attempt'),
            tenantId: row.delivery.tenantId,
            endpointId: row.delivery.endpointId,
            deliveryId: row.delivery.id,
            eventId: row.delivery.eventId,
            purpose: 'delivery',
            attemptNumber: row.delivery.totalAttempts,
            url: row.delivery.url,
            startedAt: now,
            errorClass: 'interrupted',
            errorMessage: `the instance holding this attempt (${pick.previousHolder ?? 'unknown'}) stopped before recording a result; sending again (at-least-once)`,
            outcome: 'interrupted',
            workerId,
          });
        }
        const body = row.event.body ?? (await fixBodyAtFirstSend(tx, { ...row.event, kind: row.event.kind as EventKind }, now));
        claimed.push({
          deliveryId: row.delivery.id,
          leaseToken: tokens.get(row.delivery.id)!,
          tenantId: row.delivery.tenantId,
          eventId: row.delivery.eventId,
          endpointId: row.delivery.endpointId,
          url: row.delivery.url,
          policy: row.delivery.policy as DeliveryPolicy,
          totalAttempts: row.delivery.totalAttempts,
          body,
          secret: row.secret,
          probe: pick.probe,
        });
      }
      return claimed;
    });
  }

  /** Sends one claimed delivery (no transaction open) and records the attempt. */
  async function deliver(claimed: ClaimedDelivery): Promise<DeliveredAttempt> {
    const sentAt = clock.now();
    let result: AttemptResult;
    try {
      result = await attemptDelivery(
        { url: claimed.url, eventId: claimed.eventId, body: claimed.body, secret: claimed.secret, sentAt },
        deps.guard,
        { timeoutMs: settings.attemptTimeoutMs, snippetBytes: settings.responseSnippetBytes },
      );
    } catch (error) {
      result = { statusCode: null, errorClass: 'connection', errorMessage: String((error as Error)?.message ?? error), retryAfter: null, durationMs: 0 };
    }
    await record(claimed, sentAt, result);
    return { claimed, result };
  }

  async function record(claimed: ClaimedDelivery, sentAt: Date, result: AttemptResult): Promise<void> {
    const now = clock.now();
    const outcome = classifyOutcome(result);
    await db.transaction(async (tx) => {
      // The endpoint row is locked only when its state may change. A success to an endpoint with
      // nothing to reset (the common case) leaves it alone, so that concurrent records and claims
      // for one busy endpoint do not queue behind its row lock.
      let endpoint = outcome === 'success' ? await readEndpoint(tx, claimed.endpointId) : await lockEndpoint(tx, claimed.endpointId);
      if (!endpoint) return; // removed while in flight: its deliveries went with it
      let decision = decideAfterAttempt(endpoint, result, now, settings);
      const releaseProbe = claimed.probe && endpoint.probeLeaseUntil !== null;
      if (outcome === 'success' && (decision.kind !== 'none' || releaseProbe)) {
        endpoint = await lockEndpoint(tx, claimed.endpointId);
        if (!endpoint) return;
        decision = decideAfterAttempt(endpoint, result, now, settings);
      }

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
        if (!updated) return;
      } else {
        const [delivery] = await tx.select().from(webhookDeliveries).where(eq(webhookDeliveries.id, claimed.deliveryId)).for('update');
        if (!delivery) return;
        // A settled row (delivered by another holder, or settled by a pause or a disable) keeps its
        // status; so does a row whose lease was taken over: its new holder decides.
        let set: Partial<typeof webhookDeliveries.$inferInsert> = {};
        if (delivery.status === 'pending' && delivery.leaseToken === claimed.leaseToken) {
          const step = nextDeliveryStep({ policy: delivery.policy as DeliveryPolicy, attempts: delivery.attempts + 1, deadlineAt: delivery.deadlineAt }, result, now, settings);
          set =
            step.kind === 'retry'
              ? { nextAttemptAt: step.at }
              : step.kind === 'undelivered'
                ? { status: 'undelivered', undeliveredReason: step.reason, settledAt: now }
                : { status: 'delivered', deliveredAt: now, settledAt: now };
        }
        await tx.update(webhookDeliveries).set({ ...set, ...counts, ...releaseLease }).where(eq(webhookDeliveries.id, delivery.id));
      }

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
        workerId,
      });

      const applied = await applyEndpointDecision(tx, endpoint, decision, now);
      if ((decision.kind === 'none' || !applied) && releaseProbe) {
        await tx.update(webhookEndpoints).set({ probeLeaseUntil: null }).where(eq(webhookEndpoints.id, endpoint.id));
      }
    });
    if (outcome !== 'success') {
      logger.info('webhook attempt failed', { deliveryId: claimed.deliveryId, eventId: claimed.eventId, endpointId: claimed.endpointId, statusCode: result.statusCode, errorClass: result.errorClass });
    }
  }

  /**
   * Rows that must not wait any longer: past their 24 h window, or queued for an endpoint that is
   * Paused or Disabled (a routing that raced the transition), and redelivery batches to release.
   */
  async function housekeeping(): Promise<void> {
    const now = clock.now();
    await expireOverdue(db, new Date(now.getTime() - settings.expiryGraceMs), now);
    await db.execute(sql`
      update webhook_deliveries d
      set status = 'undelivered',
          undelivered_reason = case when e.enabled then 'endpoint_paused' else 'endpoint_disabled' end,
          settled_at = ${at(now)}
      from webhook_endpoints e
      where e.id = d.endpoint_id and (not e.enabled or e.delivery_state = 'paused')
        and d.status = 'pending' and (d.lease_until is null or d.lease_until <= ${at(now)})`);
    const released = await releaseRedeliveryBatches(db, now, settings);
    if (released > 0) logger.info('webhook redelivery batch released', { deliveries: released });
  }

  /** One full pass, for tests and the CLI: housekeeping, then claim and send until nothing is due. */
  async function runOnce(): Promise<DeliveredAttempt[]> {
    await housekeeping();
    const done: DeliveredAttempt[] = [];
    for (;;) {
      const claimed = await claim(settings.claimBatchSize);
      const results = await Promise.all(claimed.map(deliver));
      done.push(...results);
      // More may be due only after a full claim, or after a Retrying endpoint answered 2xx (Active again).
      const resumed = results.some((r) => r.claimed.probe && classifyOutcome(r.result) === 'success');
      if (claimed.length < settings.claimBatchSize && !resumed) return done;
    }
  }

  return { workerId, claim, deliver, housekeeping, runOnce };
}

export type Dispatcher = ReturnType<typeof createDispatcher>;

/** Pending rows whose window closed before `cutoff` are recorded as not delivered (spec Delivery rule 3). */
export async function expireOverdue(db: DbOrTx, cutoff: Date, now: Date): Promise<number> {
  const rows = await db
    .update(webhookDeliveries)
    .set({ status: 'undelivered', undeliveredReason: 'expired', settledAt: now })
    .where(
      and(
        eq(webhookDeliveries.status, 'pending'),
        lte(webhookDeliveries.deadlineAt, cutoff),
        sql`(${webhookDeliveries.leaseUntil} is null or ${webhookDeliveries.leaseUntil} <= ${at(now)})`,
      ),
    )
    .returning({ id: webhookDeliveries.id });
  return rows.length;
}
