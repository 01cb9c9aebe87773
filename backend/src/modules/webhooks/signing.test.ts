import { describe, expect, test } from 'bun:test';
import vectors from './signing-vectors.json';
import { verifyStandardWebhook, verifyWebhookSignature as verifyServiceSignature } from '@ageverify/server';
import { serviceSignature, signatureHeaders, standardSignature, standardWebhooksKey } from './signing';

/** An independent implementation (Web Crypto) so that the vectors do not just echo signing.ts. */
async function webCryptoHmac(key: Uint8Array, message: Uint8Array): Promise<Uint8Array> {
  const cryptoKey = await crypto.subtle.importKey('raw', new Uint8Array(key), { name: 'HMAC', hash: 'SHA-256' }, false, ['sign']);
  return new Uint8Array(await crypto.subtle.sign('HMAC', cryptoKey, new Uint8Array(message)));
}
const utf8 = (s: string) => new TextEncoder().encode(s);

describe('signature test vectors (signing-vectors.json)', () => {
  for (const v of vectors.vectors) {
    test(v.name, async () => {
      expect(Buffer.from(standardWebhooksKey(v.secret)).toString('hex')).toBe(v.keyHex);
      expect(serviceSignature(v.secret, v.body)).toBe(v.serviceSignature);
      expect(standardSignature(v.secret, v.eventId, v.timestampSeconds, v.body)).toBe(v.webhookSignature);
      // Independently: x-service-signature is hex HMAC of the raw bytes keyed with the secret's bytes…
      expect(`sha256=${Buffer.from(await webCryptoHmac(utf8(v.secret), utf8(v.body))).toString('hex')}`).toBe(v.serviceSignature);
      // …and webhook-signature is base64 HMAC of "id.timestamp.body" keyed with the derived key.
      const standard = await webCryptoHmac(Buffer.from(v.keyHex, 'hex'), utf8(`${v.eventId}.${v.timestampSeconds}.${v.body}`));
      expect(`v1,${Buffer.from(standard).toString('base64')}`).toBe(v.webhookSignature);
    });
  }
  test('the Standard Webhooks published example verifies with our key derivation', () => {
    const v = vectors.vectors[0]!;
    expect(v.webhookSignature).toBe('v1,g0hM9SsE+OTPJTGt/tmIKtSyZlE3uFJELVlNIOLJ1OE=');
    expect(
      verifyStandardWebhook(
        v.body,
        { 'webhook-id': v.eventId, 'webhook-timestamp': String(v.timestampSeconds), 'webhook-signature': v.webhookSignature },
        v.secret,
        { nowSeconds: v.timestampSeconds },
      ).ok,
    ).toBe(true);
  });
});

describe('verification helpers', () => {
  const secret = 'whsec_dGVzdC1zZWNyZXQtMzItYnl0ZXMtZm9yLXZlY3RvcnMhIQ==';
  const body =
    '{"event":"verification.completed","timestamp":"2026-01-15T12:00:00.000Z","tenantId":"ten_1","test":false,"data":{"sessionId":"ses_1","verified":true,"externalUserId":"Zoë"}}';
  const now = 1_768_478_400;
  const headers = signatureHeaders({ secret, eventId: 'evt_1', timestampSeconds: now, body });

  test('x-service-signature verifies over the raw bytes (string or Uint8Array)', () => {
    expect(verifyServiceSignature(body, headers['x-service-signature'], secret)).toBe(true);
    expect(verifyServiceSignature(utf8(body), headers['x-service-signature'], secret)).toBe(true);
    expect(verifyServiceSignature(body, headers['x-service-signature']!.toUpperCase().replace('SHA256=', 'sha256='), secret)).toBe(true);
  });
  const refusals: [string, () => boolean][] = [
    ['re-encoded JSON (spaces) fails', () => verifyServiceSignature(JSON.stringify(JSON.parse(body), null, 1), headers['x-service-signature'], secret)],
    ['re-encoded JSON (escaped unicode) fails', () => verifyServiceSignature(body.replace('Zoë', 'Zo\\u00eb'), headers['x-service-signature'], secret)],
    ['a tampered body fails', () => verifyServiceSignature(body.replace('true', 'false'), headers['x-service-signature'], secret)],
    ['another secret fails', () => verifyServiceSignature(body, headers['x-service-signature'], `${secret}x`)],
    ['a missing header fails', () => verifyServiceSignature(body, null, secret)],
    ['a truncated signature fails', () => verifyServiceSignature(body, headers['x-service-signature']!.slice(0, 20), secret)],
  ];
  for (const [name, check] of refusals) test(name, () => expect(check()).toBe(false));

  test('Standard Webhooks: valid, within ±5 min, with Fetch Headers', () => {
    expect(verifyStandardWebhook(body, new Headers(headers), secret, { nowSeconds: now + 299 })).toEqual({ ok: true, id: 'evt_1', timestampSeconds: now });
  });
  const standardCases: [string, Record<string, string>, number, string][] = [
    ['replayed after 5 minutes', headers, now + 301, 'timestamp-too-old'],
    ['timestamp from the future', headers, now - 301, 'timestamp-too-new'],
    ['id changed (signature binds the eventId)', { ...headers, 'webhook-id': 'evt_2' }, now, 'bad-signature'],
    ['timestamp changed (signature binds the time)', { ...headers, 'webhook-timestamp': String(now + 1) }, now, 'bad-signature'],
    ['headers missing', { 'webhook-id': 'evt_1' }, now, 'missing-headers'],
    ['timestamp not a number', { ...headers, 'webhook-timestamp': '12e3' }, now, 'bad-timestamp'],
  ];
  for (const [name, h, at, reason] of standardCases) {
    test(`Standard Webhooks refuses: ${name}`, () =>
      expect(verifyStandardWebhook(body, h, secret, { nowSeconds: at })).toEqual({ ok: false, reason } as never));
  }
  test('Standard Webhooks accepts any of several signatures (rotation)', () => {
    const rotated = { ...headers, 'webhook-signature': `v1,${Buffer.alloc(32).toString('base64')} ${headers['webhook-signature']}` };
    expect(verifyStandardWebhook(body, rotated, secret, { nowSeconds: now }).ok).toBe(true);
  });
  test('secrets: whsec_ + canonical base64 decodes; anything else is used as UTF-8 bytes', () => {
    expect(standardWebhooksKey('whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw')).toHaveLength(24);
    expect(Buffer.from(standardWebhooksKey('plain-secret')).toString()).toBe('plain-secret');
    expect(Buffer.from(standardWebhooksKey('whsec_short')).toString()).toBe('whsec_short');
    expect(Buffer.from(standardWebhooksKey('whsec_AAAA%AAA')).toString()).toBe('whsec_AAAA%AAA');
  });
});
