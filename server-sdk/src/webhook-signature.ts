import { createHmac, timingSafeEqual } from 'node:crypto';

/**
 * `x-service-signature: sha256=<lowercase hex HMAC-SHA256 of the raw body bytes>` (spec
 * Authentication 8). Pass the body exactly as received — a Buffer/Uint8Array or the raw string —
 * never `JSON.stringify(req.body)`: re-encoded JSON differs byte for byte and will not verify.
 */
export function verifyWebhookSignature(rawBody: string | Uint8Array, header: string | null | undefined, secret: string): boolean {
  if (!header || !secret) return false;
  const match = /^sha256=([0-9a-f]{64})$/.exec(header.trim());
  if (!match) return false;
  const expected = Buffer.from(signWebhookBody(rawBody, secret).slice('sha256='.length), 'hex');
  const presented = Buffer.from(match[1]!, 'hex');
  return presented.length === expected.length && timingSafeEqual(presented, expected);
}

/** The header value the service sends for `rawBody` (useful in tests of a receiver). */
export function signWebhookBody(rawBody: string | Uint8Array, secret: string): string {
  return `sha256=${createHmac('sha256', secret).update(rawBody).digest('hex')}`;
}
