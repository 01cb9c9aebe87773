/**
 * Claiming due deliveries: one short transaction picks due rows (FOR UPDATE SKIP LOCKED), leases
 * them, fixes the bodies of send-time events and commits, before anything is sent.
 *
 * A row is claimed by exactly one instance (row locks with SKIP LOCKED, then a lease and a lease
 * token committed before sending). A row whose lease ran out without a record is claimed again,
 * and the interrupted attempt is recorded then (spec Delivery rule 1: at-least-once).
 *
 * Pacing (spec "Webhook endpoint delivery", Delivery rule 6): deliveries to an Active endpoint are
 * claimed freely; a Retrying endpoint gets one request at a time: its row is locked, it must have
 * nothing in flight and its `retry_at` must have come, and the single claim takes a probe lease on
 * the endpoint row itself, so a concurrent claimer re-checking the row (PostgreSQL EvalPlanQual)
 * sees the lease and skips it. Active claims take FOR SHARE on the endpoint row, so they cannot
 * interleave with the transition to Retrying. The spec leaves an Active endpoint's pacing open
 * ("normal pacing"); an instance keeps at most `perEndpointLimit` requests in flight to one
 * endpoint, so one busy endpoint neither takes all of an instance's slots nor gets more
 * connections than its connection pool keeps (pinned-https-client.ts).
 *
 * The statements of a claim do not grow with its size: the interrupted-attempt rows of a batch are
 * one INSERT, the send-time bodies of a batch one UPDATE.
 */
import { eq, inArray, sql } from 'drizzle-orm';
import type { EventKind } from '@ageverify/protocol';
import type { Db, DbOrTx } from '../../../db/database';
import { rowsOf } from '../../../db/rows-of';
import { events, webhookAttempts, webhookDeliveries, webhookEndpoints } from '../../../db/schema';
import { timestamptz as at } from '../../../db/timestamptz';
import { fixBodiesAtFirstSend } from '../envelope';
import { webhookId } from '../ids';
import type { DeliveryPolicy } from './retry-policy';

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

export interface ClaimOptions {
  now: Date;
  leaseMs: number;
  /** Names the claiming instance in the lease and in interrupted-attempt rows. */
  workerId: string;
  /** At most this many requests in flight to one Active endpoint from this instance (default: no cap). */
  perEndpointLimit?: number;
  /** This instance's requests in flight, per endpoint id: they count towards `perEndpointLimit`. */
  inFlightByEndpoint?: ReadonlyMap<string, number>;
}

/** A due row chosen in this claim; `interrupted` when an earlier lease on it ran out without a record. */
interface Pick {
  id: string;
  interrupted: boolean;
  previousHolder: string | null;
  probe: boolean;
}

type DueRow = { id: string; interrupted: boolean; previous_holder: string | null };

/** One short transaction: pick due rows, lease them, fix send-time bodies, commit. */
export async function claimDeliveries(db: Db, limit: number, options: ClaimOptions): Promise<ClaimedDelivery[]> {
  if (limit <= 0) return [];
  const { now } = options;
  const leaseUntil = new Date(now.getTime() + options.leaseMs);
  return db.transaction(async (tx) => {
    const picked = await pickRetryingProbes(tx, now, leaseUntil, limit);
    const room = limit - picked.length;
    if (room > 0) picked.push(...(await pickActive(tx, now, room, options)));
    if (picked.length === 0) return [];
    const tokens = await lease(tx, picked, leaseUntil, options.workerId);
    return loadClaimed(tx, picked, tokens, options);
  });
}

/**
 * Retrying endpoints first: at most one request each, and only with nothing in flight. A row
 * whose window closes before the endpoint's next allowed request is not sent (rule 3: up to
 * 24 h); housekeeping records it as not delivered.
 */
