/**
 * Webhook endpoint configuration (spec "Webhook endpoint"): HTTPS public destinations, a subset of
 * the five event kinds, optional pairId scope, enabled flag, a signing secret shown once.
 * Limits (spec "Limits"): at most 20 endpoints per tenant, at most 20 events per endpoint.
 *
 * Also the operator/dashboard actions on an endpoint: edit, enable/disable (endpoint-state.ts),
 * redeliver and resend one event (redelivery.ts), rotate the secret, and the legacy single-webhook configuration, which the first
 * endpoint created migrates (spec Delivery rule 12). Test and resume: test-endpoint.ts.
 */
import { and, count, eq } from 'drizzle-orm';
import { EVENT_KINDS, isEventKind, type EventKind } from '@ageverify/protocol';
import type { Clock } from '../../../clock';
import type { Db, DbOrTx } from '../../../db/database';
import { keyPairs, tenants, webhookEndpoints } from '../../../db/schema';
import { newId } from '../../../ids';
import { changedFields, createdFields, recordAudit, removedFields, type AuditContext } from '../../audit';
import { TENANT_ERRORS } from '../../tenants/errors';
import { requireTenant } from '../../tenants/service';
import { checkDestination, type GuardOptions } from '../destinations/destination-guard';
import { newWebhookSecret } from '../ids';
import { legacyEndpointId } from '../routing';
import { WEBHOOK_ERRORS } from '../errors';
import { DEFAULT_WEBHOOK_SETTINGS, type WebhookSettings } from '../settings';
import { disableEndpoint, effectiveState, enableEndpoint } from './endpoint-state';
import { requestRedelivery, resendDelivery } from './redelivery';

const MAX_ENDPOINTS_PER_TENANT = 20;
const MAX_EVENTS_PER_ENDPOINT = 20;

export interface AddEndpointInput {
  tenantId: string;
  url: string;
  events: string[];
  pairId?: string;
  enabled: boolean;
}

function validateEvents(events: string[]): EventKind[] {
  if (events.length === 0) throw WEBHOOK_ERRORS.EVENTS_REQUIRED({ kinds: EVENT_KINDS });
  if (events.length > MAX_EVENTS_PER_ENDPOINT) {
    throw WEBHOOK_ERRORS.TOO_MANY_EVENTS({ max: MAX_EVENTS_PER_ENDPOINT, count: events.length });
  }
  const unknown = events.filter((kind) => !isEventKind(kind));
  if (unknown.length > 0) throw WEBHOOK_ERRORS.UNKNOWN_EVENT_KINDS({ unknown, kinds: EVENT_KINDS });
  return [...new Set(events as EventKind[])];
}

async function validatePair(db: Db, tenantId: string, pairId: string): Promise<void> {
  const [pair] = await db
    .select({ id: keyPairs.id })
    .from(keyPairs)
    .where(and(eq(keyPairs.id, pairId), eq(keyPairs.tenantId, tenantId)));
  if (!pair) throw TENANT_ERRORS.KEY_PAIR_NOT_FOUND({ tenantId, pairId });
}

/**
 * Rule 12: while a tenant has no endpoint, its legacy configuration receives events; the first
 * endpoint created turns it into an ordinary endpoint with the same URL, secret and events (and,
 * if it already delivered, the same history and state). Runs inside the creating transaction.
 */
async function migrateLegacy(tx: DbOrTx, tenantId: string, now: Date, audit: AuditContext): Promise<string | null> {
  const [tenant] = await tx.select().from(tenants).where(eq(tenants.id, tenantId)).for('update');
  const rows = await tx.select().from(webhookEndpoints).where(eq(webhookEndpoints.tenantId, tenantId));
  if (rows.some((row) => !row.legacy) || !tenant?.legacyWebhookUrl) return null;
  const events = (tenant.legacyWebhookEvents ?? []).filter(isEventKind).slice(0, MAX_EVENTS_PER_ENDPOINT);
  const existing = rows.find((row) => row.legacy);
  const id = existing?.id ?? legacyEndpointId(tenantId);
  const values = { url: tenant.legacyWebhookUrl, secret: tenant.legacyWebhookSecret ?? '', events, legacy: false };
  if (existing) await tx.update(webhookEndpoints).set(values).where(eq(webhookEndpoints.id, id));
  else await tx.insert(webhookEndpoints).values({ id, tenantId, pairId: null, enabled: true, createdAt: now, ...values });
  await tx.update(tenants).set({ legacyWebhookUrl: null, legacyWebhookSecret: null, legacyWebhookEvents: null }).where(eq(tenants.id, tenantId));
  await recordAudit(tx, audit, {
    tenantId,
    action: 'endpoint.created',
    targetId: id,
    targetLabel: values.url,
    changes: { ...createdFields({ url: values.url, events }), legacy: { from: true, to: false } },
  });
  return id;
}

