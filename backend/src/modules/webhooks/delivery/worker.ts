/**
 * The webhook worker: runs inside every backend process (docs/decisions-on-open-points.md "How the pieces run"), against PGlite or a
 * PostgreSQL shared by many instances. It
 *
 * - wakes at once when an event commits (LISTEN on `ageverify_webhooks`; routing NOTIFYs in the
 *   event's transaction, so PostgreSQL delivers it at commit, to every instance; PGlite delivers it
 *   in-process the same way) and polls every second as a fallback, which also picks up retries
 *   falling due;
 * - keeps up to `maxInFlight` requests going (at most `maxInFlightPerEndpoint` to one endpoint),
 *   claiming more in batches as slots free up;
 * - records finished attempts in batches: whatever finished while the previous record was being
 *   written goes in the next one (no timer: at low rates a batch is one attempt, so latency does
 *   not wait for a batch to fill). A slot is freed only once its attempt is recorded, so the
 *   leases held never exceed `maxInFlight`;
 * - runs the housekeeping (24 h expiry, redelivery batches) and sends pause emails;
 * - every `retentionIntervalMs`, removes delivered rows past the retention window (retention.ts),
 *   a bounded number of batches per pass, going on at the next pass while more are due.
 *
 * Correctness never depends on the wake-up: a missed NOTIFY costs at most one poll interval.
 */
import type { Clock } from '../../../clock';
import type { Database } from '../../../db/database';
import { listen, type Unlisten } from '../../../db/listen';
import { describeError, type Logger } from '../../../log';
import { sendPendingEmails } from '../../notifications/email-outbox';
import { smtpMailer, type Mailer } from '../../notifications/mailer';
import type { GuardOptions } from '../destinations/destination-guard';
import { closePinnedConnections } from '../destinations/pinned-https-client';
import { WAKE_CHANNEL } from '../routing';
import { webhookSettings, type WebhookSettings } from '../settings';
import type { ClaimedDelivery } from './claim';
import type { FinishedAttempt } from './record';
import { createDispatcher } from './dispatcher';

export interface WebhookWorkerDeps {
  database: Pick<Database, 'db' | 'kind'>;
  clock: Clock;
  logger: Logger;
  /** Resolver (tests), WEBHOOK_ALLOWED_CIDRS and WEBHOOK_CA_FILE. */
  guard: GuardOptions;
  /** SMTP_URL; unset keeps pause emails in email_outbox for the dashboard. */
  smtpUrl?: string | null;
  /** Sender address of pause emails. */
  mailFrom?: string;
  /** Replaces the SMTP mailer (tests). */
  mailer?: Mailer | null;
  settings?: Partial<WebhookSettings>;
  workerId?: string;
}

export interface WebhookWorker {
  start(): Promise<void>;
  stop(): Promise<void>;
  /** Look for due work now (e.g. after a commit in this process). */
  wake(): void;
}

