/** The no-secret rule, table first: what each kind of secret looks like and what is left of it. */
import { describe, expect, test } from 'bun:test';
import { newApiKey } from '../../ids';
import { hashPassword } from '../../crypto';
import { newWebhookSecret } from '../webhooks/ids';
import { REDACTED, redactText, withoutSecrets } from './no-secrets';

describe('redactText: credentials inside any text', async () => {
  const liveSecret = newApiKey('secret', false);
  const testSecret = newApiKey('secret', true);
  const webhookSecret = newWebhookSecret();
  const passwordHash = await hashPassword('correct horse battery');
  const sessionToken = `st_${'a'.repeat(24)}.${'B'.repeat(43)}`;
  const handoffToken = `ht_${'c'.repeat(24)}.${'D-_'.repeat(14)}x`;
  const cases: [given: string, expected: string][] = [
    [liveSecret, '[redacted: secret API key]'],
    [`My label ${testSecret} oops`, 'My label [redacted: secret API key] oops'],
    [webhookSecret, '[redacted: webhook signing secret]'],
    [`https://hooks.example.com/in?s=${webhookSecret}`, 'https://hooks.example.com/in?s=[redacted: webhook signing secret]'],
    [passwordHash, '[redacted: password hash]'],
    [sessionToken, '[redacted: session or handoff token]'],
    [handoffToken, '[redacted: session or handoff token]'],
    // Public or harmless: kept as they are.
    ['pk_live_0123456789abcdefghijABCDEFGHIJ0123456789', 'pk_live_0123456789abcdefghijABCDEFGHIJ0123456789'],
    ['sk_test_…a1b2', 'sk_test_…a1b2'],
    ['https://shop.example.com/hooks/ageverify', 'https://shop.example.com/hooks/ageverify'],
    ['ada@acme.test', 'ada@acme.test'],
  ];
  for (const [given, expected] of cases) {
    test(`${given.slice(0, 24)}… → ${expected.slice(0, 40)}`, () => {
      expect(redactText(given)).toBe(expected);
    });
  }
});

describe('withoutSecrets: a whole entry', () => {
  test('a field named like a secret keeps no value, whatever it holds', () => {
    for (const field of ['secret', 'signingSecret', 'password', 'passwordHash', 'token', 'secretKeyHash', 'totpSecret', 'recoveryCodes', 'privateKey']) {
      const entry = withoutSecrets({ targetId: null, targetLabel: null, changes: { [field]: { from: 'old value', to: 'new value' } } });
      expect([field, entry.changes[field]]).toEqual([field, { from: REDACTED, to: REDACTED }]);
    }
    // null stays null: "there was none" is no secret.
    expect(withoutSecrets({ targetId: null, targetLabel: null, changes: { secret: { from: null, to: 'x' } } }).changes.secret).toEqual({
      from: null,
      to: REDACTED,
    });
  });

  test('values, list items, the target and its label are redacted; other fields are kept', () => {
    const secret = newApiKey('secret', false);
    const entry = withoutSecrets({
      targetId: secret,
      targetLabel: `pair ${secret}`,
      changes: { label: { from: null, to: secret }, events: { from: [secret, 'session.started'], to: null }, sandbox: { from: null, to: false } },
    });
    expect(JSON.stringify(entry)).not.toContain(secret);
    expect(entry).toEqual({
      targetId: '[redacted: secret API key]',
      targetLabel: 'pair [redacted: secret API key]',
      changes: {
        label: { from: null, to: '[redacted: secret API key]' },
        events: { from: ['[redacted: secret API key]', 'session.started'], to: null },
        sandbox: { from: null, to: false },
      },
    });
  });
});