async function pickRetryingProbes(tx: DbOrTx, now: Date, leaseUntil: Date, limit: number): Promise<Pick[]> {
  const picked: Pick[] = [];
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
    const [next] = rowsOf<DueRow>(
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
  return picked;
}

/**
 * Due rows of Active endpoints, oldest first, at most each endpoint's remaining room
 * (`perEndpointLimit` less this instance's requests in flight to it). The room is applied to the
 * oldest due rows (a window over at most `room × 4` of them, without locks), then those rows are
 * locked, skipping any another instance holds.
 */
async function pickActive(tx: DbOrTx, now: Date, room: number, options: ClaimOptions): Promise<Pick[]> {
  const perEndpoint = options.perEndpointLimit ?? room;
  const inFlight = JSON.stringify(Object.fromEntries(options.inFlightByEndpoint ?? []));
  const active = rowsOf<DueRow>(
    await tx.execute(sql`
      with due as (
        select d.id, d.endpoint_id, d.next_attempt_at
        from webhook_deliveries d join webhook_endpoints e on e.id = d.endpoint_id
        where d.status = 'pending' and d.next_attempt_at <= ${at(now)}
          and (d.lease_until is null or d.lease_until <= ${at(now)})
          and e.enabled and e.delivery_state = 'active'
          and coalesce((${inFlight}::jsonb ->> d.endpoint_id)::int, 0) < ${perEndpoint}
        order by d.next_attempt_at
        limit ${room * 4}),
      ranked as (
        select id, endpoint_id, row_number() over (partition by endpoint_id order by next_attempt_at) as n from due)
      select d.id, (d.lease_until is not null) as interrupted, d.leased_by as previous_holder
      from webhook_deliveries d join webhook_endpoints e on e.id = d.endpoint_id
      where d.id in (select r.id from ranked r where r.n <= ${perEndpoint} - coalesce((${inFlight}::jsonb ->> r.endpoint_id)::int, 0))
        and d.status = 'pending' and d.next_attempt_at <= ${at(now)}
        and (d.lease_until is null or d.lease_until <= ${at(now)})
        and e.enabled and e.delivery_state = 'active'
      order by d.next_attempt_at
      limit ${room}
      for update of d skip locked
      for share of e skip locked`),
  );
  return active.map((row) => ({ id: row.id, interrupted: Boolean(row.interrupted), previousHolder: row.previous_holder, probe: false }));
}

/** Leases the picked rows to this instance. Returns each row's new lease token. */
async function lease(tx: DbOrTx, picked: Pick[], leaseUntil: Date, workerId: string): Promise<Map<string, number>> {
  const leased = await tx
    .update(webhookDeliveries)
    .set({ leaseUntil, leaseToken: sql`${webhookDeliveries.leaseToken} + 1`, leasedBy: workerId })
    .where(
      inArray(
        webhookDeliveries.id,
        picked.map((p) => p.id),
      ),
    )
    .returning({ id: webhookDeliveries.id, leaseToken: webhookDeliveries.leaseToken });
  // An interrupted attempt counts as an attempt made (it may have been sent), so numbers stay unique.
  const interrupted = picked.filter((p) => p.interrupted).map((p) => p.id);
  if (interrupted.length > 0) {
    await tx
      .update(webhookDeliveries)
      .set({ totalAttempts: sql`${webhookDeliveries.totalAttempts} + 1` })
      .where(inArray(webhookDeliveries.id, interrupted));
  }
  return new Map(leased.map((row) => [row.id, row.leaseToken]));
}

/** What the sender needs of each leased row; records interrupted attempts and fixes send-time bodies on the way. */
async function loadClaimed(tx: DbOrTx, picked: Pick[], tokens: Map<string, number>, options: ClaimOptions): Promise<ClaimedDelivery[]> {
  const { now, workerId } = options;
  const rows = await tx
    .select({
      delivery: webhookDeliveries,
      secret: webhookEndpoints.secret,
      event: { id: events.id, kind: events.kind, tenantId: events.tenantId, test: events.test, data: events.data, body: events.body },
    })
    .from(webhookDeliveries)
    .innerJoin(events, eq(events.id, webhookDeliveries.eventId))
    .innerJoin(webhookEndpoints, eq(webhookEndpoints.id, webhookDeliveries.endpointId))
    .where(
      inArray(
        webhookDeliveries.id,
        picked.map((p) => p.id),
      ),
    );

  const byId = new Map(picked.map((p) => [p.id, p]));
  // The previous holder's lease ran out without a record: it may or may not have sent. One row per such delivery, one INSERT.
  const interrupted = rows.filter((row) => byId.get(row.delivery.id)!.interrupted);
  if (interrupted.length > 0) {
    await tx.insert(webhookAttempts).values(
      interrupted.map((row) => ({
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
        errorMessage: `the instance holding this attempt (${byId.get(row.delivery.id)!.previousHolder ?? 'unknown'}) stopped before recording a result; sending again (at-least-once)`,
        outcome: 'interrupted',
        workerId,
      })),
    );
  }
  const bodies = await fixBodiesAtFirstSend(
    tx,
    rows.filter((row) => row.event.body === null).map((row) => ({ ...row.event, kind: row.event.kind as EventKind })),
    now,
  );

  const claimed: ClaimedDelivery[] = [];
  for (const row of rows) {
    const pick = byId.get(row.delivery.id)!;
    const body = row.event.body ?? bodies.get(row.event.id)!;
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
}
