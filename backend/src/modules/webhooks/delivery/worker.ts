/**
 * The webhook worker: runs inside every backend process (DESIGN.md §1), against PGlite or a
 * PostgreSQL shared by many instances. It
 *
 * - wakes at once when an event commits (LISTEN on `ageverify_webhooks`; routing NOTIFYs in the
 *   event's transaction, so PostgreSQL delivers it at commit, to every instance; PGlite delivers it
 *   in-process the same way) and polls every second as a fallback, which also picks up retries
 *   falling due;
 * - keeps up to `maxInFlight` requests going, claiming more as each one finishes;
 * - runs the housekeeping (24 h expiry, redelivery batches) and sends pause emails.
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
  const inFlight = new Set<Promise<unknown>>();
  let lastHousekeeping = 0;

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

  /** Sends one claimed delivery in the background; its slot frees when it is recorded. */
  function send(item: ClaimedDelivery): void {
    const sending: Promise<unknown> = dispatcher
      .deliver(item)
      .then((done) => {
        // A Retrying endpoint that answered 2xx is Active again: its queue may go now.
        if (item.probe && done.result.errorClass === null) wake();
      })
      .catch((error: unknown) => logger.error('webhook delivery could not be recorded', { deliveryId: item.deliveryId, ...describeError(error) }))
      .finally(() => {
        inFlight.delete(sending);
        // Claim again once half the slots are free (or all): claiming in batches keeps the
        // claim transactions few; one claim per finished request would double the queries.
        if (inFlight.size <= settings.maxInFlight / 2) wake();
      });
    inFlight.add(sending);
  }

  /** Housekeeping when due, then claims what fits in the free slots. Returns true when the claim was full. */
  async function pass(): Promise<boolean> {
    if (performance.now() - lastHousekeeping >= settings.pollIntervalMs) {
      lastHousekeeping = performance.now();
      await dispatcher.housekeeping();
      if (mailer) await sendPendingEmails({ db: deps.database.db, now: clock.now(), mailer, from: mailFrom, logger });
    }
    const room = Math.min(settings.maxInFlight - inFlight.size, settings.claimBatchSize);
    const claimed = room > 0 ? await dispatcher.claim(room) : [];
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
    await Promise.allSettled([...inFlight]);
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