export async function addEndpoint(db: Db, clock: Clock, guard: GuardOptions, input: AddEndpointInput, audit: AuditContext) {
  await requireTenant(db, input.tenantId);
  const events = validateEvents(input.events);
  const verdict = await checkDestination(input.url, guard);
  if (!verdict.ok) throw WEBHOOK_ERRORS.DESTINATION_REFUSED({ reason: verdict.message });
  if (input.pairId) await validatePair(db, input.tenantId, input.pairId);
  return db.transaction(async (tx) => {
    const now = clock.now();
    const migratedLegacyEndpointId = await migrateLegacy(tx, input.tenantId, now, audit);
    const [existing] = await tx
      .select({ n: count() })
      .from(webhookEndpoints)
      .where(and(eq(webhookEndpoints.tenantId, input.tenantId), eq(webhookEndpoints.legacy, false)));
    if ((existing?.n ?? 0) >= MAX_ENDPOINTS_PER_TENANT) {
      throw WEBHOOK_ERRORS.TOO_MANY_ENDPOINTS({ tenantId: input.tenantId, max: MAX_ENDPOINTS_PER_TENANT });
    }
    const endpointId = newId('endpoint');
    const secret = newWebhookSecret();
    await tx.insert(webhookEndpoints).values({
      id: endpointId,
      tenantId: input.tenantId,
      url: verdict.url.toString(),
      secret,
      events,
      pairId: input.pairId ?? null,
      enabled: input.enabled,
      createdAt: now,
    });
    // The signing secret is answered once and never recorded.
    await recordAudit(tx, audit, {
      tenantId: input.tenantId,
      action: 'endpoint.created',
      targetId: endpointId,
      targetLabel: verdict.url.toString(),
      changes: createdFields({ url: verdict.url.toString(), events, pairId: input.pairId ?? null, enabled: input.enabled }),
    });
    return migratedLegacyEndpointId ? { endpointId, secret, migratedLegacyEndpointId } : { endpointId, secret };
  });
}

export async function requireEndpoint(db: DbOrTx, tenantId: string, endpointId: string) {
  const [row] = await db
    .select()
    .from(webhookEndpoints)
    .where(and(eq(webhookEndpoints.id, endpointId), eq(webhookEndpoints.tenantId, tenantId)));
  if (!row) throw WEBHOOK_ERRORS.ENDPOINT_NOT_FOUND({ tenantId, endpointId });
  return row;
}

function describe(row: typeof webhookEndpoints.$inferSelect) {
  return {
    endpointId: row.id,
    url: row.url,
    events: row.events,
    pairId: row.pairId,
    enabled: row.enabled,
    state: effectiveState(row),
    ...(row.legacy ? { legacy: true } : {}),
    createdAt: row.createdAt.toISOString(),
  };
}

export async function listEndpoints(db: Db, tenantId: string) {
  await requireTenant(db, tenantId);
  const rows = await db.select().from(webhookEndpoints).where(eq(webhookEndpoints.tenantId, tenantId)).orderBy(webhookEndpoints.createdAt);
  // The secret is never listed: it is shown once, at creation.
  return rows.map(describe);
}

