/** The spec's error body on every error response (spec "Error body"; issue: never Elysia's 422 shape). */
import { afterAll, beforeAll, describe, expect, test } from 'bun:test';
import { Elysia } from 'elysia';
import { createTestContext, type TestContext } from '../testing/test-app';
import { ManualClock } from '../clock';
import { createLogger } from '../log';
import { AppError } from '../errors/app-error';
import { SESSION_ERRORS } from '../modules/sessions/errors';
import { TENANT_ERRORS } from '../modules/tenants/errors';
import { WEBHOOK_ERRORS } from '../modules/webhooks/errors';
import { errorHandling } from './error-handling';

describe('error responses', () => {
  let ctx: TestContext;
  let key: string;
  beforeAll(async () => {
    ctx = await createTestContext('pglite');
    key = (await ctx.tenant()).publishableKey;
  });
  afterAll(() => ctx.close());

  const expectErrorBody = async (response: Response, status: number, path: string) => {
    expect(response.status).toBe(status);
    expect(response.headers.get('content-type')).toContain('application/json');
    const body = (await response.json()) as Record<string, unknown>;
    expect(Object.keys(body).sort()).toEqual(['error', 'message', 'path', 'statusCode', 'timestamp']);
    expect(body.statusCode).toBe(status);
    expect(body.path).toBe(path);
    expect(body.timestamp).toBe(ctx.clock.now().toISOString());
    return body as { message: string | string[]; error: string };
  };

  test('unknown route: 404', async () => {
    const body = await expectErrorBody(await ctx.request('GET', '/api/v1/nope'), 404, '/api/v1/nope');
    expect(body.error).toBe('Not Found');
  });

  test('malformed JSON: 400 saying so', async () => {
    const body = await expectErrorBody(await ctx.request('POST', '/api/v1/sessions/create', { key, rawBody: '{"returnUrl":' }), 400, '/api/v1/sessions/create');
    expect(body.message).toStartWith('Malformed JSON in request body');
  });

  test('validation errors: 400 with an array of messages, one per field', async () => {
    const body = await expectErrorBody(
      await ctx.request('POST', '/api/v1/sessions/create', {
        key,
        body: { foo: 1, returnUrl: 5, challengeAge: 24.5, verificationMode: 'L3', faceMatchEnabled: 'yes' },
      }),
      400,
      '/api/v1/sessions/create',
    );
    expect([...(body.message as string[])].sort()).toEqual(
      [
        'property foo should not exist',
        'returnUrl must be a string',
        'verificationMode must be one of: L1, L2',
        'challengeAge must be an integer',
        'faceMatchEnabled must be a boolean',
      ].sort(),
    );
    expect(body.error).toBe('Bad Request');
  });

  test.each([
    [{ returnUrl: 'https://shop.example.com', challengeAge: 24 }, 'challengeAge must be an integer from 25 to 99'],
    [{ returnUrl: 'https://shop.example.com', challengeAge: 100 }, 'challengeAge must be an integer from 25 to 99'],
    [{ returnUrl: 'https://shop.example.com', challengeAge: '30' }, 'challengeAge must be an integer'],
    [{ returnUrl: 'https://shop.example.com', merchantName: 'x'.repeat(121) }, 'merchantName must be at most 120 characters long'],
    [{}, 'returnUrl is required'],
  ])('body %j → %s', async (payload, message) => {
    const body = await expectErrorBody(await ctx.request('POST', '/api/v1/sessions/create', { key, body: payload }), 400, '/api/v1/sessions/create');
    expect(body.message).toEqual([message]);
  });

  test('a body that is not an object: 400', async () => {
    const body = await expectErrorBody(await ctx.request('POST', '/api/v1/sessions/create', { key, rawBody: '[1,2]' }), 400, '/api/v1/sessions/create');
    expect(body.message).toEqual(['request body must be a JSON object']);
  });

  test('oversized body: 413', async () => {
    const rawBody = JSON.stringify({ returnUrl: 'https://shop.example.com', merchantName: 'x'.repeat(20_000) });
    const body = await expectErrorBody(await ctx.request('POST', '/api/v1/sessions/create', { key, rawBody }), 413, '/api/v1/sessions/create');
    expect(body.message).toBe('Request body is larger than 16384 bytes');
  });

  test('oversized streamed body without Content-Length: 413, reading stops at the limit', async () => {
    let sent = 0;
    const stream = new ReadableStream<Uint8Array>({
      pull(controller) {
        // An endless upload: the server must stop reading, not buffer it all.
        sent += 4096;
        if (sent > 10 * 1024 * 1024) controller.close();
        else controller.enqueue(new Uint8Array(4096).fill(97));
      },
    });
    const response = await ctx.app.handle(
      new Request('http://localhost:3000/api/v1/sessions/create', {
        method: 'POST',
        headers: { 'content-type': 'application/json', authorization: `Bearer ${key}` },
        body: stream,
      }),
    );
    const body = await expectErrorBody(response, 413, '/api/v1/sessions/create');
    expect(body.message).toBe('Request body is larger than 16384 bytes');
    expect(sent).toBeLessThan(1024 * 1024);
  });

  test('a body that is not JSON: 415', async () => {
    const body = await expectErrorBody(
      await ctx.request('POST', '/api/v1/sessions/create', { key, rawBody: 'returnUrl=x', headers: { 'content-type': 'application/x-www-form-urlencoded' } }),
      415,
      '/api/v1/sessions/create',
    );
    expect(body.message).toContain('Content-Type must be application/json');
  });

  test('every response carries an X-Request-Id; a sane incoming id is kept', async () => {
    const fresh = await ctx.request('GET', '/healthz');
    expect(fresh.headers.get('x-request-id')).toMatch(/^req_[0-9A-Za-z]{16}$/);
    const kept = await ctx.request('GET', '/api/v1/nope', { headers: { 'x-request-id': 'merchant-abc-123' } });
    expect(kept.headers.get('x-request-id')).toBe('merchant-abc-123');
    const replaced = await ctx.request('GET', '/healthz', { headers: { 'x-request-id': 'bad id with spaces\n' } });
    expect(replaced.headers.get('x-request-id')).toMatch(/^req_/);
  });
});

