import { describe, expect, test } from 'bun:test';
import { auditExportPath, auditSearch, auditValueText, NO_AUDIT_FILTERS } from './audit-query';

describe('audit trail screen: filters and values', () => {
  test('only the filters that are set go into the query, trimmed, then the extra parameters', () => {
    expect(auditSearch(NO_AUDIT_FILTERS)).toBe('');
    expect(auditSearch({ action: 'key', actor: ' ada@acme.test ', from: '2026-05-01', to: '' }, { cursor: 'abc', limit: undefined })).toBe(
      'action=key&actor=ada%40acme.test&from=2026-05-01&cursor=abc',
    );
  });

  test('an export carries the same filters and its format', () => {
    expect(auditExportPath({ ...NO_AUDIT_FILTERS, action: 'key.revoked' }, 'csv')).toBe('/audit/export?action=key.revoked&format=csv');
    expect(auditExportPath(NO_AUDIT_FILTERS, 'jsonl')).toBe('/audit/export?format=jsonl');
  });

  test('values read as text; none is a dash', () => {
    expect([null, 'L2', 21, false, ['session.started', 'verification.completed'], []].map(auditValueText)).toEqual([
      '—',
      'L2',
      '21',
      'false',
      'session.started, verification.completed',
      '—',
    ]);
  });
});
