/** The audit filters, table first: each bad value with the words its 400 answers. */
import { describe, expect, test } from 'bun:test';
import { AUDIT_ERRORS } from './errors';
import { readExportQuery, readListQuery } from './filters';

function problems(run: () => unknown): string[] {
  try {
    run();
  } catch (error) {
    if (AUDIT_ERRORS.FILTER_INVALID.is(error)) return error.messages as string[];
    throw error;
  }
  return [];
}

describe('readListQuery', () => {
  test('no filter: every action, any actor, all time, the default page', () => {
    expect(readListQuery({})).toEqual({ filters: { actions: null, actor: null, start: null, end: null }, limit: 50 });
    // Empty values (an untouched form field) are no filter either.
    expect(readListQuery({ action: '', actor: '', from: '', to: '' }).filters).toEqual({ actions: null, actor: null, start: null, end: null });
  });

  test('an action, a group, each kind of actor, whole UTC days with `to` inclusive', () => {
    expect(readListQuery({ action: 'key.revoked' }).filters.actions).toEqual(['key.revoked']);
    expect(readListQuery({ action: 'domain' }).filters.actions).toEqual(['domain.added', 'domain.removed']);
    expect(readListQuery({ actor: 'cli' }).filters.actor).toEqual({ type: 'cli' });
    expect(readListQuery({ actor: 'system' }).filters.actor).toEqual({ type: 'system' });
    expect(readListQuery({ actor: 'usr_0123456789abcdefABCDEF' }).filters.actor).toEqual({ type: 'user', userId: 'usr_0123456789abcdefABCDEF' });
    expect(readListQuery({ actor: ' Ada@Acme.test ' }).filters.actor).toEqual({ type: 'user', email: 'ada@acme.test' });
    const { filters } = readListQuery({ from: '2026-05-01', to: '2026-05-01' });
    expect([filters.start?.toISOString(), filters.end?.toISOString()]).toEqual(['2026-05-01T00:00:00.000Z', '2026-05-02T00:00:00.000Z']);
    expect(readListQuery({ limit: '200' }).limit).toBe(200);
  });

  const bad: [query: Record<string, string>, expected: string[]][] = [
    [{ action: 'keys' }, ['action must be a group (tenant, key, domain, endpoint, member, policy, plan) or one of their actions, such as key.revoked']],
    [{ action: 'key.deleted' }, ['action must be a group (tenant, key, domain, endpoint, member, policy, plan) or one of their actions, such as key.revoked']],
    [{ actor: 'somebody' }, ['actor must be cli, system, a user id (usr_…) or an email address']],
    [{ actor: 'CLI' }, ['actor must be cli, system, a user id (usr_…) or an email address']],
    [{ from: '2026-02-30' }, ['from must be a date (YYYY-MM-DD)']],
    [{ from: 'yesterday' }, ['from must be a date (YYYY-MM-DD)']],
    [{ to: '2026-5-1' }, ['to must be a date (YYYY-MM-DD)']],
    [{ from: '2026-05-03', to: '2026-05-02' }, ['from must be no later than to']],
    [{ limit: '0' }, ['limit must be a whole number from 1 to 200']],
    [{ limit: '201' }, ['limit must be a whole number from 1 to 200']],
    [{ limit: '1.5' }, ['limit must be a whole number from 1 to 200']],
    [{ limit: 'ten' }, ['limit must be a whole number from 1 to 200']],
    // Every problem at once.
    [
      { action: 'nope', from: 'x', limit: '-1' },
      [
        'action must be a group (tenant, key, domain, endpoint, member, policy, plan) or one of their actions, such as key.revoked',
        'from must be a date (YYYY-MM-DD)',
        'limit must be a whole number from 1 to 200',
      ],
    ],
  ];
  for (const [query, expected] of bad) {
    test(`${JSON.stringify(query)} → 400`, () => {
      expect(problems(() => readListQuery(query))).toEqual(expected);
    });
  }
});

describe('readExportQuery', () => {
  test('csv and jsonl, with the same filters', () => {
    expect(readExportQuery({ format: 'csv', action: 'key' }).format).toBe('csv');
    expect(readExportQuery({ format: 'jsonl' }).format).toBe('jsonl');
  });

  test('the format is required and named', () => {
    expect(problems(() => readExportQuery({}))).toEqual(['format must be one of: csv, jsonl']);
    expect(problems(() => readExportQuery({ format: 'xlsx', actor: '??' }))).toEqual([
      'actor must be cli, system, a user id (usr_…) or an email address',
      'format must be one of: csv, jsonl',
    ]);
  });
});
