/**
 * The dispatcher: claims due deliveries, sends them outside any transaction, records every attempt.
 *
 *   claim (claim.ts: short transaction: FOR UPDATE SKIP LOCKED, lease, commit)
 *     → send (attempt.ts: no transaction open; 15 s at most)
 *       → record (record.ts: short transaction: attempt row, delivery step, endpoint transition)
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
import { recordAttempt } from './record';
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

  const claim = (limit: number): Promise<ClaimedDelivery[]> => claimDeliveries(db, limit, { now: clock.now(), leaseMs: settings.leaseMs, workerId });
  const runHousekeeping = (): Promise<void> => housekeeping({ db, logger, settings }, clock.now());

  /** Sends one claimed delivery (no transaction open) and records the attempt. */
  async function deliver(claimed: ClaimedDelivery): Promise<DeliveredAttempt> {
    const sentAt = clock.now();
    let result: AttemptResult;
    try {
      result = await attemptDelivery({ url: claimed.url, eventId: claimed.eventId, body: claimed.body, secret: claimed.secret, sentAt }, deps.guard, {
        timeoutMs: settings.attemptTimeoutMs,
        snippetBytes: settings.responseSnippetBytes,
      });
    } catch (error) {
      result = { statusCode: null, errorClass: 'connection', errorMessage: String((error as Error)?.message ?? error), retryAfter: null, durationMs: 0 };
    }
    await recordAttempt({ db, logger, settings, workerId }, claimed, sentAt, result, clock.now());
    return { claimed, result };
  }

  /** One full pass, for tests and the CLI: housekeeping, then claim and send until nothing is due. */
  async function runOnce(): Promise<DeliveredAttempt[]> {
    await runHousekeeping();
    const done: DeliveredAttempt[] = [];
    for (;;) {
      const claimed = await claim(settings.claimBatchSize);
      const results = await Promise.all(claimed.map(deliver));
      done.push(...results);
      // More may be due only after a full claim, or after a Retrying endpoint answered 2xx (Active again).
      const resumed = results.some((r) => r.claimed.probe && classifyOutcome(r.result) === 'success');
      if (claimed.length < settings.claimBatchSize && !resumed) return done;
    }
  }

  return { workerId, claim, deliver, housekeeping: runHousekeeping, runOnce };
}
