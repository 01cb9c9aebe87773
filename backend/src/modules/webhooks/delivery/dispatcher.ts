/**
 * The dispatcher: claims due deliveries, sends them outside any transaction, records every attempt.
 *
 *   claim (claim.ts: short transaction: FOR UPDATE SKIP LOCKED, lease, commit)
 *     → send (attempt.ts: no transaction open; 15 s at most)
 *       → record (record.ts: the 2xx answers of a batch in one statement; any other outcome in a
 *          short transaction of its own: attempt row, delivery step, endpoint transition)
 *
 * Several instances run this against one PostgreSQL. A row is claimed by exactly one of them, so
 * no attempt is sent twice while instances are alive. A crash between claim and record leaves the
 * lease to run out (`leaseMs`, longer than the attempt timeout); the row is then claimed again and
 * sent again: a duplicate, never a loss (spec Delivery rule 1: at-least-once). The interrupted
 * attempt is recorded when the row is re-claimed.
 */
import { hostname } from 'node:os';
import type { Clock } from '../../../clock';
import type { Db } from '../../../db/database';
import { randomBase62 } from '../../../ids';
import type { Logger } from '../../../log';
import type { GuardOptions } from '../destinations/destination-guard';
import type { WebhookSettings } from '../settings';
import { attemptDelivery } from './attempt';
import { claimDeliveries, type ClaimedDelivery } from './claim';
import { housekeeping } from './housekeeping';
import { recordAttempts, type FinishedAttempt } from './record';
import { applyRetention, type RetentionResult } from './retention';
import { classifyOutcome, type AttemptResult } from './retry-policy';

export interface DispatcherDeps {
  db: Db;
  clock: Clock;
  logger: Logger;
  guard: GuardOptions;
  settings: WebhookSettings;
  /** Names this instance in leases and attempt rows. */
  workerId?: string;
}

export interface DeliveredAttempt {
  claimed: ClaimedDelivery;
  result: AttemptResult;
}

export function createDispatcher(deps: DispatcherDeps) {
  const { db, clock, logger, settings } = deps;
  const workerId = deps.workerId ?? `${hostname()}:${process.pid}:${randomBase62(6)}`;

  /** Claims up to `limit` due deliveries; `inFlightByEndpoint` (this instance's requests in flight) caps each endpoint at `maxInFlightPerEndpoint`. */
  const claim = (limit: number, inFlightByEndpoint?: ReadonlyMap<string, number>): Promise<ClaimedDelivery[]> =>
    claimDeliveries(db, limit, {
      now: clock.now(),
      leaseMs: settings.leaseMs,
      workerId,
      perEndpointLimit: settings.maxInFlightPerEndpoint,
      inFlightByEndpoint,
    });
  const runHousekeeping = (): Promise<void> => housekeeping({ db, logger, settings }, clock.now());
  /** Removes delivered rows past the retention window (retention.ts); the worker runs it every `retentionIntervalMs`. */
  const retention = (): Promise<RetentionResult> => applyRetention(db, clock.now(), settings);

  /** Sends one claimed delivery (no transaction open); the caller records it (`record`). Never throws. */
  async function send(claimed: ClaimedDelivery): Promise<FinishedAttempt> {
    const sentAt = clock.now();
    let result: AttemptResult;
    try {
      result = await attemptDelivery({ url: claimed.url, eventId: claimed.eventId, body: claimed.body, secret: claimed.secret, sentAt }, deps.guard, {
        timeoutMs: settings.attemptTimeoutMs,
        snippetBytes: settings.responseSnippetBytes,
        maxSockets: settings.maxInFlightPerEndpoint,
      });
    } catch (error) {
      result = { statusCode: null, errorClass: 'connection', errorMessage: String((error as Error)?.message ?? error), retryAfter: null, durationMs: 0 };
    }
    return { claimed, sentAt, result };
  }

  /** Records finished attempts: the plain 2xx answers of the batch in one statement, the rest one by one. */
  const record = (finished: FinishedAttempt[]): Promise<void> => recordAttempts({ db, logger, settings, workerId }, finished, clock.now());

  /** Sends one claimed delivery and records the attempt. */
  async function deliver(claimed: ClaimedDelivery): Promise<DeliveredAttempt> {
    const finished = await send(claimed);
    await record([finished]);
    return { claimed, result: finished.result };
  }

  /** One full pass, for tests and the CLI: housekeeping, then claim and send until nothing is due. */
  async function runOnce(): Promise<DeliveredAttempt[]> {
    await runHousekeeping();
    const done: DeliveredAttempt[] = [];
    for (;;) {
      const claimed = await claim(settings.claimBatchSize);
      const finished = await Promise.all(claimed.map(send));
      await record(finished);
      const results = finished.map(({ claimed, result }) => ({ claimed, result }));
      done.push(...results);
      // More may be due only after a full claim, or after a Retrying endpoint answered 2xx (Active again).
      const resumed = results.some((r) => r.claimed.probe && classifyOutcome(r.result) === 'success');
      if (claimed.length < settings.claimBatchSize && !resumed) return done;
    }
  }

  return { workerId, claim, send, record, deliver, housekeeping: runHousekeeping, retention, runOnce };
}
