import { describe, expect, test } from 'bun:test';
import { parse } from 'csv-parse/sync';
import { AUDIT_CSV_COLUMNS, type AuditEntryView } from '@ageverify/protocol';
import { auditCsv, auditExportFilename, auditJsonLines } from './export';

const entries: AuditEntryView[] = [
  {
    entryId: 'aud_2',
    occurredAt: '2026-05-02T10:00:00.000Z',
    actor: { type: 'user', userId: 'usr_1', email: 'ada@acme.test' },
    ip: '203.0.113.7',
    action: 'key.renamed',
    targetId: 'kp_1',
    targetLabel: '=HYPERLINK("http://evil")',
    changes: { label: { from: 'Checkout', to: '=HYPERLINK("http://evil")' } },
  },
  {
    entryId: 'aud_1',
    occurredAt: '2026-05-01T09:00:00.000Z',
    actor: { type: 'cli', userId: null, email: null },
    ip: null,
    action: 'domain.added',
    targetId: 'shop.example.com',
    targetLabel: null,
    changes: { domain: { from: null, to: 'shop.example.com' } },
  },
];

describe('audit exports', () => {
  test('CSV: the columns in order, one row per entry, changes as JSON, formulas defused, CRLF', () => {
    const text = auditCsv(entries);
    expect(text.split('\r\n')[0]).toBe(AUDIT_CSV_COLUMNS.join(','));
    const rows = parse(text, { columns: true }) as Record<string, string>[];
    expect(rows).toEqual([
      {
        occurredAt: '2026-05-02T10:00:00.000Z',
        action: 'key.renamed',
        actorType: 'user',
        actorEmail: 'ada@acme.test',
        actorUserId: 'usr_1',
        ip: '203.0.113.7',
        targetId: 'kp_1',
        targetLabel: `'=HYPERLINK("http://evil")`,
        changes: JSON.stringify(entries[0]!.changes),
        entryId: 'aud_2',
      },
      {
        occurredAt: '2026-05-01T09:00:00.000Z',
        action: 'domain.added',
        actorType: 'cli',
        actorEmail: '',
        actorUserId: '',
        ip: '',
        targetId: 'shop.example.com',
        targetLabel: '',
        changes: '{"domain":{"from":null,"to":"shop.example.com"}}',
        entryId: 'aud_1',
      },
    ]);
  });

  test('JSON lines: one entry view per line, each line ended', () => {
    const text = auditJsonLines(entries);
    expect(text.endsWith('\n')).toBe(true);
    expect(
      text
        .trimEnd()
        .split('\n')
        .map((line) => JSON.parse(line)),
    ).toEqual(entries);
    expect(auditJsonLines([])).toBe('');
  });

  test('file names say the range asked for', () => {
    expect(auditExportFilename('csv', {})).toBe('audit.csv');
    expect(auditExportFilename('jsonl', { from: '2026-05-01', to: '2026-05-31' })).toBe('audit-from-2026-05-01-to-2026-05-31.jsonl');
    expect(auditExportFilename('csv', { to: '2026-05-31' })).toBe('audit-to-2026-05-31.csv');
  });
});
