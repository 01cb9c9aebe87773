import { describe, expect, test } from 'bun:test';
import type { UserRole } from './accounts';
import { mustEnrolTwoFactor, twoFactorCodeKind } from './two-factor';

describe('mustEnrolTwoFactor', () => {
  // Every combination: only a key-managing role, in a tenant that requires it, without a second factor.
  const cases: [role: UserRole, tenantRequires: boolean, userHas: boolean, expected: boolean][] = [
    ['owner', true, false, true],
    ['admin', true, false, true],
    ['developer', true, false, false],
    ['owner', true, true, false],
    ['admin', true, true, false],
    ['developer', true, true, false],
    ['owner', false, false, false],
    ['admin', false, false, false],
    ['developer', false, false, false],
    ['owner', false, true, false],
  ];
  test.each(cases)('%s, tenant requires %p, user has a second factor %p → %p', (role, tenantRequiresTwoFactor, userHasTwoFactor, expected) =>
    expect(mustEnrolTwoFactor({ role, tenantRequiresTwoFactor, userHasTwoFactor })).toBe(expected),
  );
});

describe('twoFactorCodeKind', () => {
  test.each([
    ['123456', 'totp', '123456'],
    ['123 456', 'totp', '123456'],
    [' 012345 ', 'totp', '012345'],
    ['12345', 'recovery', '12345'],
    ['1234567', 'recovery', '1234567'],
    ['AbC12-x9Y8z', 'recovery', 'AbC12-x9Y8z'],
    [' AbC12-x9Y8z\n', 'recovery', 'AbC12-x9Y8z'],
    ['', 'recovery', ''],
  ] as const)('%p is a %s code %p', (typed, kind, code) => expect(twoFactorCodeKind(typed)).toEqual({ kind, code }));
});
