import { describe, expect, test } from 'bun:test';
import { issueToken, verifyToken } from './session-tokens';

const secret = 'x'.repeat(64);
const expiresAt = new Date('2026-01-01T00:10:00Z');

describe('session tokens', () => {
  const { token, hash } = issueToken(secret, 'session', 'ses_A', expiresAt);
  const session = { id: 'ses_A', expiresAt, storedHash: hash };

  test('a token verifies for its own session', () => expect(verifyToken(secret, 'session', token, session)).toBe(true));
  test('is not a JWT (no dots-separated base64 JSON header)', () => expect(token.split('.')).toHaveLength(2));
  const refusals: [string, () => boolean][] = [
    ['another session id', () => verifyToken(secret, 'session', token, { ...session, id: 'ses_B' })],
    ['another expiry', () => verifyToken(secret, 'session', token, { ...session, expiresAt: new Date(expiresAt.getTime() + 1) })],
    ['another server secret', () => verifyToken('y'.repeat(64), 'session', token, session)],
    ['the handoff purpose', () => verifyToken(secret, 'handoff', token, session)],
    ['a different stored hash', () => verifyToken(secret, 'session', token, { ...session, storedHash: '0'.repeat(64) })],
    ['a truncated token', () => verifyToken(secret, 'session', token.slice(0, -1), session)],
    ['an empty string', () => verifyToken(secret, 'session', '', session)],
    [
      'a tampered nonce',
      () =>
        verifyToken(
          secret,
          'session',
          token.replace(/_(.)/, (_, c) => `_${c === 'a' ? 'b' : 'a'}`),
          session,
        ),
    ],
  ];
  for (const [name, check] of refusals) test(`refused with ${name}`, () => expect(check()).toBe(false));

  test('a handoff token verifies only as a handoff token', () => {
    const handoff = issueToken(secret, 'handoff', 'ses_A', expiresAt);
    expect(verifyToken(secret, 'handoff', handoff.token, { ...session, storedHash: handoff.hash })).toBe(true);
    expect(verifyToken(secret, 'session', handoff.token, { ...session, storedHash: handoff.hash })).toBe(false);
  });
});
