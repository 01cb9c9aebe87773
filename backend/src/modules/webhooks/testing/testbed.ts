/**
 * The webhook integration testbed: a test database, a manual clock, a scriptable HTTPS receiver
 * trusted through the test CA (as WEBHOOK_CA_FILE would be), a fake resolver that maps the test
 * host names to 127.0.0.1 (allowed explicitly, as WEBHOOK_ALLOWED_CIDRS=127.0.0.1/32 would), a
 * tenant with users of each role, and helpers that create sessions and events the way the
 * sessions module does (same transaction, same recordEvent).
 */
import ipaddr from 'ipaddr.js';
import { and, eq, sql } from 'drizzle-orm';
import type { CallbackStatus, EventKind } from '@ageverify/protocol';
import { ManualClock } from '../../../clock';
import { rowsOf } from '../../../db/rows-of';
import { events, sessions, webhookDeliveries, webhookEndpoints } from '../../../db/schema';
import { insertMember, insertUser } from '../../tenants/accounts';
import { newId } from '../../../ids';
import { silentLogger } from '../../../log';
import { completeSession, expireSession } from '../../sessions/session-state';
import { createKeyPair, createTenant } from '../../tenants/service';
import { openTestDatabase, type TestDatabase } from '../../../testing/test-databases';
import { seedStartedSession } from '../../../testing/seed-session';
import { createDispatcher } from '../delivery/dispatcher';
import type { GuardOptions, Resolver } from '../destinations/destination-guard';
import { addEndpoint } from '../endpoints/endpoint-config';
import { webhookSettings, type WebhookSettings } from '../settings';
import { startReceiver, type Receiver } from './https-receiver';
import { TEST_AUDIT } from '../../audit/testing/audit-kit';

export const LOOPBACK_ONLY = [ipaddr.parseCIDR('127.0.0.1/32')] as GuardOptions['allowedCidrs'];

/** A resolver from a table; a function value answers differently per call (DNS rebinding). */
export function fakeResolver(table: Record<string, string[] | (() => string[])>): Resolver {
  return async (host) => {
    const entry = table[host];
    if (!entry) throw Object.assign(new Error(`getaddrinfo ENOTFOUND ${host}`), { code: 'ENOTFOUND' });
    return typeof entry === 'function' ? entry() : entry;
  };
}

export interface Testbed {
  database: TestDatabase;
  clock: ManualClock;
  receiver: Receiver;
  guard: GuardOptions;
  settings: WebhookSettings;
  tenantId: string;
  pairId: string;
  dispatcher: ReturnType<typeof createDispatcher>;
  /** Adds an endpoint at `path` on the receiver, which then verifies its signatures. */
  endpoint(
    path: string,
    events: string[],
    options?: { pairId?: string; enabled?: boolean; host?: string },
  ): Promise<{ endpointId: string; secret: string; url: string }>;
  /** A new PENDING session and its session.started event (as POST /sessions/create records it). */
  session(options?: { pairId?: string; externalUserId?: string | null; sandbox?: boolean }): Promise<{ sessionId: string; startedEventId: string }>;
  complete(sessionId: string, outcome?: CallbackStatus): Promise<string>;
  expire(sessionId: string): Promise<string>;
  /** Runs the dispatcher until nothing is due now. */
  run(): Promise<number>;
  /** When the next request is due (a Retrying endpoint's gate included), or null when nothing is pending. */
  nextDueAt(): Promise<Date | null>;
  /** Moves the clock to the next due time (never back) and runs. Returns the requests sent. */
  step(): Promise<number>;
  /** Steps until nothing is pending (or `maxSteps`). */
  settle(maxSteps?: number): Promise<void>;
  delivery(eventId: string, endpointId: string): Promise<typeof webhookDeliveries.$inferSelect>;
  endpointRow(endpointId: string): Promise<typeof webhookEndpoints.$inferSelect>;
  secondPair(): Promise<string>;
  close(): Promise<void>;
}