export async function removeEndpoint(db: Db, tenantId: string, endpointId: string, audit: AuditContext) {
  await requireTenant(db, tenantId);
  await db.transaction(async (tx) => {
    const [gone] = await tx
      .delete(webhookEndpoints)
      .where(and(eq(webhookEndpoints.id, endpointId), eq(webhookEndpoints.tenantId, tenantId)))
      .returning();
    if (!gone) throw WEBHOOK_ERRORS.ENDPOINT_NOT_FOUND({ tenantId, endpointId });
    await recordAudit(tx, audit, {
      tenantId,
      action: 'endpoint.deleted',
      targetId: endpointId,
      targetLabel: gone.url,
      changes: removedFields({ url: gone.url, events: gone.events, pairId: gone.pairId, enabled: gone.enabled }),
    });
  });
  return { endpointId, removed: true };
}

/**
 * Edits URL, events or pair scope. Queued deliveries keep the URL they were created for (spec
 * Delivery rule 8); the delivery state is unchanged ("Endpoint settings are unchanged by pausing",
 * and likewise pausing is unchanged by settings: a paused endpoint resumes by test and resume).
 */
export async function updateEndpoint(
  db: Db,
  guard: GuardOptions,
  input: { tenantId: string; endpointId: string; url?: string; events?: string[]; pairId?: string | null },
  audit: AuditContext,
) {
  await requireTenant(db, input.tenantId);
  const row = await requireEndpoint(db, input.tenantId, input.endpointId);
  if (row.legacy) throw WEBHOOK_ERRORS.LEGACY_ENDPOINT_NOT_EDITABLE();
  const set: Partial<typeof webhookEndpoints.$inferInsert> = {};
  if (input.url !== undefined) {
    const verdict = await checkDestination(input.url, guard);
    if (!verdict.ok) throw WEBHOOK_ERRORS.DESTINATION_REFUSED({ reason: verdict.message });
    set.url = verdict.url.toString();
  }
  if (input.events !== undefined) set.events = validateEvents(input.events);
  if (input.pairId !== undefined) {
    if (input.pairId !== null) await validatePair(db, input.tenantId, input.pairId);
    set.pairId = input.pairId;
  }
  if (Object.keys(set).length === 0) throw WEBHOOK_ERRORS.NOTHING_TO_CHANGE();
  const updated = await db.transaction(async (tx) => {
    const [before] = await tx.select().from(webhookEndpoints).where(eq(webhookEndpoints.id, row.id)).for('update');
    if (!before) throw WEBHOOK_ERRORS.ENDPOINT_NOT_FOUND({ tenantId: input.tenantId, endpointId: input.endpointId });
    const [after] = await tx.update(webhookEndpoints).set(set).where(eq(webhookEndpoints.id, row.id)).returning();
    const changes = changedFields(
      { url: before.url, events: before.events, pairId: before.pairId },
      { url: set.url, events: set.events, pairId: set.pairId === undefined ? undefined : set.pairId },
    );
    if (Object.keys(changes).length > 0) {
      await recordAudit(tx, audit, { tenantId: input.tenantId, action: 'endpoint.updated', targetId: row.id, targetLabel: after!.url, changes });
    }
    return after!;
  });
  return describe(updated);
}

export async function setEndpointEnabled(db: Db, clock: Clock, tenantId: string, endpointId: string, enabled: boolean, audit: AuditContext) {
  await requireTenant(db, tenantId);
  const endpoint = await requireEndpoint(db, tenantId, endpointId);
  const changedNow = await db.transaction(async (tx) => {
    const done = enabled ? await enableEndpoint(tx, endpointId, clock.now()) : await disableEndpoint(tx, endpointId, clock.now());
    if (done) {
      await recordAudit(tx, audit, {
        tenantId,
        action: enabled ? 'endpoint.enabled' : 'endpoint.disabled',
        targetId: endpointId,
        targetLabel: endpoint.url,
        changes: changedFields({ enabled: !enabled }, { enabled }),
      });
    }
    return done;
  });
  const row = await requireEndpoint(db, tenantId, endpointId);
  return { ...describe(row), changed: changedNow };
}

export interface EndpointActionDeps {
  db: Db;
  clock: Clock;
  guard: GuardOptions;
  settings?: WebhookSettings;
}

