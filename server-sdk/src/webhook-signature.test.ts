import { describe, expect, test } from 'bun:test';
import { signWebhookBody, standardSignature, verifyStandardWebhook, verifyWebhookSignature } from './webhook-signature';

const secret = 'whsec_test';
const body = '{"event":"verification.completed","timestamp":"2026-01-15T12:00:00.000Z","tenantId":"ten_1","test":false,"data":{"sessionId":"ses_1"}}';

describe('verifyWebhookSignature', () => {
  test('known vector', () => {
    // printf abc | openssl dgst -sha256 -hmac key
    expect(signWebhookBody('abc', 'key')).toBe('sha256=9c196e32dc0175f86f4b1cb89289d6619de6bee699e4c378e68309ed97a1a6ab');
  });
  const header = signWebhookBody(body, secret);
  const cases: [string, string | Uint8Array, string | null, string, boolean][] = [
    ['raw string', body, header, secret, true],
    ['raw bytes', new TextEncoder().encode(body), header, secret, true],
    ['re-encoded JSON', JSON.stringify(JSON.parse(body), null, 1), header, secret, false],
    ['wrong secret', body, header, 'whsec_other', false],
    ['uppercase hex (same MAC)', body, header.toUpperCase().replace('SHA256=', 'sha256='), secret, true],
    ['missing prefix', body, header.slice('sha256='.length), secret, false],
    ['missing header', body, null, secret, false],
    ['truncated', body, header.slice(0, -2), secret, false],
  ];
  for (const [name, raw, h, s, verdict] of cases) test(`${name} → ${verdict}`, () => expect(verifyWebhookSignature(raw, h, s)).toBe(verdict));
});

describe('verifyStandardWebhook', () => {
  // The Standard Webhooks specification's published example.
  const secret = 'whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw';
  const id = 'msg_p5jXN8AQM9LWM0D4loKWxJek';
  const timestamp = 1614265330;
  const payload = '{"test": 2432232314}';
  const headers = { 'webhook-id': id, 'webhook-timestamp': String(timestamp), 'webhook-signature': 'v1,g0hM9SsE+OTPJTGt/tmIKtSyZlE3uFJELVlNIOLJ1OE=' };

  test('the specification example verifies', () => {
    expect(standardSignature(secret, id, timestamp, payload)).toBe(headers['webhook-signature']);
    expect(verifyStandardWebhook(payload, headers, secret, { nowSeconds: timestamp })).toEqual({ ok: true, id, timestampSeconds: timestamp });
  });
  test.each([
    ['a replay after the tolerance', payload, headers, { nowSeconds: timestamp + 301 }, 'timestamp-too-old'],
    ['a timestamp from the future', payload, headers, { nowSeconds: timestamp - 301 }, 'timestamp-too-new'],
    ['a changed body', payload + ' ', headers, { nowSeconds: timestamp }, 'bad-signature'],
    ['missing headers', payload, { 'webhook-id': id }, { nowSeconds: timestamp }, 'missing-headers'],
    ['a non-numeric timestamp', payload, { ...headers, 'webhook-timestamp': 'soon' }, { nowSeconds: timestamp }, 'bad-timestamp'],
  ] as const)('refuses %s', (_, body, h, options, reason) => {
    expect(verifyStandardWebhook(body, h, secret, options)).toEqual({ ok: false, reason });
  });
  test('accepts any of several space-separated signatures (rotation)', () => {
    const both = { ...headers, 'webhook-signature': `v1,bm90LXRoaXMtb25l ${headers['webhook-signature']}` };
    expect(verifyStandardWebhook(payload, both, secret, { nowSeconds: timestamp }).ok).toBe(true);
  });
});
