/**
 * Routing an event to deliveries, inside the transaction that records the event (spec "Events",
 * Delivery rules 8, 9 and 12):
 *
 * - an endpoint receives an event only if it subscribes to its kind; an endpoint with a `pairId`
 *   only events of sessions created with that key pair; an account-wide endpoint all of them (9);
 * - each delivery row keeps the URL of the moment it was created: editing the endpoint later never
 *   redirects it (8);
 * - a tenant without endpoints but with a legacy single-webhook configuration delivers to it; the
 *   legacy configuration is materialised as a hidden endpoint row (`legacy = true`), so it gets the
 *   same retries, pacing, pausing and health as any endpoint. Creating the first real endpoint
 *   turns that row into an ordinary endpoint (endpoints/endpoint-config.ts), preserving URL, secret and
 *   events (12);
 * - a Paused or Disabled endpoint gets the delivery recorded as not delivered and not sent, so it
 *   can still be redelivered later (spec "Webhook endpoint delivery").
 */
import { eq, inArray, sql } from 'drizzle-orm';
import { isEventKind, type EventKind } from '@ageverify/protocol';
import { afterCommit } from '../../db/after-commit';
import type { Db, DbOrTx } from '../../db/database';
import { tenants, webhookDeliveries, webhookEndpoints } from '../../db/schema';
import { policyFor } from './delivery/retry-policy';
import { effectiveState, type EndpointRow } from './endpoints/endpoint-state';
import { webhookId } from './ids';
import { DEFAULT_WEBHOOK_SETTINGS } from './settings';

/** NOTIFY channel the dispatchers LISTEN on; PostgreSQL delivers it at commit, never for a rollback. */
export const WAKE_CHANNEL = 'ageverify_webhooks';

/** 12 parameters a row: 4,000 rows stay under the protocol's 65,535 parameters per statement. */
const DELIVERY_ROWS_PER_INSERT = 4_000;

const wakeState = new WeakMap<Db, { sending: boolean; again: boolean }>();

/**
 * Wakes every dispatcher (all instances) after a commit that made deliveries due, outside any
 * transaction (db/after-commit.ts says why). Coalesced per database: while one NOTIFY is on its
 * way, further requests make one more, sent after it, so every commit is followed by a NOTIFY that
 * started after it. A failure (the database is away) is ignored: the workers' poll catches up.
 */
export function wakeDispatchers(db: Db): void {
  const state = wakeState.get(db) ?? { sending: false, again: false };
  wakeState.set(db, state);
  if (state.sending) {
    state.again = true;
    return;
  }
  state.sending = true;
  const send = (): void => {
    db.execute(sql`select pg_notify(${WAKE_CHANNEL}, '')`)
      .catch(() => {})
      .finally(() => {
        if (state.again) {
          state.again = false;
          send();
        } else state.sending = false;
      });
  };
  send();
}

/**
 * Wakes every dispatcher once `tx` has committed: after the commit when db/after-commit.ts knows
 * the transaction, otherwise with a NOTIFY inside it (PostgreSQL delivers that at commit too, but
 * serialises the commits that notified).
 */
export async function wakeDispatchersOnCommit(tx: DbOrTx): Promise<void> {
  if (!afterCommit(tx, wakeDispatchers)) await tx.execute(sql`select pg_notify(${WAKE_CHANNEL}, '')`);
}

export interface RoutableEvent {
  id: string;
  tenantId: string;
  pairId: string;
  kind: EventKind;
  createdAt: Date;
}

export function legacyEndpointId(tenantId: string): string {
  return `whe_legacy_${tenantId}`;
}

interface LegacyConfiguration {
  url: string | null;
  secret: string | null;
  events: string[] | null;
}

/** The legacy configuration as an endpoint row, created or brought up to date from the tenant's columns. */
async function legacyEndpoint(
  tx: DbOrTx,
  tenantId: string,
  tenant: LegacyConfiguration,
  existing: EndpointRow | undefined,
  now: Date,
): Promise<EndpointRow | null> {
  if (!tenant.url) return null;
  const events = (tenant.events ?? []).filter(isEventKind);
  const secret = tenant.secret ?? '';
  if (existing && existing.url === tenant.url && existing.secret === secret && JSON.stringify(existing.events) === JSON.stringify(events)) return existing;
  const [row] = await tx
    .insert(webhookEndpoints)
    .values({ id: legacyEndpointId(tenantId), tenantId, url: tenant.url, secret, events, pairId: null, enabled: true, legacy: true, createdAt: now })
    .onConflictDoUpdate({ target: webhookEndpoints.id, set: { url: tenant.url, secret, events } })
    .returning();
  return row ?? null;
}

