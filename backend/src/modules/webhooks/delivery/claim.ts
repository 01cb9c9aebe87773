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
import { eq, sql } from 'drizzle-orm';
import type { EventKind } from '@ageverify/protocol';
import type { Db, DbOrTx } from '../../../db/database';
import { rowsOf } from '../../../db/rows-of';
import { webhookAttempts, webhookEndpoints } from '../../../db/schema';
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

/**
 * One short transaction: pick due rows, lease them, fix send-time bodies, commit. Its round trips
 * do not grow with the batch: the Retrying endpoints' probes (one statement, plus two per probe
 * found), then one statement that picks the Active rows, leases them with the probes and returns
 * what the sender needs, then (only when needed) one INSERT of interrupted attempts and one UPDATE
 * of send-time bodies.
 */
export async function claimDeliveries(db: Db, limit: number, options: ClaimOptions): Promise<ClaimedDelivery[]> {
  if (limit <= 0) return [];
  const { now } = options;
  const leaseUntil = new Date(now.getTime() + options.leaseMs);
  return db.transaction(async (tx) => {
    const probes = await pickRetryingProbes(tx, now, leaseUntil, limit);
    const rows = await pickLeaseAndLoad(tx, limit - probes.length, probes, leaseUntil, options);
    if (rows.length === 0) return [];
    return finishClaim(tx, rows, options);
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

/** A leased row with what the sender needs, as the claim statement returns it. */
interface LeasedRow {
  id: string;
  tenant_id: string;
  event_id: string;
  endpoint_id: string;
  url: string;
  policy: string;
  total_attempts: number;
  lease_token: number;
  interrupted: boolean;
  previous_holder: string | null;
  probe: boolean;
  secret: string;
  kind: string;
  test: boolean;
  data: Record<string, unknown> | string;
  body: string | null;
}

/**
 * One statement: picks due rows of Active endpoints, oldest first, at most each endpoint's
 * remaining room (`perEndpointLimit` less this instance's requests in flight to it: the room is
 * applied to a window over the oldest `room × 4` due rows, without locks, and then those rows are
 * locked, skipping any another instance holds); leases them together with the probes already
 * picked (a new lease token each; an interrupted attempt counts as an attempt made, since it may
 * have been sent, so attempt numbers stay unique); returns each leased row with its endpoint's
 * secret and its event.
 */
async function pickLeaseAndLoad(tx: DbOrTx, room: number, probes: Pick[], leaseUntil: Date, options: ClaimOptions): Promise<LeasedRow[]> {
  const { now } = options;
  const perEndpoint = options.perEndpointLimit ?? Math.max(room, 1);
  const inFlight = JSON.stringify(Object.fromEntries(options.inFlightByEndpoint ?? []));
  const probeRows = JSON.stringify(probes.map((p) => ({ id: p.id, interrupted: p.interrupted, previous_holder: p.previousHolder })));
  return rowsOf<LeasedRow>(
    await tx.execute(sql`
      with due as (
        select d.id, d.endpoint_id, d.next_attempt_at
        from webhook_deliveries d join webhook_endpoints e on e.id = d.endpoint_id
        where d.status = 'pending' and d.next_attempt_at <= ${at(now)}
          and (d.lease_until is null or d.lease_until <= ${at(now)})
          and e.enabled and e.delivery_state = 'active'
          and coalesce((${inFlight}::jsonb ->> d.endpoint_id)::int, 0) < ${perEndpoint}
        order by d.next_attempt_at
        limit ${Math.max(room, 0) * 4}),
      ranked as (
        select id, endpoint_id, row_number() over (partition by endpoint_id order by next_attempt_at) as n from due),
      active as (
        select d.id, (d.lease_until is not null) as interrupted, d.leased_by as previous_holder, false as probe
        from webhook_deliveries d join webhook_endpoints e on e.id = d.endpoint_id
        -- array(…): the window is computed once (an InitPlan), then rows are fetched by primary key;
        -- as a plain IN the planner may re-run it per row when statistics are thin.
        where d.id = any(array(select r.id from ranked r where r.n <= ${perEndpoint} - coalesce((${inFlight}::jsonb ->> r.endpoint_id)::int, 0)))
          and d.status = 'pending' and d.next_attempt_at <= ${at(now)}
          and (d.lease_until is null or d.lease_until <= ${at(now)})
          and e.enabled and e.delivery_state = 'active'
        order by d.next_attempt_at
        limit ${Math.max(room, 0)}
        for update of d skip locked
        for share of e skip locked),
      probes as (
        select x.id, x.interrupted, x.previous_holder, true as probe
        from json_to_recordset(${probeRows}::json) as x(id text, interrupted boolean, previous_holder text)),
      picked as (select * from active union all select * from probes),
      leased as (
        update webhook_deliveries d
        set lease_until = ${at(leaseUntil)}, lease_token = d.lease_token + 1, leased_by = ${options.workerId},
            total_attempts = d.total_attempts + case when p.interrupted then 1 else 0 end
        from picked p
        where d.id = p.id
        returning d.id, d.tenant_id, d.event_id, d.endpoint_id, d.url, d.policy, d.total_attempts, d.lease_token,
                  p.interrupted, p.previous_holder, p.probe)
      select l.*, e.secret, ev.kind, ev.test, ev.data, ev.body
      from leased l join events ev on ev.id = l.event_id join webhook_endpoints e on e.id = l.endpoint_id`),
  );
}

/** Records the interrupted attempts and fixes the send-time bodies of a claim (one statement each, when needed). */
async function finishClaim(tx: DbOrTx, rows: LeasedRow[], options: ClaimOptions): Promise<ClaimedDelivery[]> {
  const { now, workerId } = options;
  // The previous holder's lease ran out without a record: it may or may not have sent.
  const interrupted = rows.filter((row) => row.interrupted);
  if (interrupted.length > 0) {
    await tx.insert(webhookAttempts).values(
      interrupted.map((row) => ({
        id: webhookId('attempt'),
        tenantId: row.tenant_id,
        endpointId: row.endpoint_id,
        deliveryId: row.id,
        eventId: row.event_id,
        purpose: 'delivery',
        attemptNumber: row.total_attempts,
        url: row.url,
        startedAt: now,
        errorClass: 'interrupted',
        errorMessage: `the instance holding this attempt (${row.previous_holder ?? 'unknown'}) stopped before recording a result; sending again (at-least-once)`,
        outcome: 'interrupted',
        workerId,
      })),
    );
  }
  const bodies = await fixBodiesAtFirstSend(
    tx,
    rows
      .filter((row) => row.body === null)
      .map((row) => ({
        id: row.event_id,
        kind: row.kind as EventKind,
        tenantId: row.tenant_id,
        test: Boolean(row.test),
        data: typeof row.data === 'string' ? (JSON.parse(row.data) as Record<string, unknown>) : row.data,
      })),
    now,
  );
  return rows.map((row) => ({
    deliveryId: row.id,
    leaseToken: Number(row.lease_token),
    tenantId: row.tenant_id,
    eventId: row.event_id,
    endpointId: row.endpoint_id,
    url: row.url,
    policy: row.policy as DeliveryPolicy,
    totalAttempts: Number(row.total_attempts),
    body: row.body ?? bodies.get(row.event_id)!,
    secret: row.secret,
    probe: Boolean(row.probe),
  }));
}
