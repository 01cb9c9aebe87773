import { describe, expect, test } from 'bun:test';
import { signWebhookBody, verifyWebhookSignature } from './webhook-signature';

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
    ['uppercase hex', body, header.toUpperCase().replace('SHA256=', 'sha256='), secret, false],
    ['missing prefix', body, header.slice('sha256='.length), secret, false],
    ['missing header', body, null, secret, false],
    ['truncated', body, header.slice(0, -2), secret, false],
  ];
  for (const [name, raw, h, s, verdict] of cases) test(`${name} → ${verdict}`, () => expect(verifyWebhookSignature(raw, h, s)).toBe(verdict));
});
