/**
 * Webhook endpoint configuration (spec "Webhook endpoint"): HTTPS public destinations, a subset of
 * the five event kinds, optional pairId scope, enabled flag, a signing secret shown once.
 * Limits (spec "Limits"): at most 20 endpoints per tenant, at most 20 events per endpoint.
 */
import { and, count, eq } from 'drizzle-orm';
import { EVENT_KINDS, isEventKind } from '@ageverify/protocol';
import type { Clock } from '../../clock';
import type { Db } from '../../db/database';
import { keyPairs, webhookEndpoints } from '../../db/schema';
import { newId } from '../../ids';
import { ProvisioningError } from '../tenants/provisioning-error';
import { requireTenant } from '../tenants/service';
import { checkDestination, type GuardOptions } from './destination-guard';

export const MAX_ENDPOINTS_PER_TENANT = 20;
export const MAX_EVENTS_PER_ENDPOINT = 20;

export interface AddEndpointInput {
  tenantId: string;
  url: string;
  events: string[];
  pairId?: string;
  enabled: boolean;
}

export async function addEndpoint(db: Db, clock: Clock, guard: GuardOptions, input: AddEndpointInput) {
  await requireTenant(db, input.tenantId);
  if (input.events.length === 0) throw new ProvisioningError(`events must name at least one of: ${EVENT_KINDS.join(', ')}`);
  if (input.events.length > MAX_EVENTS_PER_ENDPOINT) {
    throw new ProvisioningError(`an endpoint subscribes to at most ${MAX_EVENTS_PER_ENDPOINT} events, got ${input.events.length}`);
  }
  const unknown = input.events.filter((kind) => !isEventKind(kind));
  if (unknown.length > 0) throw new ProvisioningError(`unknown event kind(s) ${unknown.join(', ')}; use: ${EVENT_KINDS.join(', ')}`);
  const verdict = await checkDestination(input.url, guard);
  if (!verdict.ok) throw new ProvisioningError(verdict.message);
  if (input.pairId) {
    const [pair] = await db.select({ id: keyPairs.id }).from(keyPairs).where(and(eq(keyPairs.id, input.pairId), eq(keyPairs.tenantId, input.tenantId)));
    if (!pair) throw new ProvisioningError(`tenant ${input.tenantId} has no key pair "${input.pairId}"`);
  }
  return db.transaction(async (tx) => {
    const [existing] = await tx.select({ n: count() }).from(webhookEndpoints).where(eq(webhookEndpoints.tenantId, input.tenantId));
    if ((existing?.n ?? 0) >= MAX_ENDPOINTS_PER_TENANT) {
      throw new ProvisioningError(`tenant ${input.tenantId} already has ${MAX_ENDPOINTS_PER_TENANT} webhook endpoints, the maximum`);
    }
    const endpointId = newId('endpoint');
    const secret = newId('webhookSecret');
    await tx.insert(webhookEndpoints).values({
      id: endpointId,
      tenantId: input.tenantId,
      url: verdict.url.toString(),
      secret,
      events: [...new Set(input.events)],
      pairId: input.pairId ?? null,
      enabled: input.enabled,
      createdAt: clock.now(),
    });
    return { endpointId, secret };
  });
}

export async function listEndpoints(db: Db, tenantId: string) {
  await requireTenant(db, tenantId);
  const rows = await db.select().from(webhookEndpoints).where(eq(webhookEndpoints.tenantId, tenantId)).orderBy(webhookEndpoints.createdAt);
  // The secret is never listed: it is shown once, at creation.
  return rows.map((row) => ({
    endpointId: row.id,
    url: row.url,
    events: row.events,
    pairId: row.pairId,
    enabled: row.enabled,
    createdAt: row.createdAt.toISOString(),
  }));
}

export async function removeEndpoint(db: Db, tenantId: string, endpointId: string) {
  await requireTenant(db, tenantId);
  const removed = await db
    .delete(webhookEndpoints)
    .where(and(eq(webhookEndpoints.id, endpointId), eq(webhookEndpoints.tenantId, tenantId)))
    .returning({ id: webhookEndpoints.id });
  if (removed.length === 0) throw new ProvisioningError(`tenant ${tenantId} has no webhook endpoint "${endpointId}"`);
  return { endpointId, removed: true };
}