export function createWebhookWorker(deps: WebhookWorkerDeps): WebhookWorker {
  const settings = webhookSettings(deps.settings);
  const { logger, clock } = deps;
  const dispatcher = createDispatcher({ db: deps.database.db, clock, logger, guard: deps.guard, settings, workerId: deps.workerId });
  const mailer = deps.mailer !== undefined ? deps.mailer : deps.smtpUrl ? smtpMailer(deps.smtpUrl) : null;
  const mailFrom = deps.mailFrom ?? 'AgeVerify <no-reply@localhost>';

  let running = false;
  let loopDone: Promise<void> | null = null;
  let unlisten: Unlisten | null = null;
  let woken = false;
  let wakeUp: (() => void) | null = null;
  /** Claimed and not yet recorded, in total and per endpoint. */
  let inFlight = 0;
  const inFlightByEndpoint = new Map<string, number>();
  const sending = new Set<Promise<unknown>>();
  /** Sent, waiting for the next record batch. */
  let toRecord: FinishedAttempt[] = [];
  let recording: Promise<void> | null = null;
  let lastHousekeeping = 0;
  /** Slots freed since the last claim, and how many make a claim worth its transaction. */
  let freedSinceClaim = 0;
  const claimThreshold = Math.max(1, Math.floor(Math.min(settings.maxInFlight, settings.claimBatchSize, settings.maxInFlightPerEndpoint) / 2));
  let lastRetention = Number.NEGATIVE_INFINITY;

  const wake = () => {
    woken = true;
    wakeUp?.();
  };

  const sleep = (ms: number) =>
    new Promise<void>((resolve) => {
      if (woken || !running) return resolve();
      const timer = setTimeout(done, ms);
      function done() {
        clearTimeout(timer);
        wakeUp = null;
        resolve();
      }
      wakeUp = done;
    });

  function release(item: ClaimedDelivery): void {
    inFlight--;
    const left = (inFlightByEndpoint.get(item.endpointId) ?? 1) - 1;
    if (left > 0) inFlightByEndpoint.set(item.endpointId, left);
    else inFlightByEndpoint.delete(item.endpointId);
  }

  /** Writes the finished attempts in batches of up to `claimBatchSize` until none is waiting. */
  function flush(): void {
    if (recording || toRecord.length === 0) return;
    const batch = toRecord.slice(0, settings.claimBatchSize);
    toRecord = toRecord.slice(batch.length);
    recording = dispatcher
      .record(batch)
      .catch((error: unknown) => logger.error('webhook attempts could not be recorded', { attempts: batch.length, ...describeError(error) }))
      .finally(() => {
        recording = null;
        for (const item of batch) release(item.claimed);
        // A Retrying endpoint that answered 2xx is Active again: its queue may go now.
        if (batch.some((f) => f.claimed.probe && f.result.errorClass === null)) wake();
        // Claim again once half a batch of slots has freed up (or nothing is in flight): claiming
        // in batches keeps the claim transactions few; one claim per finished request would
        // cost a transaction per delivery (measured: 0.7 per delivery with one endpoint).
        freedSinceClaim += batch.length;
        if (inFlight === 0 || freedSinceClaim >= claimThreshold) wake();
        flush();
      });
  }

  /** Sends one claimed delivery in the background; its slot frees when it is recorded. */
  function send(item: ClaimedDelivery): void {
    inFlight++;
    inFlightByEndpoint.set(item.endpointId, (inFlightByEndpoint.get(item.endpointId) ?? 0) + 1);
    const sent: Promise<unknown> = dispatcher.send(item).then((finished) => {
      sending.delete(sent);
      toRecord.push(finished);
      flush();
    });
    sending.add(sent);
  }

  /** Housekeeping when due, then claims what fits in the free slots. Returns true when the claim was full. */
  async function pass(): Promise<boolean> {
    if (performance.now() - lastHousekeeping >= settings.pollIntervalMs) {
      lastHousekeeping = performance.now();
      await dispatcher.housekeeping();
      if (mailer) await sendPendingEmails({ db: deps.database.db, now: clock.now(), mailer, from: mailFrom, logger });
    }
    if (performance.now() - lastRetention >= settings.retentionIntervalMs) {
      try {
        const removed = await dispatcher.retention();
        // While more is due, the next pass goes on (a bounded number of batches each time).
        if (!removed.more) lastRetention = performance.now();
        if (removed.deliveries + removed.testAttempts + removed.events > 0) logger.info('webhook retention', { ...removed });
      } catch (error) {
        // Deliveries go on; retention is tried again at its next interval.
        lastRetention = performance.now();
        logger.error('webhook retention failed', describeError(error));
      }
    }
    const room = Math.min(settings.maxInFlight - inFlight, settings.claimBatchSize);
    freedSinceClaim = 0;
    const claimed = room > 0 ? await dispatcher.claim(room, inFlightByEndpoint) : [];
    for (const item of claimed) send(item);
    return room > 0 && claimed.length === room;
  }

  async function loop(): Promise<void> {
    while (running) {
      woken = false;
      let full = false;
      try {
        full = await pass();
      } catch (error) {
        logger.error('webhook worker pass failed', describeError(error));
      }
      // A full claim means more may be due: go again at once. Otherwise wait for NOTIFY, a finished request or the poll.
      if (!full) await sleep(settings.pollIntervalMs);
    }
    // Stopping: the requests in flight finish and every one of them is recorded.
    while (sending.size > 0 || recording || toRecord.length > 0) {
      await Promise.allSettled([...sending]);
      flush();
      await recording;
    }
  }

  return {
    async start() {
      if (running) return;
      running = true;
      try {
        unlisten = await listen(deps.database, WAKE_CHANNEL, wake);
      } catch (error) {
        logger.warn('webhook worker could not LISTEN; polling only', describeError(error));
      }
      loopDone = loop();
      logger.info('webhook worker started', { workerId: dispatcher.workerId, database: deps.database.kind });
    },
    async stop() {
      if (!running) return;
      running = false;
      wake();
      await loopDone;
      await unlisten?.().catch(() => {});
      unlisten = null;
      closePinnedConnections();
    },
    wake,
  };
}
