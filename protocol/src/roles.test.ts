import { describe, expect, test } from 'bun:test';
import { USER_ROLES, type UserRole } from './accounts';
import { can, decideMemberChange, PERMISSIONS, type MemberChange, type MemberChangeRefusal, type Permission } from './roles';

describe('can', () => {
  // The whole table: a role that gains or loses a permission changes a row here.
  const table: Record<UserRole, Permission[]> = {
    owner: ['read', 'integrate', 'keys', 'members', 'emails', 'signInPolicy', 'audit'],
    admin: ['read', 'integrate', 'keys', 'members', 'emails', 'audit'],
    developer: ['read', 'integrate'],
  };
  for (const role of USER_ROLES)
    for (const permission of Object.keys(PERMISSIONS) as Permission[])
      test(`${role} ${table[role].includes(permission) ? 'may' : 'may not'} ${permission}`, () =>
        expect(can(role, permission)).toBe(table[role].includes(permission)));
});

describe('decideMemberChange', () => {
  const cases: [actor: UserRole, target: UserRole, change: MemberChange, owners: number, expected: MemberChangeRefusal | null][] = [
    // Developers manage no one.
    ['developer', 'developer', { role: 'admin' }, 1, 'role'],
    ['developer', 'developer', 'remove', 1, 'role'],
    // Admins manage admins and developers, never owners, and make no owner.
    ['admin', 'developer', { role: 'admin' }, 1, null],
    ['admin', 'admin', { role: 'developer' }, 1, null],
    ['admin', 'developer', 'remove', 1, null],
    ['admin', 'developer', { role: 'owner' }, 1, 'role'],
    ['admin', 'owner', { role: 'developer' }, 2, 'role'],
    ['admin', 'owner', 'remove', 2, 'role'],
    ['admin', 'owner', { role: 'owner' }, 2, 'role'],
    // Owners manage everyone, the last owner stays.
    ['owner', 'developer', { role: 'owner' }, 1, null],
    ['owner', 'admin', 'remove', 1, null],
    ['owner', 'owner', { role: 'admin' }, 2, null],
    ['owner', 'owner', 'remove', 2, null],
    ['owner', 'owner', { role: 'admin' }, 1, 'last_owner'],
    ['owner', 'owner', 'remove', 1, 'last_owner'],
    ['owner', 'owner', { role: 'developer' }, 0, 'last_owner'],
    // Keeping an owner an owner never loses one.
    ['owner', 'owner', { role: 'owner' }, 1, null],
  ];
  for (const [actor, target, change, owners, expected] of cases)
    test(`${actor} → ${target}, ${change === 'remove' ? 'remove' : `make ${change.role}`}, ${owners} owner(s): ${expected ?? 'allowed'}`, () =>
      expect(decideMemberChange({ actor, target, change, owners })).toBe(expected));
});
