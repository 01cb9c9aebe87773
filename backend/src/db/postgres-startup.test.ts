/**
 * Regression (issue 15): the server process exited when PostgreSQL went away while a new
 * connection was still starting. postgres.js runs an internal query on every new connection (the
 * array types, `fetch_types`) and dropped its promise; when that query failed, the rejection had no
 * handler and Bun, like Node, exits on an unhandled rejection. The fault suite caught it after
 * `pg_ctl restart -m immediate` under load, with the reconnect refused:
 * "error: connect ECONNREFUSED … at afterConnect (node:net)". A connection that died during that
 * query also left the query and its ErrorResponse behind, and the next connection failed its
 * first query with the old server's error (porsager/postgres#1192, #1205, #1223).
 * Fixed in patches/postgres@3.4.9.patch. bun test fails a test in which a promise rejects without
 * a handler, so each test here also fails on the process-killing rejection itself.
 */
import { afterEach, describe, expect, test } from 'bun:test';
import postgres from 'postgres';
import { startFakePostgres, type FakePostgres } from '../testing/fake-postgres';

let fake: FakePostgres | null = null;
let sql: ReturnType<typeof postgres> | null = null;
afterEach(async () => {
  await sql?.end({ timeout: 1 });
  await fake?.stop();
  sql = null;
  fake = null;
});

/** Every unhandled rejection while `body` runs and shortly after (the dropped promise settles late). */
async function unhandledRejectionsDuring(body: () => Promise<void>): Promise<string[]> {
  const seen: string[] = [];
  const record = (reason: unknown) => seen.push(String((reason as Error)?.message ?? reason));
  process.on('unhandledRejection', record);
  try {
    await body();
    await Bun.sleep(50);
  } finally {
    process.off('unhandledRejection', record);
  }
  return seen;
}

const outcome = (promise: Promise<unknown>) =>
  promise.then(
    (rows) => `ok ${(rows as unknown[]).length} rows`,
    (error: Error & { code?: string }) => `failed ${error.code}`,
  );

async function connect() {
  fake = await startFakePostgres();
  // The service's own pool settings where they matter here: immediate reconnects, one connection.
  sql = postgres(fake.url, { max: 1, connect_timeout: 2, backoff: () => 0, onnotice: () => {} });
  return { fake, sql };
}

describe('postgres.js: a new connection that fails while it fetches the array types', () => {
  test('terminated, and the reconnect refused: the query fails, the process lives, the next connection works', async () => {
    const { fake, sql } = await connect();
    fake.setFirstQuery('terminate');
    fake.refuseAfterTerminate(true);
    let first = '';
    const unhandled = await unhandledRejectionsDuring(async () => {
      first = await outcome(sql`select 1`);
    });
    expect(unhandled).toEqual([]);
    expect(first).toBe('failed ECONNREFUSED');

    // PostgreSQL is back: the first query on the new connection must not get the old 57P01.
    fake.refuseAfterTerminate(false);
    await fake.reopen();
    let second = '';
    const unhandledAfter = await unhandledRejectionsDuring(async () => {
      second = await outcome(sql`select 1`);
    });
    expect(unhandledAfter).toEqual([]);
    expect(second).toBe('ok 0 rows');
    expect(fake.connections()).toBe(2);
  });

  test('terminated, and the reconnect accepted: the query runs on the new connection', async () => {
    const { fake, sql } = await connect();
    fake.setFirstQuery('terminate');
    let result = '';
    const unhandled = await unhandledRejectionsDuring(async () => {
      result = await outcome(sql`select 1`);
    });
    expect(unhandled).toEqual([]);
    expect(result).toBe('ok 0 rows');
    expect(fake.connections()).toBe(2);
  });

  test('the types query fails on a live connection: the query gets that error, the next one a new connection', async () => {
    const { fake, sql } = await connect();
    fake.setFirstQuery('cancel');
    let first = '';
    const unhandled = await unhandledRejectionsDuring(async () => {
      first = await outcome(sql`select 1`);
    });
    expect(unhandled).toEqual([]);
    // Without the types, array columns would come back as text: the connection is not used.
    expect(first).toBe('failed 57014');
    expect(await outcome(sql`select 1`)).toBe('ok 0 rows');
    expect(fake.connections()).toBe(2);
  });
});