describe('access log', () => {
  test('logs the request id and the status actually sent, also for failures before routing', async () => {
    const { createApp } = await import('../app');
    const { openTestDatabase } = await import('../testing/test-databases');
    const { createLogger } = await import('../log');
    const { ManualClock } = await import('../clock');
    const lines: Record<string, unknown>[] = [];
    const database = await openTestDatabase('pglite');
    try {
      const app = createApp({
        db: database.db,
        clock: new ManualClock(),
        logger: createLogger('info', (line) => lines.push(JSON.parse(line))),
        serverSecret: 'x'.repeat(40),
        publicBaseUrl: 'http://localhost:3000',
        verifyUrl: 'http://localhost:3000/verify',
        maxBodyBytes: 1024,
      });
      // With a key: the Sessions API authenticates before it reads a body (issue 8, finding 6).
      const { createTenant } = await import('../modules/tenants/service');
      const { publishableKey } = await createTenant(database.db, new ManualClock(), { name: 'Log Shop', domains: ['shop.example.com'], sandbox: true });
      const response = await app.handle(
        new Request('http://localhost:3000/api/v1/sessions/create', {
          method: 'POST',
          headers: { 'content-type': 'application/json', 'x-request-id': 'abc-1', authorization: `Bearer ${publishableKey}` },
          body: 'x'.repeat(5000),
        }),
      );
      expect(response.status).toBe(413);
      await Bun.sleep(10); // onAfterResponse runs after the response is handed over
      expect(lines.find((line) => line.msg === 'request')).toMatchObject({ requestId: 'abc-1', status: 413, method: 'POST', path: '/api/v1/sessions/create' });
    } finally {
      await database.close();
    }
  });
});

describe('every AppError becomes the spec error body with its status', () => {
  const clock = new ManualClock();
  const logged: string[] = [];
  const logger = createLogger('error', (line) => logged.push(line));
  const failures: Record<string, () => never> = {
    '/tenant': () => {
      throw TENANT_ERRORS.TENANT_NOT_FOUND({ tenantId: 'ten_nope' });
    },
    '/edit': () => {
      throw WEBHOOK_ERRORS.NOTHING_TO_CHANGE();
    },
    '/launch': () => {
      throw SESSION_ERRORS.SESSION_LAUNCH_CONFIGURATION_UNAVAILABLE();
    },
    '/statusless': () => {
      throw new AppError('SOMETHING_INTERNAL', 'pool exhausted at db-3');
    },
  };
  const app = new Elysia().use(errorHandling({ clock, logger, maxBodyBytes: 1024 }));
  for (const [path, fail] of Object.entries(failures)) app.get(path, fail);
  const get = async (path: string) => {
    const response = await app.handle(new Request(`http://localhost${path}`));
    return { status: response.status, body: (await response.json()) as Record<string, unknown> };
  };

  test('a provisioning refusal is a 4xx, not an unmapped 500; its words name no CLI flag', async () => {
    expect(await get('/tenant')).toEqual({
      status: 404,
      body: { statusCode: 404, message: 'no tenant with id "ten_nope"', timestamp: clock.now().toISOString(), path: '/tenant', error: 'Not Found' },
    });
    const { status, body } = await get('/edit');
    expect(status).toBe(400);
    expect(body.message).not.toContain('--');
  });

  test('`code` is in the body only where the spec names one', async () => {
    expect((await get('/launch')).body).toMatchObject({ statusCode: 503, code: 'SESSION_LAUNCH_CONFIGURATION_UNAVAILABLE' });
    expect(Object.keys((await get('/tenant')).body)).not.toContain('code');
  });

  test('an AppError without a status is a logged bare 500', async () => {
    expect((await get('/statusless')).body).toMatchObject({ statusCode: 500, message: 'Internal server error' });
    expect(logged.join('\n')).toContain('pool exhausted at db-3');
  });
});
