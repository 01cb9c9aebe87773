import { describe, expect, test } from 'bun:test';
import { IDEMPOTENCY_MESSAGES, checkIdempotencyKey, decideIdempotency, requestFingerprint } from './decide';

describe('checkIdempotencyKey', () => {
  test.each([
    [null, { ok: true, key: null }],
    ['9f1c2b7e-3d4a-4f5b-8c6d-7e8f9a0b1c2d', { ok: true, key: '9f1c2b7e-3d4a-4f5b-8c6d-7e8f9a0b1c2d' }],
    ['a', { ok: true, key: 'a' }],
    ['order_42:create', { ok: true, key: 'order_42:create' }],
    ['x'.repeat(255), { ok: true, key: 'x'.repeat(255) }],
    ['', { ok: false, message: IDEMPOTENCY_MESSAGES.invalidKey }],
    ['x'.repeat(256), { ok: false, message: IDEMPOTENCY_MESSAGES.invalidKey }],
    ['has space', { ok: false, message: IDEMPOTENCY_MESSAGES.invalidKey }],
    ['tab\there', { ok: false, message: IDEMPOTENCY_MESSAGES.invalidKey }],
    ['clé', { ok: false, message: IDEMPOTENCY_MESSAGES.invalidKey }],
  ])('%p → %p', (raw, expected) => {
    expect(checkIdempotencyKey(raw)).toEqual(expected as never);
  });
});

describe('requestFingerprint', () => {
  const scope = { keyType: 'publishable', sandbox: true };
  test('key order does not matter', () => {
    expect(requestFingerprint(scope, { a: 1, b: { c: 2, d: [1, 2] } })).toBe(requestFingerprint(scope, { b: { d: [1, 2], c: 2 }, a: 1 }));
  });
  test('a different value, array order, key type or mode is another request', () => {
    const base = requestFingerprint(scope, { a: 1, list: [1, 2] });
    expect(requestFingerprint(scope, { a: 2, list: [1, 2] })).not.toBe(base);
    expect(requestFingerprint(scope, { a: 1, list: [2, 1] })).not.toBe(base);
    expect(requestFingerprint({ ...scope, keyType: 'secret' }, { a: 1, list: [1, 2] })).not.toBe(base);
    expect(requestFingerprint({ ...scope, sandbox: false }, { a: 1, list: [1, 2] })).not.toBe(base);
  });
});

describe('decideIdempotency', () => {
  const now = new Date('2026-01-15T12:00:00Z');
  const later = new Date(now.getTime() + 1000);
  test.each([
    ['no stored key', undefined, 'h1', { kind: 'proceed' }],
    ['same request', { requestHash: 'h1', expiresAt: later }, 'h1', { kind: 'replay' }],
    ['another request', { requestHash: 'h1', expiresAt: later }, 'h2', { kind: 'conflict', message: IDEMPOTENCY_MESSAGES.otherRequest }],
    ['expired, same request', { requestHash: 'h1', expiresAt: now }, 'h1', { kind: 'proceed' }],
    ['expired, another request', { requestHash: 'h1', expiresAt: now }, 'h2', { kind: 'proceed' }],
  ])('%s', (_name, stored, hash, expected) => {
    expect(decideIdempotency(stored, hash, now)).toEqual(expected as never);
  });
});
