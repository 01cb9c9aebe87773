/**
 * Telling people that an endpoint was paused (spec "Webhook endpoint delivery": "Dashboard
 * notice. One email to account owners and admins per pause").
 *
 * Both are written in the transaction that pauses the endpoint, so a pause without its notice and
 * email cannot exist, and the email's dedupe key (endpoint + pause time) makes "one per pause" a
 * database guarantee.
 */
import type { DbOrTx } from '../../../db/database';
import { addNotice } from '../../notifications/dashboard-notices';
import { enqueueAccountEmail } from '../../notifications/email-outbox';

export interface PauseFacts {
  tenantId: string;
  endpointId: string;
  url: string;
  pausedAt: Date;
  reason: string;
}

export async function enqueuePauseNotification(tx: DbOrTx, pause: PauseFacts, now: Date): Promise<void> {
  const message =
    `Webhook endpoint ${pause.url} was paused at ${pause.pausedAt.toISOString()}: ${pause.reason}. ` +
    'New events for it are recorded as not delivered and are not sent; other endpoints are unaffected. ' +
    'Fix the endpoint, then use "Test and resume", and "Redeliver" to send the undelivered events of the last 7 days.';
  await addNotice(tx, { tenantId: pause.tenantId, endpointId: pause.endpointId, kind: 'webhook_endpoint_paused', message }, now);
  await enqueueAccountEmail(
    tx,
    {
      tenantId: pause.tenantId,
      dedupeKey: `webhook-endpoint-paused:${pause.endpointId}:${pause.pausedAt.toISOString()}`,
      subject: `Webhook endpoint paused: ${pause.url}`,
      text: `${message}\n\nEndpoint: ${pause.endpointId}\n`,
    },
    now,
  );
}
