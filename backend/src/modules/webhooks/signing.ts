/**
 * Webhook signatures: what the service sends. The receiver side (verification) lives in the
 * merchant package @ageverify/server, and the signatures here are built from its functions, so
 * sender and receiver cannot drift apart. Receiver documentation: docs/webhooks.md; test vectors:
 * signing-vectors.json beside this file.
 *
 * Two signatures cover the same raw body bytes:
 *
 * 1. `x-service-signature: sha256=<lowercase hex HMAC-SHA256(body)>` (spec Authentication 8),
 *    keyed with the endpoint secret exactly as shown to the merchant (its UTF-8 bytes), the same
 *    scheme as GitHub's X-Hub-Signature-256. It carries no time, so it cannot stop replays.
 *
 * 2. Standard Webhooks (https://www.standardwebhooks.com):
 *    `webhook-id` (the eventId), `webhook-timestamp` (Unix seconds of this attempt) and
 *    `webhook-signature: v1,<base64 HMAC-SHA256("<id>.<timestamp>.<body>")>`. The key follows the
 *    Standard Webhooks convention: a `whsec_<base64>` secret signs with the base64-decoded bytes,
 *    so the official libraries verify our secrets unchanged. Secrets not in that form (legacy
 *    configurations migrated as they were, spec Delivery rule 12) sign with their UTF-8 bytes
 *    (docs/decisions/0012-webhook-signatures.md).
 *
 * The HMAC must be computed over the raw bytes received, never over re-encoded parsed JSON.
 */
import { signWebhookBody, standardSignature, standardWebhooksKey, type Bytes } from '@ageverify/server';

const SERVICE_SIGNATURE_HEADER = 'x-service-signature';
const WEBHOOK_ID_HEADER = 'webhook-id';
const WEBHOOK_TIMESTAMP_HEADER = 'webhook-timestamp';
const WEBHOOK_SIGNATURE_HEADER = 'webhook-signature';

/** `sha256=<lowercase hex HMAC-SHA256(body)>`, keyed with the secret's UTF-8 bytes (spec Authentication 8). */
export const serviceSignature = (secret: string, body: Bytes): string => signWebhookBody(body, secret);

export { standardSignature, standardWebhooksKey };

/** Every signature header of one attempt. The body bytes are the event's fixed bytes; the timestamp is this attempt's. */
export function signatureHeaders(input: { secret: string; eventId: string; timestampSeconds: number; body: Bytes }): Record<string, string> {
  return {
    [SERVICE_SIGNATURE_HEADER]: serviceSignature(input.secret, input.body),
    [WEBHOOK_ID_HEADER]: input.eventId,
    [WEBHOOK_TIMESTAMP_HEADER]: String(input.timestampSeconds),
    [WEBHOOK_SIGNATURE_HEADER]: standardSignature(input.secret, input.eventId, input.timestampSeconds, input.body),
  };
}
