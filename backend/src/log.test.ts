/**
 * Issue 8, finding 7: failed-query logs carried externalUserId, returnUrl and token hashes. A real
 * database failure during session creation, on both databases, must log codes and names only.
 */
import { afterAll, beforeAll, describe, expect, test } from 'bun:test';
import { sql } from 'drizzle-orm';
import { createApp } from './app';
import { ManualClock } from './clock';
import { createLogger, describeError } from './log';
import { createTenant } from './modules/tenants/service';
import { TARGETS, openTestDatabase, type TestDatabase } from './testing/test-databases';
import { TEST_SECRET } from './testing/test-app';

const TYPED_BY_A_USER = 'private-user-9f3a71';
const RETURN_URL = 'https://shop.example.com/private-return-path-77c1';

for (const target of TARGETS) {
  describe(`error logs hold no values a user typed [${target}]`, () => {
    let database: TestDatabase;
    const lines: string[] = [];
    let app: ReturnType<typeof createApp>;
    let key: string;

    beforeAll(async () => {
      database = await openTestDatabase(target);
      const clock = new ManualClock();
      app = createApp({
        db: database.db,
        clock,
        logger: createLogger('debug', (line) => lines.push(line)),
        serverSecret: TEST_SECRET,
        publicBaseUrl: 'http://localhost:3000',
        verifyUrl: 'http://localhost:3000/verify',
        maxBodyBytes: 16 * 1024,
      });
      key = (await createTenant(database.db, clock, { name: 'Log Shop', domains: ['shop.example.com'], sandbox: true })).publishableKey;
      // A real failure inside the create transaction: the sessions table is gone.
      await database.db.execute(sql`alter table sessions rename to sessions_gone`);
    });
    afterAll(() => database.close());

    test('a failed insert is a 500 whose log line has the SQLSTATE and the query text, not the parameters', async () => {
      const response = await app.handle(
        new Request('http://localhost:3000/api/v1/sessions/create', {
          method: 'POST',
          headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
          body: JSON.stringify({ returnUrl: RETURN_URL, externalUserId: TYPED_BY_A_USER, merchantName: TYPED_BY_A_USER }),
        }),
      );
      expect(response.status).toBe(500);
      expect(JSON.stringify(await response.json())).not.toContain(TYPED_BY_A_USER);
      await Bun.sleep(10); // the access log is written after the response
      const failure = lines.map((line) => JSON.parse(line)).find((line) => line.msg === 'unhandled error');
      expect(failure).toMatchObject({ sqlstate: '42P01', path: '/api/v1/sessions/create' });
      expect(typeof failure.query).toBe('string');
      const all = lines.join('\n');
      expect(all).not.toContain(TYPED_BY_A_USER);
      expect(all).not.toContain('private-return-path');
      expect(all).not.toMatch(/"params"|params:/);
    });
  });
}

describe('describeError', () => {
  test('a failed query keeps its SQL and codes, drops its parameters and the driver message', () => {
    const cause = Object.assign(new Error('invalid input syntax for type integer: "secret-value"'), {
      code: '22P02',
      severity: 'ERROR',
      routine: 'pg_strtoint32_safe',
    });
    const failed = Object.assign(new Error('Failed query: insert into x values ($1)\nparams: secret-value'), {
      query: 'insert into x values ($1)',
      params: ['secret-value'],
      cause,
    });
    const described = describeError(failed);
    expect(described).toMatchObject({ query: 'insert into x values ($1)', sqlstate: '22P02', routine: 'pg_strtoint32_safe' });
    expect(JSON.stringify(described)).not.toContain('secret-value');
  });

  test('a bare database error keeps only its codes', () => {
    const error = Object.assign(new Error('duplicate key value: Key (id)=(secret-id) already exists'), {
      code: '23505',
      severity: 'ERROR',
      constraint_name: 'sessions_pkey',
      detail: 'Key (id)=(secret-id)',
    });
    const described = describeError(error);
    expect(described).toMatchObject({ sqlstate: '23505', constraint_name: 'sessions_pkey' });
    expect(JSON.stringify(described)).not.toContain('secret-id');
  });

  test('other errors keep message and stack (programming errors)', () => {
    expect(describeError(new TypeError('x is undefined'))).toMatchObject({ error: 'TypeError', message: 'x is undefined', stack: expect.any(String) });
  });
});
