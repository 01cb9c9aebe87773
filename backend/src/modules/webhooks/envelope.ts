/**
 * The body of a webhook: the envelope and its per-kind `data` (spec "Events": "Envelope", "`data`
 * fields"), as exact bytes fixed once (docs/decisions/0011-webhook-body-bytes.md). `data` is the
 * spec's per-event payload; `externalUserId` only when one was given; `eventId` on completion and
 * timeout events (spec Versioning: additive field).
 *
 * The envelope of a completion is fixed when the event is recorded (events/outbox.ts) with
 * `timestamp` = the event's creation time, that of a timeout with `timestamp` = the session
 * deadline (spec "Envelope"); the other kinds' envelope `timestamp` is the send time, so their
 * bytes are fixed at their first send (`fixBodiesAtFirstSend`, in the claim) and then re-sent
 * unchanged on every retry, to every endpoint, and on redelivery.
 */
import { sql } from 'drizzle-orm';
import type { EventEnvelope, EventKind } from '@ageverify/protocol';
import type { DbOrTx } from '../../db/database';
import { rowsOf } from '../../db/rows-of';

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
      return withUser({
        ...base,
        verified: false,
        verificationMode: session.verificationMode,
        reason: reason ?? 'verification_failed',
        challengeAge: session.challengeAge,
        timestamp: at,
      });
    case 'verification.cancelled':
      return withUser({
        ...base,
        verified: false,
        verificationMode: session.verificationMode,
        reason: 'cancelled',
        challengeAge: session.challengeAge,
        timestamp: at,
      });
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

/** Spec "data fields": the order the spec lists them in, per kind (jsonb does not keep key order). */
const DATA_FIELD_ORDER: Record<EventKind, string[]> = {
  'session.started': ['sessionId', 'verificationMode', 'challengeAge', 'timestamp', 'externalUserId'],
  'verification.completed': ['sessionId', 'verified', 'verificationMode', 'challengeAge', 'timestamp', 'externalUserId', 'eventId'],
  'verification.failed': ['sessionId', 'verified', 'verificationMode', 'reason', 'challengeAge', 'timestamp', 'externalUserId'],
  'verification.cancelled': ['sessionId', 'verified', 'verificationMode', 'reason', 'challengeAge', 'timestamp', 'externalUserId'],
  'session.timeout': ['sessionId', 'verificationMode', 'challengeAge', 'externalUserId', 'expiresAt', 'timestamp', 'eventId'],
};

function inSpecOrder(kind: EventKind, data: Record<string, unknown>): Record<string, unknown> {
  const order = DATA_FIELD_ORDER[kind] ?? [];
  const ordered: Record<string, unknown> = {};
  for (const key of order) if (key in data) ordered[key] = data[key];
  for (const key of Object.keys(data)) if (!(key in ordered)) ordered[key] = data[key];
  return ordered;
}

/** The exact JSON body of a webhook (spec "Envelope": event, timestamp, tenantId, test, data, in that order). */
export function envelopeBody(event: { kind: string; tenantId: string; test: boolean; data: Record<string, unknown> }, timestamp: Date): string {
  const kind = event.kind as EventKind;
  const envelope: EventEnvelope = {
    event: kind,
    timestamp: timestamp.toISOString(),
    tenantId: event.tenantId,
    test: event.test,
    data: inSpecOrder(kind, event.data),
  };
  return JSON.stringify(envelope);
}

/**
 * Spec "Envelope" timestamp: completion → event creation time and timeout → the session deadline,
 * both stable on retries, so their bytes are fixed when recorded; null for the kinds whose
 * timestamp is the send time.
 */
export function recordTimeTimestamp(kind: EventKind, createdAt: Date, expiresAt: Date): Date | null {
  if (kind === 'verification.completed') return createdAt;
  if (kind === 'session.timeout') return expiresAt;
  return null;
}

/**
 * The bodies of send-time events, fixed by whichever send comes first, for a whole claim in one
 * statement. Concurrent first sends (two endpoints, two instances) agree: the row locks
 * serialise the UPDATEs and COALESCE keeps the first body, which RETURNING hands to both. Rows are
 * locked in id order, so two instances fixing overlapping batches never wait on each other in a
 * cycle. Returns each event's body.
 */
export async function fixBodiesAtFirstSend(
  tx: DbOrTx,
  batch: { id: string; kind: string; tenantId: string; test: boolean; data: Record<string, unknown> }[],
  sendTime: Date,
): Promise<Map<string, string>> {
  const candidates = new Map(batch.map((event) => [event.id, envelopeBody(event, sendTime)]));
  if (candidates.size === 0) return candidates;
  const input = JSON.stringify([...candidates].map(([id, body]) => ({ id, body })));
  const rows = rowsOf<{ id: string; body: string }>(
    await tx.execute(sql`
      with input as (select * from json_to_recordset(${input}::json) as x(id text, body text)),
      locked as (select e.id from events e where e.id in (select id from input) order by e.id for update)
      update events e set body = coalesce(e.body, x.body)
      from input x
      where e.id = x.id and e.id in (select id from locked)
      returning e.id, e.body`),
  );
  for (const row of rows) candidates.set(row.id, row.body);
  return candidates;
}
