import { createHmac, timingSafeEqual } from 'node:crypto';

/**
 * Receiving webhooks: verify both signatures the service sends over the same raw body bytes
 * (docs/webhooks.md). Pass the body exactly as received — a Buffer/Uint8Array or the raw string —
 * never `JSON.stringify(req.body)`: re-encoded JSON differs byte for byte and will not verify.
 *
 * 1. `x-service-signature: sha256=<hex HMAC-SHA256(body)>` (spec Authentication 8), keyed with the
 *    endpoint secret exactly as shown (its UTF-8 bytes).
 * 2. Standard Webhooks: `webhook-id` (the eventId), `webhook-timestamp` (Unix seconds) and
 *    `webhook-signature: v1,<base64 HMAC-SHA256("<id>.<timestamp>.<body>")>`; a `whsec_<base64>`
 *    secret is keyed with its decoded bytes, as the Standard Webhooks libraries do. Its signed
 *    timestamp lets a receiver refuse replays.
 *
 * The service signs with these same functions' keys (backend/src/modules/webhooks/signing.ts
 * imports `standardWebhooksKey` from here), so sender and receiver cannot drift apart.
 */
export type Bytes = Uint8Array | string;

const encoder = new TextEncoder();
const toBytes = (value: Bytes): Uint8Array => (typeof value === 'string' ? encoder.encode(value) : value);
const CANONICAL_BASE64 = /^(?:[A-Za-z0-9+/]{4})*(?:[A-Za-z0-9+/]{2}==|[A-Za-z0-9+/]{3}=)?$/;

export const DEFAULT_TOLERANCE_SECONDS = 5 * 60;

/** The Standard Webhooks HMAC key of an endpoint secret. */
export function standardWebhooksKey(secret: string): Uint8Array {
  const encoded = secret.startsWith('whsec_') ? secret.slice('whsec_'.length) : null;
  if (encoded && encoded.length >= 24 && CANONICAL_BASE64.test(encoded)) return new Uint8Array(Buffer.from(encoded, 'base64'));
  return encoder.encode(secret);
}

/** The `x-service-signature` value the service sends for `rawBody` (useful in tests of a receiver). */
export function signWebhookBody(rawBody: Bytes, secret: string): string {
  return `sha256=${createHmac('sha256', encoder.encode(secret)).update(toBytes(rawBody)).digest('hex')}`;
}

/** Checks `x-service-signature` in constant time. The service sends lowercase hex; case is not significant. */
export function verifyWebhookSignature(rawBody: Bytes, header: string | null | undefined, secret: string): boolean {
  if (!header || !secret) return false;
  const match = /^sha256=([0-9a-fA-F]{64})$/.exec(header.trim());
  if (!match) return false;
  const expected = Buffer.from(signWebhookBody(rawBody, secret).slice('sha256='.length), 'hex');
  const presented = Buffer.from(match[1]!, 'hex');
  return presented.length === expected.length && timingSafeEqual(presented, expected);
}

/** `v1,<base64 HMAC-SHA256("<id>.<timestamp>.<body>")>` (Standard Webhooks). */
export function standardSignature(secret: string, id: string, timestampSeconds: number, rawBody: Bytes): string {
  const mac = createHmac('sha256', standardWebhooksKey(secret))
    .update(encoder.encode(`${id}.${timestampSeconds}.`))
    .update(toBytes(rawBody))
    .digest('base64');
  return `v1,${mac}`;
}

export type StandardVerdict =
  | { ok: true; id: string; timestampSeconds: number }
  | { ok: false; reason: 'missing-headers' | 'bad-timestamp' | 'timestamp-too-old' | 'timestamp-too-new' | 'bad-signature' };

/**
 * Verifies the Standard Webhooks headers. `headers` is anything with a case-insensitive `get`
 * (Fetch `Headers`) or a plain object with lower-case names. Accepts any of several space-separated
 * signatures (one per active key during a secret rotation). Refuses timestamps outside
 * ±toleranceSeconds so a captured request cannot be replayed later; deduplicate by `webhook-id`
 * (the eventId) as well, since delivery is at-least-once.
 */
export function verifyStandardWebhook(
  rawBody: Bytes,
  headers: { get(name: string): string | null } | Record<string, string | undefined>,
  secret: string,
  options: { nowSeconds?: number; toleranceSeconds?: number } = {},
): StandardVerdict {
  const get = (name: string) =>
    (typeof headers.get === 'function' ? (headers as { get(n: string): string | null }).get(name) : (headers as Record<string, string | undefined>)[name]) ??
    null;
  const id = get('webhook-id');
  const timestamp = get('webhook-timestamp');
  const signatures = get('webhook-signature');
  if (!id || !timestamp || !signatures) return { ok: false, reason: 'missing-headers' };
  if (!/^\d{1,12}$/.test(timestamp)) return { ok: false, reason: 'bad-timestamp' };
  const timestampSeconds = Number(timestamp);
  const nowSeconds = options.nowSeconds ?? Math.floor(Date.now() / 1000);
  const tolerance = options.toleranceSeconds ?? DEFAULT_TOLERANCE_SECONDS;
  if (timestampSeconds < nowSeconds - tolerance) return { ok: false, reason: 'timestamp-too-old' };
  if (timestampSeconds > nowSeconds + tolerance) return { ok: false, reason: 'timestamp-too-new' };
  const expected = Buffer.from(standardSignature(secret, id, timestampSeconds, rawBody));
  // Check every candidate (no early exit) so timing does not reveal which one matched.
  let matched = false;
  for (const candidate of signatures.split(' ')) {
    const presented = Buffer.from(candidate);
    if (presented.length === expected.length && timingSafeEqual(presented, expected)) matched = true;
  }
  return matched ? { ok: true, id, timestampSeconds } : { ok: false, reason: 'bad-signature' };
}
