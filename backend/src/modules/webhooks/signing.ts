/**
 * Webhook signatures: what the service sends and how a receiver checks it. Pure functions over
 * bytes with no imports beyond node:crypto (available in Node, Bun and Deno), so a merchant helper
 * package can copy or re-export this file as it is. Receiver documentation: docs/webhooks.md;
 * test vectors: signing-vectors.json beside this file.
 *
 * Two signatures cover the same raw body bytes:
 *
 * 1. `x-service-signature: sha256=<lowercase hex HMAC-SHA256(body)>` (spec Authentication 8),
 *    keyed with the endpoint secret exactly as shown to the merchant (its UTF-8 bytes), the same
 *    scheme as GitHub's X-Hub-Signature-256. It carries no time, so it cannot stop replays.
 *
 * 2. Standard Webhooks (https://www.standardwebhooks.com, spec/standard-webhooks.md):
 *    `webhook-id` (the eventId), `webhook-timestamp` (Unix seconds of this attempt) and
 *    `webhook-signature: v1,<base64 HMAC-SHA256("<id>.<timestamp>.<body>")>`. The key follows the
 *    Standard Webhooks convention: a `whsec_<base64>` secret signs with the base64-decoded bytes,
 *    so the official libraries verify our secrets unchanged. Secrets not in that form (legacy
 *    configurations migrated as they were, spec Delivery rule 12) sign with their UTF-8 bytes
 *    (docs/decisions/0012-webhook-signatures.md).
 *
 * The HMAC must be computed over the raw bytes received, never over re-encoded parsed JSON.
 */
import { createHmac, timingSafeEqual } from 'node:crypto';

export const SERVICE_SIGNATURE_HEADER = 'x-service-signature';
export const WEBHOOK_ID_HEADER = 'webhook-id';
export const WEBHOOK_TIMESTAMP_HEADER = 'webhook-timestamp';
export const WEBHOOK_SIGNATURE_HEADER = 'webhook-signature';
/** Standard Webhooks' recommended tolerance for `webhook-timestamp`. */
export const DEFAULT_TOLERANCE_SECONDS = 5 * 60;

export type Bytes = Uint8Array | string;

const encoder = new TextEncoder();
const toBytes = (value: Bytes): Uint8Array => (typeof value === 'string' ? encoder.encode(value) : value);

const CANONICAL_BASE64 = /^(?:[A-Za-z0-9+/]{4})*(?:[A-Za-z0-9+/]{2}==|[A-Za-z0-9+/]{3}=)?$/;

/** The Standard Webhooks HMAC key of an endpoint secret (see the header comment). */
export function standardWebhooksKey(secret: string): Uint8Array {
  const encoded = secret.startsWith('whsec_') ? secret.slice('whsec_'.length) : null;
  if (encoded && encoded.length >= 24 && CANONICAL_BASE64.test(encoded)) return new Uint8Array(Buffer.from(encoded, 'base64'));
  return encoder.encode(secret);
}

/** `sha256=<lowercase hex HMAC-SHA256(body)>`, keyed with the secret's UTF-8 bytes (spec Authentication 8). */
export function serviceSignature(secret: string, body: Bytes): string {
  return `sha256=${createHmac('sha256', encoder.encode(secret)).update(toBytes(body)).digest('hex')}`;
}

/** `v1,<base64 HMAC-SHA256("<id>.<timestamp>.<body>")>` (Standard Webhooks). */
export function standardSignature(secret: string, id: string, timestampSeconds: number, body: Bytes): string {
  const mac = createHmac('sha256', standardWebhooksKey(secret)).update(encoder.encode(`${id}.${timestampSeconds}.`)).update(toBytes(body)).digest('base64');
  return `v1,${mac}`;
}

/** Every signature header of one attempt. The body bytes are the event's fixed bytes; the timestamp is this attempt's. */
export function signatureHeaders(input: { secret: string; eventId: string; timestampSeconds: number; body: Bytes }): Record<string, string> {
  return {
    [SERVICE_SIGNATURE_HEADER]: serviceSignature(input.secret, input.body),
    [WEBHOOK_ID_HEADER]: input.eventId,
    [WEBHOOK_TIMESTAMP_HEADER]: String(input.timestampSeconds),
    [WEBHOOK_SIGNATURE_HEADER]: standardSignature(input.secret, input.eventId, input.timestampSeconds, input.body),
  };
}

function constantTimeEqual(a: string, b: string): boolean {
  const left = Buffer.from(a);
  const right = Buffer.from(b);
  if (left.length !== right.length) {
    timingSafeEqual(left, left);
    return false;
  }
  return timingSafeEqual(left, right);
}

/** Receiver side of (1): true when `header` is the signature of these raw bytes. */
export function verifyServiceSignature(rawBody: Bytes, header: string | null | undefined, secret: string): boolean {
  if (!header) return false;
  return constantTimeEqual(header.trim().toLowerCase(), serviceSignature(secret, rawBody));
}

export type StandardVerdict =
  | { ok: true; id: string; timestampSeconds: number }
  | { ok: false; reason: 'missing-headers' | 'bad-timestamp' | 'timestamp-too-old' | 'timestamp-too-new' | 'bad-signature' };

/**
 * Receiver side of (2). `headers` is anything with a case-insensitive `get` (Fetch `Headers`) or a
 * plain object with lower-case names. Accepts any of several space-separated signatures (Standard
 * Webhooks lists one per active key during secret rotation). Rejects timestamps outside
 * ±toleranceSeconds so that a captured request cannot be replayed later; deduplicate by
 * `webhook-id` (the eventId) as well, since delivery is at-least-once.
 */
export function verifyStandardWebhook(
  rawBody: Bytes,
  headers: { get(name: string): string | null } | Record<string, string | undefined>,
  secret: string,
  options: { nowSeconds: number; toleranceSeconds?: number },
): StandardVerdict {
  const get = (name: string) => (typeof headers.get === 'function' ? (headers as { get(n: string): string | null }).get(name) : (headers as Record<string, string | undefined>)[name]) ?? null;
  const id = get(WEBHOOK_ID_HEADER);
  const timestamp = get(WEBHOOK_TIMESTAMP_HEADER);
  const signatures = get(WEBHOOK_SIGNATURE_HEADER);
  if (!id || !timestamp || !signatures) return { ok: false, reason: 'missing-headers' };
  if (!/^\d{1,12}$/.test(timestamp)) return { ok: false, reason: 'bad-timestamp' };
  const timestampSeconds = Number(timestamp);
  const tolerance = options.toleranceSeconds ?? DEFAULT_TOLERANCE_SECONDS;
  if (timestampSeconds < options.nowSeconds - tolerance) return { ok: false, reason: 'timestamp-too-old' };
  if (timestampSeconds > options.nowSeconds + tolerance) return { ok: false, reason: 'timestamp-too-new' };
  const expected = standardSignature(secret, id, timestampSeconds, rawBody);
  // Check every candidate (no early exit) so timing does not reveal which one matched.
  let matched = false;
  for (const candidate of signatures.split(' ')) if (candidate.startsWith('v1,') && constantTimeEqual(candidate, expected)) matched = true;
  return matched ? { ok: true, id, timestampSeconds } : { ok: false, reason: 'bad-signature' };
}
