import { describe, expect, test } from 'bun:test';
import { AUDIT_ACTION_GROUPS, AUDIT_ACTIONS, auditActionsOf, isAuditAction, isAuditActionGroup } from './audit';

describe('audit actions', () => {
  test('every action belongs to exactly one group, named by its prefix', () => {
    const grouped = AUDIT_ACTION_GROUPS.flatMap((group) => auditActionsOf(group));
    expect([...grouped].sort()).toEqual([...AUDIT_ACTIONS].sort());
    for (const group of AUDIT_ACTION_GROUPS) expect(auditActionsOf(group).length).toBeGreaterThan(0);
  });

  test('actions and groups are told apart, and nothing else passes', () => {
    expect(isAuditAction('key.revoked')).toBe(true);
    expect(isAuditAction('key')).toBe(false);
    expect(isAuditActionGroup('key')).toBe(true);
    expect(isAuditActionGroup('key.revoked')).toBe(false);
    for (const value of ['', 'keys', 'KEY.revoked', 'key.', 'key.revoked ']) {
      expect([value, isAuditAction(value) || isAuditActionGroup(value)]).toEqual([value, false]);
    }
  });
});
