import { describe, expect, test } from 'bun:test';
import { Webhook } from 'standardwebhooks';
import { signWebhookBody, standardSignature, standardWebhooksKey, verifyStandardWebhook, verifyWebhookSignature } from './webhook-signature';

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
    ['a changed body', `${payload} `, headers, { nowSeconds: timestamp }, 'bad-signature'],
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

/**
 * The README tells merchants they can verify with the official `standardwebhooks` library instead
 * of this package; these are its recipes, run against what the service signs (standardSignature).
 */
describe('the official standardwebhooks library verifies what the service signs', () => {
  const id = 'evt_6Ww2Tz1nPq8VxYbR3kLmNc';
  const body = '{"event":"verification.completed","data":{"externalUserId":"jürgen-42"}}';
  const signedHeaders = (secret: string, timestampSeconds: number) => ({
    'webhook-id': id,
    'webhook-timestamp': String(timestampSeconds),
    'webhook-signature': standardSignature(secret, id, timestampSeconds, body),
  });
  // The secret forms the service holds, and whether each is a `whsec_` + base64 key (README rule).
  const secrets: [string, string, boolean][] = [
    ['the published Standard Webhooks example', 'whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw', true],
    ['a generated secret (whsec_ + base64 of 32 bytes)', 'whsec_dGVzdC1zZWNyZXQtMzItYnl0ZXMtZm9yLXZlY3RvcnMhIQ==', true],
    ['a legacy secret', 'legacy-shared-secret-from-v0', false],
    ['a legacy secret with non-ASCII characters', 'geheimnis-größe-ß', false],
    ['a legacy whsec_ secret that is not canonical base64', 'whsec_8bQ2kT5vX9mN1pR4sW7yZ0aC3dF6gH8jK2lM5nP8qR1', false],
  ];

  test.each(secrets)('%s: the README recipe for its form', (_, secret, isBase64Form) => {
    const webhook = isBase64Form ? new Webhook(secret) : new Webhook(new TextEncoder().encode(secret), { format: 'raw' });
    expect(webhook.verify(body, signedHeaders(secret, Math.floor(Date.now() / 1000)))).toEqual(JSON.parse(body));
  });

  test.each(secrets)('%s: standardWebhooksKey(secret) with format "raw"', (_, secret) => {
    const webhook = new Webhook(standardWebhooksKey(secret), { format: 'raw' });
    expect(webhook.verify(body, signedHeaders(secret, Math.floor(Date.now() / 1000)))).toEqual(JSON.parse(body));
  });

  test.each(secrets.filter(([, , isBase64Form]) => !isBase64Form))(
    '%s: new Webhook(secret) does not verify (why the README needs the raw form)',
    (_, secret) => {
      const verify = () => new Webhook(secret).verify(body, signedHeaders(secret, Math.floor(Date.now() / 1000)));
      expect(verify).toThrow();
    },
  );

  test('format "raw" with a string reads one byte per UTF-16 unit: wrong for a non-ASCII secret, so pass its UTF-8 bytes', () => {
    const secret = 'geheimnis-größe-ß';
    const verify = () => new Webhook(secret, { format: 'raw' }).verify(body, signedHeaders(secret, Math.floor(Date.now() / 1000)));
    expect(verify).toThrow('No matching signature found');
  });

  test('a Fetch Headers object must be turned into a plain object first', () => {
    const secret = secrets[1]![1];
    const headers = new Headers(signedHeaders(secret, Math.floor(Date.now() / 1000)));
    expect(() => new Webhook(secret).verify(body, headers as unknown as Record<string, string>)).toThrow('Missing required headers');
    expect(new Webhook(secret).verify(body, Object.fromEntries(headers))).toEqual(JSON.parse(body));
  });
});
