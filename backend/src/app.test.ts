/**
 * The app while its database is unreachable (issue 15, item 2): every database-backed request is
 * 503 with Retry-After and the spec's error body, /healthz stays 200 (liveness), /readyz is 503.
 */
import { describe, expect, test } from 'bun:test';
import { createApp } from './app';
import { ManualClock } from './clock';
import type { Db } from './db/database';
import { createReadiness } from './db/readiness';
import { silentLogger } from './log';

/** A database whose every query fails as postgres.js fails when the server is gone, wrapped as drizzle wraps it. */
const unreachable = new Proxy(
  {},
  {
    get: () => () => {
      const driverError = Object.assign(new Error('write CONNECTION_CLOSED 127.0.0.1:5432'), { code: 'CONNECTION_CLOSED' });
      throw Object.assign(new Error('Failed query: select …'), { query: 'select …', params: ['pk_secret_value'], cause: driverError });
    },
  },
) as Db;

function outageApp(probe: () => Promise<unknown>) {
  const clock = new ManualClock();
  const app = createApp({
    db: unreachable,
    clock,
    logger: silentLogger,
    serverSecret: 'test-server-secret-0123456789abcdef0123456789',
    publicBaseUrl: 'http://localhost:3000',
    verifyUrl: 'http://localhost:3000/verify',
    maxBodyBytes: 16 * 1024,
    readiness: createReadiness(probe),
  });
  return { app, clock };
}

const down = async () => {
  throw Object.assign(new Error('connect ECONNREFUSED'), { code: 'ECONNREFUSED' });
};

describe('database unreachable', () => {
  test.each(['/api/v1/sessions/create', '/api/v1/sessions/validate'])('POST %s: 503, Retry-After, the spec error body', async (path) => {
    const { app, clock } = outageApp(down);
    const response = await app.handle(
      new Request(`http://localhost:3000${path}`, {
        method: 'POST',
        headers: { authorization: 'Bearer pk_test_whatever', 'content-type': 'application/json' },
        body: JSON.stringify({ returnUrl: 'https://shop.example.com/return', sessionId: 'ses_x' }),
      }),
    );
    expect(response.status).toBe(503);
    expect(Number(response.headers.get('retry-after'))).toBeGreaterThan(0);
    expect(await response.json()).toEqual({
      statusCode: 503,
      message: 'Service temporarily unavailable: the database cannot be reached; retry later',
      timestamp: clock.now().toISOString(),
      path,
      error: 'Service Unavailable',
    });
  });

  test('/healthz stays 200 and reports the database down once probed', async () => {
    const { app } = outageApp(down);
    const first = await app.handle(new Request('http://localhost:3000/healthz'));
    expect(first.status).toBe(200);
    expect(await first.json()).toEqual({ status: 'ok', database: { state: 'unknown' } });
    await app.handle(new Request('http://localhost:3000/readyz'));
    expect(await (await app.handle(new Request('http://localhost:3000/healthz'))).json()).toEqual({ status: 'ok', database: { state: 'down' } });
  });

  test('/readyz: 503 with Retry-After while down, 200 when up', async () => {
    const response = await outageApp(down).app.handle(new Request('http://localhost:3000/readyz'));
    expect(response.status).toBe(503);
    expect(response.headers.get('retry-after')).toBe('2');
    expect(((await response.json()) as { error: string }).error).toBe('Service Unavailable');

    const up = await outageApp(async () => 1).app.handle(new Request('http://localhost:3000/readyz'));
    expect(up.status).toBe(200);
    expect(await up.json()).toEqual({ status: 'ready', database: 'up' });
  });
});
