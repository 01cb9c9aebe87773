/**
 * The event outbox (spec "Events"). An event row is written in the same
 * transaction as the session change that causes it, so a crash can never leave a state change
 * without its event, and in that same transaction the event is routed to its webhook deliveries
 * (modules/webhooks/routing.ts); the dispatchers are woken by a NOTIFY sent once it has committed
 * (db/after-commit.ts).
 *
 * The event's `data` and body bytes are the webhook's (modules/webhooks/envelope.ts). Imports run
 * one way, sessions → events → webhooks (docs/decisions/0017-events-to-webhooks-one-way.md).
 */
import type { EventKind } from '@ageverify/protocol';
import type { DbOrTx } from '../../db/database';
import { events } from '../../db/schema';
import { newId } from '../../ids';
import { envelopeBody, eventData, recordTimeTimestamp, routeEvents, type SessionFacts } from '../webhooks';

export interface EventInput {
  kind: EventKind;
  session: SessionFacts;
  occurredAt: Date;
  createdAt: Date;
  reason?: string;
}

export async function recordEvent(tx: DbOrTx, input: EventInput): Promise<string> {
  const [eventId] = await recordEvents(tx, [input]);
  return eventId!;
}

/** Several events in one INSERT and one routing pass (the expiry sweeper's batches; issue 14). */
export async function recordEvents(tx: DbOrTx, inputs: readonly EventInput[]): Promise<string[]> {
  if (inputs.length === 0) return [];
  const rows = inputs.map((input) => {
    const eventId = newId('event');
    const data = eventData(input.kind, input.session, input.occurredAt, eventId, input.reason);
    const fixedAt = recordTimeTimestamp(input.kind, input.createdAt, input.session.expiresAt);
    const test = input.session.sandbox;
    return {
      id: eventId,
      tenantId: input.session.tenantId,
      sessionId: input.session.id,
      pairId: input.session.pairId,
      kind: input.kind,
      test,
      data,
      occurredAt: input.occurredAt,
      createdAt: input.createdAt,
      body: fixedAt ? envelopeBody({ kind: input.kind, tenantId: input.session.tenantId, test, data }, fixedAt) : null,
    };
  });
  await tx.insert(events).values(rows);
  await routeEvents(
    tx,
    rows.map((row) => ({ id: row.id, tenantId: row.tenantId, pairId: row.pairId, kind: row.kind, createdAt: row.createdAt })),
  );
  return rows.map((row) => row.id);
}