export interface RoutingResult {
  pending: number;
  recordedUndelivered: number;
}

export async function routeEvent(tx: DbOrTx, event: RoutableEvent): Promise<RoutingResult> {
  return routeEvents(tx, [event]);
}

/**
 * Routes several events in one go (the expiry sweeper's batches; issue 14): one statement reads the
 * endpoints and legacy configurations of every tenant involved, one inserts all the deliveries, one
 * NOTIFY wakes the dispatchers. The rules per event are exactly those of a single event.
 */
export async function routeEvents(tx: DbOrTx, events: readonly RoutableEvent[]): Promise<RoutingResult> {
  if (events.length === 0) return { pending: 0, recordedUndelivered: 0 };
  const tenantIds = [...new Set(events.map((event) => event.tenantId))];
  // The endpoints and the tenants' legacy configuration in one statement (issue 14: routing is on
  // the session-create path); a tenant without endpoints comes back as one row with no endpoint.
  const joined = await tx
    .select({
      tenantId: tenants.id,
      endpoint: webhookEndpoints,
      legacy: { url: tenants.legacyWebhookUrl, secret: tenants.legacyWebhookSecret, events: tenants.legacyWebhookEvents },
    })
    .from(tenants)
    .leftJoin(webhookEndpoints, eq(webhookEndpoints.tenantId, tenants.id))
    .where(tenantIds.length === 1 ? eq(tenants.id, tenantIds[0]!) : inArray(tenants.id, tenantIds));

  const targetsOf = new Map<string, EndpointRow[]>();
  for (const tenantId of tenantIds) {
    const ofTenant = joined.filter((row) => row.tenantId === tenantId);
    const rows = ofTenant.flatMap((row) => (row.endpoint ? [row.endpoint] : []));
    let targets = rows.filter((row) => !row.legacy);
    if (targets.length === 0 && ofTenant[0]) {
      const legacy = await legacyEndpoint(
        tx,
        tenantId,
        ofTenant[0].legacy,
        rows.find((row) => row.legacy),
        events.find((e) => e.tenantId === tenantId)!.createdAt,
      );
      targets = legacy ? [legacy] : [];
    }
    targetsOf.set(tenantId, targets);
  }

  const values = events.flatMap((event) => {
    const targets = (targetsOf.get(event.tenantId) ?? []).filter(
      (row) => row.events.includes(event.kind) && (row.pairId === null || row.pairId === event.pairId),
    );
    const deadlineAt = new Date(event.createdAt.getTime() + DEFAULT_WEBHOOK_SETTINGS.deliveryWindowMs);
    return targets.map((endpoint) => {
      const state = effectiveState(endpoint);
      const skipped = state === 'paused' ? 'endpoint_paused' : state === 'disabled' ? 'endpoint_disabled' : null;
      return {
        id: webhookId('delivery'),
        tenantId: event.tenantId,
        eventId: event.id,
        endpointId: endpoint.id,
        url: endpoint.url,
        policy: policyFor(event.kind),
        status: skipped ? 'undelivered' : 'pending',
        undeliveredReason: skipped,
        nextAttemptAt: event.createdAt,
        deadlineAt,
        createdAt: event.createdAt,
        settledAt: skipped ? event.createdAt : null,
      };
    });
  });
  if (values.length === 0) return { pending: 0, recordedUndelivered: 0 };
  // A statement carries at most 65,535 parameters (PostgreSQL's protocol): an expiry batch routed to
  // a tenant's 20 endpoints is far more rows than one INSERT can take.
  for (let start = 0; start < values.length; start += DELIVERY_ROWS_PER_INSERT) {
    await tx
      .insert(webhookDeliveries)
      .values(values.slice(start, start + DELIVERY_ROWS_PER_INSERT))
      .onConflictDoNothing();
  }
  const pending = values.filter((v) => v.status === 'pending').length;
  if (pending > 0) await wakeDispatchersOnCommit(tx);
  return { pending, recordedUndelivered: values.length - pending };
}