export async function createTestbed(
  target: 'pglite' | 'postgres',
  options: { settings?: Partial<WebhookSettings>; resolver?: Resolver } = {},
): Promise<Testbed> {
  const database = await openTestDatabase(target);
  const clock = new ManualClock();
  const receiver = await startReceiver({ now: () => clock.now() });
  const guard: GuardOptions = {
    resolver: options.resolver ?? fakeResolver({ 'hooks.test': ['127.0.0.1'], 'other.hooks.test': ['127.0.0.1'] }),
    allowedCidrs: LOOPBACK_ONLY,
    caFile: receiver.caFile,
  };
  const settings = webhookSettings(options.settings);
  const db = database.db;
  const tenant = await createTenant(db, clock, {
    name: 'Webhook Shop',
    domains: ['shop.example.com'],
    sandbox: false,
    owner: { email: `owner-${newId('user')}@shop.example.com`, password: 'correct horse battery' },
  });
  for (const role of ['admin', 'developer'] as const) {
    const userId = await insertUser(db, { email: `${role}-${newId('user')}@shop.example.com`, passwordHash: 'x' }, clock.now());
    await insertMember(db, tenant.tenantId, userId, role, clock.now());
  }
  const dispatcher = createDispatcher({ db, clock, logger: silentLogger, guard, settings, workerId: 'test-worker' });
  const eventOf = async (sessionId: string, kind: EventKind) => {
    const [event] = await db
      .select({ id: events.id })
      .from(events)
      .where(and(eq(events.sessionId, sessionId), eq(events.kind, kind)));
    return event!.id;
  };
  const OUTCOME_EVENT: Record<CallbackStatus, EventKind> = {
    verified: 'verification.completed',
    failed: 'verification.failed',
    cancelled: 'verification.cancelled',
  };

  const bed: Testbed = {
    database,
    clock,
    receiver,
    guard,
    settings,
    tenantId: tenant.tenantId,
    pairId: tenant.pairId,
    dispatcher,
    async endpoint(path, events, opts = {}) {
      const url = receiver.url(path, opts.host);
      const added = await addEndpoint(
        db,
        clock,
        guard,
        { tenantId: tenant.tenantId, url, events, pairId: opts.pairId, enabled: opts.enabled ?? true },
        TEST_AUDIT,
      );
      receiver.expectSecret(path, added.secret);
      return { endpointId: added.endpointId, secret: added.secret, url };
    },
    async session(opts = {}) {
      return seedStartedSession(db, {
        tenantId: tenant.tenantId,
        pairId: opts.pairId ?? tenant.pairId,
        sandbox: opts.sandbox ?? false,
        externalUserId: opts.externalUserId ?? null,
        now: clock.now(),
      });
    },
    async complete(sessionId, outcome = 'verified') {
      const row = await completeSession(db, sessionId, outcome, clock.now());
      if (!row) throw new Error(`session ${sessionId} could not complete`);
      return eventOf(sessionId, OUTCOME_EVENT[outcome]);
    },
    async expire(sessionId) {
      const [row] = await db.select().from(sessions).where(eq(sessions.id, sessionId));
      const at = new Date(Math.max(clock.now().getTime(), row!.expiresAt.getTime()));
      if (!(await expireSession(db, sessionId, at))) throw new Error(`session ${sessionId} could not expire`);
      return eventOf(sessionId, 'session.timeout');
    },
    async run() {
      return (await dispatcher.runOnce()).length;
    },
    async nextDueAt() {
      const [row] = rowsOf<{ due_ms: number | null }>(
        await db.execute(sql`
          with due as (
            select d.deadline_at, case when e.delivery_state = 'retrying' then greatest(d.next_attempt_at, coalesce(e.retry_at, d.next_attempt_at)) else d.next_attempt_at end as at
            from webhook_deliveries d join webhook_endpoints e on e.id = d.endpoint_id
            where d.status = 'pending' and e.enabled and e.delivery_state in ('active', 'retrying'))
          -- past its window a row is not sent but given up by housekeeping, after the grace
          select (extract(epoch from min(case when at > deadline_at then deadline_at + ${`${settings.expiryGraceMs} milliseconds`}::interval else at end)) * 1000)::float8 as due_ms
          from due`),
      );
      return row?.due_ms == null ? null : new Date(Number(row.due_ms));
    },
    async step() {
      const due = await bed.nextDueAt();
      if (due && due.getTime() > clock.now().getTime()) clock.set(due);
      return bed.run();
    },
    async settle(maxSteps = 1000) {
      await bed.run();
      for (let i = 0; i < maxSteps; i++) {
        const due = await bed.nextDueAt();
        if (!due) return;
        if (due.getTime() > clock.now().getTime()) clock.set(due);
        await bed.run();
      }
    },
    async delivery(eventId, endpointId) {
      const rows = await db.select().from(webhookDeliveries).where(eq(webhookDeliveries.eventId, eventId));
      const row = rows.find((r) => r.endpointId === endpointId);
      if (!row) throw new Error(`no delivery of ${eventId} to ${endpointId}`);
      return row;
    },
    async endpointRow(endpointId) {
      const [row] = await db.select().from(webhookEndpoints).where(eq(webhookEndpoints.id, endpointId));
      return row!;
    },
    async secondPair() {
      return (await createKeyPair(db, clock, tenant.tenantId, false, undefined, TEST_AUDIT)).pairId;
    },
    async close() {
      await receiver.stop();
      await database.close();
    },
  };
  return bed;
}

/** Drives an endpoint into Paused with an hour of 404s. */
export async function driveToPaused(bed: Testbed, endpointId: string, path: string): Promise<void> {
  bed.receiver.script(path, [], { status: 404 });
  await bed.complete((await bed.session()).sessionId);
  for (let i = 0; i < 300; i++) {
    await bed.step();
    if ((await bed.endpointRow(endpointId)).deliveryState === 'paused') return;
  }
  throw new Error('endpoint did not pause');
}