/** Redeliver (spec Delivery rule 10): see redelivery.ts. */
export async function redeliverEndpoint(deps: EndpointActionDeps, tenantId: string, endpointId: string) {
  await requireTenant(deps.db, tenantId);
  await requireEndpoint(deps.db, tenantId, endpointId);
  return requestRedelivery(deps.db, deps.clock.now(), deps.settings ?? DEFAULT_WEBHOOK_SETTINGS, endpointId);
}

/**
 * Resends one settled event to the endpoint (the dashboard's delivery log): refused like a
 * redelivery, and it keeps the event id and body; see resendDelivery in redelivery.ts.
 */
export async function resendEvent(deps: EndpointActionDeps, tenantId: string, endpointId: string, eventId: string) {
  await requireTenant(deps.db, tenantId);
  const endpoint = await requireEndpoint(deps.db, tenantId, endpointId);
  return resendDelivery(deps.db, deps.clock.now(), deps.settings ?? DEFAULT_WEBHOOK_SETTINGS, endpoint, eventId);
}

/**
 * A new signing secret, returned this once. It replaces the old one at once (decision 0036): the
 * next attempt, retries of queued events included, is signed with the new secret only, since every
 * attempt reads the endpoint's current secret (Authentication 8).
 */
export async function rotateSecret(db: Db, tenantId: string, endpointId: string, audit: AuditContext): Promise<{ secret: string }> {
  await requireTenant(db, tenantId);
  const row = await requireEndpoint(db, tenantId, endpointId);
  if (row.legacy) throw WEBHOOK_ERRORS.LEGACY_ENDPOINT_NOT_EDITABLE();
  const secret = newWebhookSecret();
  await db.transaction(async (tx) => {
    await tx.update(webhookEndpoints).set({ secret }).where(eq(webhookEndpoints.id, row.id));
    // The action says the secret changed; neither secret is recorded.
    await recordAudit(tx, audit, { tenantId, action: 'endpoint.secret_rotated', targetId: row.id, targetLabel: row.url, changes: {} });
  });
  return { secret };
}

/**
 * Sets the tenant's legacy single-webhook configuration (what an import from the previous system
 * carries). Refused once an endpoint exists: from then on events go to endpoints (rule 12).
 */
export async function setLegacyWebhook(
  db: Db,
  guard: GuardOptions,
  input: { tenantId: string; url: string; secret: string; events: string[] },
  audit: AuditContext,
) {
  await requireTenant(db, input.tenantId);
  const [endpoints] = await db
    .select({ n: count() })
    .from(webhookEndpoints)
    .where(and(eq(webhookEndpoints.tenantId, input.tenantId), eq(webhookEndpoints.legacy, false)));
  if ((endpoints?.n ?? 0) > 0) throw WEBHOOK_ERRORS.LEGACY_WEBHOOK_SUPERSEDED({ tenantId: input.tenantId });
  const events = validateEvents(input.events);
  const verdict = await checkDestination(input.url, guard);
  if (!verdict.ok) throw WEBHOOK_ERRORS.DESTINATION_REFUSED({ reason: verdict.message });
  if (!input.secret) throw WEBHOOK_ERRORS.SIGNING_SECRET_REQUIRED();
  await db.transaction(async (tx) => {
    const [before] = await tx.select().from(tenants).where(eq(tenants.id, input.tenantId)).for('update');
    await tx
      .update(tenants)
      .set({ legacyWebhookUrl: verdict.url.toString(), legacyWebhookSecret: input.secret, legacyWebhookEvents: events })
      .where(eq(tenants.id, input.tenantId));
    // The signing secret given is never recorded.
    await recordAudit(tx, audit, {
      tenantId: input.tenantId,
      action: 'endpoint.legacy_set',
      targetId: input.tenantId,
      targetLabel: verdict.url.toString(),
      changes: changedFields({ url: before?.legacyWebhookUrl ?? null, events: before?.legacyWebhookEvents ?? null }, { url: verdict.url.toString(), events }),
    });
  });
  return { tenantId: input.tenantId, legacyWebhook: { url: verdict.url.toString(), events } };
}
