import { describe, expect, test } from 'bun:test';
import { databaseUnavailable } from './database-unavailable';

const withCode = (code: string) => Object.assign(new Error('x'), { code });
/** What drizzle throws: its own error, the driver's in `.cause`. */
const wrapped = (cause: unknown) => Object.assign(new Error('Failed query: select 1\nparams: '), { query: 'select 1', params: [], cause });

describe('databaseUnavailable', () => {
  test.each([
    ['postgres.js CONNECTION_CLOSED', withCode('CONNECTION_CLOSED'), true],
    ['postgres.js CONNECTION_ENDED', withCode('CONNECTION_ENDED'), true],
    ['postgres.js CONNECTION_DESTROYED', withCode('CONNECTION_DESTROYED'), true],
    ['postgres.js CONNECT_TIMEOUT', withCode('CONNECT_TIMEOUT'), true],
    ['socket ECONNREFUSED', withCode('ECONNREFUSED'), true],
    ['socket ECONNRESET', withCode('ECONNRESET'), true],
    ['57P01 admin_shutdown', withCode('57P01'), true],
    ['57P02 crash_shutdown', withCode('57P02'), true],
    ['57P03 cannot_connect_now', withCode('57P03'), true],
    ['57014 statement timeout', withCode('57014'), true],
    ['25P03 idle in transaction timeout', withCode('25P03'), true],
    ['08006 connection_failure', withCode('08006'), true],
    ['08P01 protocol_violation', withCode('08P01'), true],
    ['drizzle-wrapped CONNECTION_CLOSED', wrapped(withCode('CONNECTION_CLOSED')), true],
    ['drizzle-wrapped 57P01', wrapped(withCode('57P01')), true],
    ['twice wrapped ECONNREFUSED', wrapped(wrapped(withCode('ECONNREFUSED'))), true],
    ['23505 unique_violation', withCode('23505'), false],
    ['drizzle-wrapped 23505', wrapped(withCode('23505')), false],
    ['42P01 undefined_table', withCode('42P01'), false],
    ['plain Error', new Error('boom'), false],
    ['a string', 'CONNECTION_CLOSED', false],
    ['null', null, false],
    ['undefined', undefined, false],
  ])('%s → %p', (_name, error, expected) => {
    expect(databaseUnavailable(error)).toBe(expected);
  });

  test('a cause cycle ends', () => {
    const a: { code: string; cause?: unknown } = { code: 'X' };
    a.cause = a;
    expect(databaseUnavailable(a)).toBe(false);
  });
});
