/**
 * The event outbox (spec "Events"; DESIGN.md §3 Data). An event row is written in the same
 * transaction as the session change that causes it, so a crash can never leave a state change
 * without its event. Delivery to webhook endpoints reads from this table.
 *
 * `data` is the spec's per-event payload; `externalUserId` only when one was given; `eventId` on
 * completion and timeout events (spec Versioning: additive field).
 */
import type { EventKind } from '@ageverify/protocol';
import type { DbOrTx } from '../../db/database';
import { events } from '../../db/schema';
import { newId } from '../../ids';

export interface SessionFacts {
  id: string;
  tenantId: string;
  pairId: string;
  sandbox: boolean;
  verificationMode: string;
  challengeAge: number;
  externalUserId: string | null;
  expiresAt: Date;
}

export function eventData(kind: EventKind, session: SessionFacts, occurredAt: Date, eventId: string, reason?: string): Record<string, unknown> {
  const base: Record<string, unknown> = { sessionId: session.id };
  const withUser = (data: Record<string, unknown>) => (session.externalUserId !== null ? { ...data, externalUserId: session.externalUserId } : data);
  const at = occurredAt.toISOString();
  switch (kind) {
    case 'session.started':
      return withUser({ ...base, verificationMode: session.verificationMode, challengeAge: session.challengeAge, timestamp: at });
    case 'verification.completed':
      return withUser({ ...base, verified: true, verificationMode: session.verificationMode, challengeAge: session.challengeAge, timestamp: at, eventId });
    case 'verification.failed':
      return withUser({ ...base, verified: false, verificationMode: session.verificationMode, reason: reason ?? 'verification_failed', challengeAge: session.challengeAge, timestamp: at });
    case 'verification.cancelled':
      return withUser({ ...base, verified: false, verificationMode: session.verificationMode, reason: 'cancelled', challengeAge: session.challengeAge, timestamp: at });
    case 'session.timeout':
      return withUser({
        ...base,
        verificationMode: session.verificationMode,
        challengeAge: session.challengeAge,
        expiresAt: session.expiresAt.toISOString(),
        timestamp: at,
        eventId,
      });
  }
}

export async function recordEvent(
  tx: DbOrTx,
  input: { kind: EventKind; session: SessionFacts; occurredAt: Date; createdAt: Date; reason?: string },
): Promise<string> {
  const eventId = newId('event');
  await tx.insert(events).values({
    id: eventId,
    tenantId: input.session.tenantId,
    sessionId: input.session.id,
    pairId: input.session.pairId,
    kind: input.kind,
    test: input.session.sandbox,
    data: eventData(input.kind, input.session, input.occurredAt, eventId, input.reason),
    occurredAt: input.occurredAt,
    createdAt: input.createdAt,
  });
  return eventId;
}
