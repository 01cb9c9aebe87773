/**
 * "Test and resume" (spec "Webhook endpoint delivery", Paused → Active): sends a signed test event
 * now and, on a 2xx, resumes a Paused (or Retrying) endpoint. Past events are not resent (Delivery
 * rule 11). The test envelope has `test: true`, the kind of the endpoint's first subscription and
 * sample data of that kind; it is not stored as an event, only as an attempt.
 */
import { isEventKind, type EventKind } from '@ageverify/protocol';
import { webhookAttempts } from '../../../db/schema';
import { randomBase62 } from '../../../ids';
import { changedFields, recordAudit, type AuditContext } from '../../audit';
import { requireTenant } from '../../tenants/service';
import { attemptDelivery } from '../delivery/attempt';
import { classifyOutcome } from '../delivery/retry-policy';
import { envelopeBody, eventData } from '../envelope';
import { webhookId } from '../ids';
import { WEBHOOK_ERRORS } from '../errors';
import { DEFAULT_WEBHOOK_SETTINGS } from '../settings';
import { requireEndpoint, type EndpointActionDeps } from './endpoint-config';
import { effectiveState, resumeEndpoint } from './endpoint-state';

/** `audit`: who tests; a test that resumes the endpoint records `endpoint.resumed` with the resume. */
export async function testEndpoint(deps: EndpointActionDeps, tenantId: string, endpointId: string, audit: AuditContext) {
  const { db, clock } = deps;
  const settings = deps.settings ?? DEFAULT_WEBHOOK_SETTINGS;
  await requireTenant(db, tenantId);
  const endpoint = await requireEndpoint(db, tenantId, endpointId);
  if (!endpoint.enabled) throw WEBHOOK_ERRORS.ENDPOINT_DISABLED({ endpointId });
  const now = clock.now();
  const kind = (endpoint.events.find(isEventKind) ?? 'session.started') as EventKind;
  const eventId = `evt_test_${randomBase62(22)}`;
  const sample = {
    id: `ses_test_${randomBase62(22)}`,
    tenantId,
    pairId: endpoint.pairId ?? 'kp_test',
    sandbox: true,
    verificationMode: 'L1',
    challengeAge: 25,
    externalUserId: null,
    expiresAt: new Date(now.getTime() + 10 * 60 * 1000),
  };
  const data = eventData(kind, sample, now, eventId, kind === 'verification.failed' ? 'age_not_met' : undefined);
  const body = envelopeBody({ kind, tenantId, test: true, data }, now);
  const result = await attemptDelivery({ url: endpoint.url, eventId, body, secret: endpoint.secret, sentAt: now }, deps.guard, {
    timeoutMs: settings.attemptTimeoutMs,
    snippetBytes: settings.responseSnippetBytes,
  });
  const outcome = classifyOutcome(result);
  const recordedAt = clock.now();
  const resumed = await db.transaction(async (tx) => {
    await tx.insert(webhookAttempts).values({
      id: webhookId('attempt'),
      tenantId,
      endpointId,
      deliveryId: null,
      eventId,
      purpose: 'test',
      attemptNumber: 1,
      url: endpoint.url,
      startedAt: now,
      durationMs: result.durationMs,
      statusCode: result.statusCode,
      errorClass: result.errorClass,
      errorMessage: result.errorMessage,
      outcome,
    });
    if (outcome !== 'success') return false;
    const before = effectiveState(endpoint);
    const resumedNow = await resumeEndpoint(tx, endpointId, recordedAt);
    if (resumedNow) {
      await recordAudit(tx, audit, {
        tenantId,
        action: 'endpoint.resumed',
        targetId: endpointId,
        targetLabel: endpoint.url,
        changes: changedFields({ state: before }, { state: 'active' }),
      });
    }
    return resumedNow;
  });
  const after = await requireEndpoint(db, tenantId, endpointId);
  return {
    endpointId,
    eventId,
    event: kind,
    delivered: outcome === 'success',
    statusCode: result.statusCode,
    error: result.errorMessage,
    resumed,
    state: effectiveState(after),
  };
}
