/**
 * Issue 8 regressions at the HTTP edge, through the whole in-process app on both databases:
 * every public POST route × every hostile body (finding 3, wrong content types of finding 6) gets a
 * 4xx in the spec's error body with the X-RateLimit-* headers; trailing slashes do not change the
 * bucket (finding 4); wrong tokens cannot spend a session's verify-UI bucket (finding 5); wrong
 * methods are 405 with Allow and token-bearing answers are not cacheable (finding 6).
 */
import { afterAll, beforeAll, describe, expect, test } from 'bun:test';
import { count, like } from 'drizzle-orm';
import { TARGETS } from '../testing/test-databases';
import { createTestContext, type TestContext } from '../testing/test-app';
import { sessions } from '../db/schema';

type Json = Record<string, any>;

const ROUTES = [
  '/api/v1/sessions/create',
  '/api/v1/sessions/validate',
  '/api/v1/verify/session',
  '/api/v1/verify/simulate',
  '/api/v1/verify/status',
  '/api/v1/verify/cancel',
  '/api/v1/verify/challenges',
  '/api/v1/verify/document-instead',
] as const;

const MARK = 'hostile-marker';
const utf8 = (text: string) => new TextEncoder().encode(text);
const join = (...parts: Uint8Array[]) => {
  const out = new Uint8Array(parts.reduce((n, p) => n + p.byteLength, 0));
  let offset = 0;
  for (const part of parts) {
    out.set(part, offset);
    offset += part.byteLength;
  }
  return out;
};

interface Hostile {
  name: string;
  status: number;
  /** The body for a route, given the valid fields that route needs. */
  body(valid: Json): Uint8Array | string;
  contentType?: string;
  /** What the message must contain. */
  message: string | RegExp;
}

/** The field a route's hostile value goes into: one the route really reads. */
const FIELD: Record<(typeof ROUTES)[number], string> = {
  '/api/v1/sessions/create': 'externalUserId',
  '/api/v1/sessions/validate': 'sessionId',
  '/api/v1/verify/session': 'sessionId',
  '/api/v1/verify/simulate': 'sessionId',
  '/api/v1/verify/status': 'sessionId',
  '/api/v1/verify/cancel': 'sessionId',
  '/api/v1/verify/challenges': 'sessionId',
  '/api/v1/verify/document-instead': 'sessionId',
};

const hostileBodies = (field: string): Hostile[] => [
  {
    name: 'a NUL byte in a string',
    status: 400,
    body: (valid) => JSON.stringify({ ...valid, [field]: `${MARK}\u0000x` }),
    message: `${field} must not contain NUL (\\u0000) characters`,
  },
  {
    name: 'a lone surrogate',
    status: 400,
    body: (valid) => JSON.stringify({ ...valid, [field]: MARK }).replace(MARK, `${MARK}\\ud800`),
    message: `${field} must be well-formed Unicode text (it contains a lone surrogate)`,
  },
  {
    name: 'invalid UTF-8 bytes',
    status: 400,
    body: (valid) => {
      const [before, after] = JSON.stringify({ ...valid, [field]: MARK }).split(MARK);
      return join(utf8(`${before}${MARK}`), new Uint8Array([0xc3, 0x28, 0xff]), utf8(after!));
    },
    message: `${field} is not valid UTF-8`,
  },
  {
    // 20,000 bytes: over the 16 KiB default, so the size limit answers first.
    name: '10,000-deep nesting inside a string field',
    status: 413,
    body: (valid) => JSON.stringify({ ...valid, [field]: MARK }).replace(`"${MARK}"`, `${'['.repeat(10_000)}${']'.repeat(10_000)}`),
    message: 'Request body is larger than 16384 bytes',
  },
  {
    // The audit's ~4,500-deep array overflowed the validator's stack: now it never reaches it.
    name: '8,000-deep nesting inside a string field (within the size limit)',
    status: 400,
    body: (valid) => JSON.stringify({ ...valid, [field]: MARK }).replace(`"${MARK}"`, `${'['.repeat(8_000)}${']'.repeat(8_000)}`),
    message: `${field}[0][0]`,
  },
  {
    name: 'a 2 MB body',
    status: 413,
    body: (valid) => JSON.stringify({ ...valid, [field]: 'x'.repeat(2 * 1024 * 1024) }),
    message: 'Request body is larger than 16384 bytes',
  },
  {
    name: 'Content-Type text/plain',
    status: 415,
    contentType: 'text/plain',
    body: (valid) => JSON.stringify(valid),
    message: 'Content-Type must be application/json',
  },
  {
    name: 'Content-Type application/jsonx',
    status: 415,
    contentType: 'application/jsonx',
    body: (valid) => JSON.stringify(valid),
    message: 'Content-Type must be application/json',
  },
  {
    name: 'Content-Type with charset=utf-16',
    status: 415,
    contentType: 'application/json; charset=utf-16',
    body: (valid) => JSON.stringify(valid),
    message: 'Content-Type charset must be utf-8, got "utf-16"',
  },
  {
    name: 'Content-Type multipart/form-data',
    status: 415,
    contentType: 'multipart/form-data; boundary=x',
    body: () => '--x\r\nContent-Disposition: form-data; name="a"\r\n\r\nb\r\n--x--',
    message: 'Content-Type must be application/json',
  },
  { name: 'malformed JSON', status: 400, body: () => '{"sessionId":', message: 'Malformed JSON in request body' },
];

for (const target of TARGETS) {
  describe(`hostile input at every public POST route [${target}]`, () => {
    let ctx: TestContext;
    let tenant: Awaited<ReturnType<TestContext['tenant']>>;
    let session: Json;

    beforeAll(async () => {
      ctx = await createTestContext(target);
      tenant = await ctx.tenant();
      const response = await ctx.request('POST', '/api/v1/sessions/create', { key: tenant.secretKey, body: { returnUrl: 'https://shop.example.com/r' } });
      session = await ctx.json(response);
    });
    afterAll(() => ctx.close());

    const validBody = (route: (typeof ROUTES)[number]): Json => {
      if (route === '/api/v1/sessions/create') return { returnUrl: 'https://shop.example.com/r' };
      if (route === '/api/v1/sessions/validate') return { sessionId: session.sessionId };
      if (route === '/api/v1/verify/simulate') return { sessionId: session.sessionId, sessionToken: session.sessionToken, outcome: 'failed' };
      return { sessionId: session.sessionId, sessionToken: session.sessionToken };
    };
    const keyFor = (route: string) =>
      route.startsWith('/api/v1/sessions/create') ? tenant.publishableKey : route.startsWith('/api/v1/sessions/') ? tenant.secretKey : undefined;

    for (const route of ROUTES) {
      for (const hostile of hostileBodies(FIELD[route])) {
        test(`${route}: ${hostile.name} → ${hostile.status}`, async () => {
          const key = keyFor(route);
          const response = await ctx.app.handle(
            new Request(`http://localhost:3000${route}`, {
              method: 'POST',
              headers: { 'content-type': hostile.contentType ?? 'application/json', ...(key && { authorization: `Bearer ${key}` }) },
              body: hostile.body(validBody(route)),
            }),
          );
          expect(response.status).toBe(hostile.status);
          const body = await ctx.json(response);
          expect(body).toMatchObject({ statusCode: hostile.status, path: route, timestamp: expect.any(String), error: expect.any(String) });
          const message = Array.isArray(body.message) ? body.message.join('\n') : body.message;
          if (typeof hostile.message === 'string') expect(message).toContain(hostile.message);
          else expect(message).toMatch(hostile.message);
          for (const header of ['x-ratelimit-limit', 'x-ratelimit-window', 'x-ratelimit-remaining']) expect(response.headers.get(header)).toMatch(/^\d+$/);
          expect(response.headers.get('cache-control')).toBe('no-store');
        });
      }
    }

    test('nothing hostile reached the database', async () => {
      const [row] = await ctx.database.db
        .select({ n: count() })
        .from(sessions)
        .where(like(sessions.externalUserId, `%${MARK}%`));
      expect(row!.n).toBe(0);
    });

    test('the hostile requests were counted in the tenant buckets they were made against', async () => {
      const response = await ctx.request('POST', '/api/v1/sessions/validate', { key: tenant.secretKey, body: { sessionId: session.sessionId } });
      // One validation per hostile body was counted, and this one.
      expect(Number(response.headers.get('x-ratelimit-remaining'))).toBeLessThan(100 - hostileBodies('x').length);
    });
  });

  describe(`one canonical path per operation, one bucket per route [${target}]`, () => {
    let ctx: TestContext;
    beforeAll(async () => {
      ctx = await createTestContext(target);
    });
    afterAll(() => ctx.close());

    test.each(['/api/v1/sessions/validate/', '/api/v1/sessions/create/', '/api/v1/sessions//validate', '/api/v1/verify/status/'])(
      '%s is 404 and counts nothing',
      async (path) => {
        const t = await ctx.tenant();
        const response = await ctx.request('POST', path, { key: t.secretKey, body: { sessionId: 'ses_x' } });
        expect(response.status).toBe(404);
        const create = await ctx.request('POST', '/api/v1/sessions/create', { key: t.secretKey, body: { returnUrl: 'https://shop.example.com/r' } });
        expect(create.headers.get('x-ratelimit-remaining')).toBe('299');
        const validate = await ctx.request('POST', '/api/v1/sessions/validate', { key: t.secretKey, body: { sessionId: 'ses_x' } });
        expect(validate.headers.get('x-ratelimit-remaining')).toBe('99');
      },
    );

    test('validations with a trailing slash cannot go past the validate limit', async () => {
      const t = await ctx.tenant();
      ctx.clock.set(new Date(Math.ceil(ctx.clock.now().getTime() / 60_000) * 60_000));
      for (let i = 0; i < 100; i++) {
        const response = await ctx.request('POST', '/api/v1/sessions/validate', { key: t.secretKey, body: { sessionId: 'ses_unknown' } });
        if (response.status !== 404) throw new Error(`validation ${i + 1} got ${response.status}`);
      }
      for (const path of ['/api/v1/sessions/validate', '/api/v1/sessions/validate/']) {
        const response = await ctx.request('POST', path, { key: t.secretKey, body: { sessionId: 'ses_unknown' } });
        expect(response.status).toBe(path.endsWith('/') ? 404 : 429);
      }
    }, 120_000);

    test.each([
      ['GET', '/api/v1/sessions/create', 'POST'],
      ['PUT', '/api/v1/sessions/validate', 'POST'],
      ['DELETE', '/api/v1/verify/session', 'POST'],
      ['POST', '/healthz', 'GET, HEAD'],
      ['POST', '/verify', 'GET, HEAD'],
      ['PATCH', '/sdk/ageverify.iife.min.js', 'GET, HEAD'],
    ])('%s %s is 405 with Allow: %s', async (method, path, allow) => {
      const response = await ctx.request(method, path);
      expect(response.status).toBe(405);
      expect(response.headers.get('allow')).toBe(allow);
      const body = await ctx.json(response);
      expect(body).toMatchObject({ statusCode: 405, error: 'Method Not Allowed', path });
      expect(body.message).toBe(`${method} is not allowed on ${path}; use ${allow.split(', ').join(' or ')}`);
    });

    test('unknown paths stay 404', async () => {
      expect((await ctx.request('GET', '/api/v1/sessions/list')).status).toBe(404);
      expect((await ctx.request('POST', '/nowhere')).status).toBe(404);
    });

    test('token-bearing answers are never cached: creation and the verify UI session load', async () => {
      const t = await ctx.tenant();
      const created = await ctx.request('POST', '/api/v1/sessions/create', { key: t.publishableKey, body: { returnUrl: 'https://shop.example.com/r' } });
      expect(created.headers.get('cache-control')).toBe('no-store');
      const session = await ctx.json(created);
      const loaded = await ctx.request('POST', '/api/v1/verify/session', { body: { sessionId: session.sessionId, sessionToken: session.sessionToken } });
      expect(loaded.status).toBe(200);
      expect(loaded.headers.get('cache-control')).toBe('no-store');
    });
  });

  describe(`the verify UI bucket cannot be spent by strangers [${target}]`, () => {
    let ctx: TestContext;
    beforeAll(async () => {
      ctx = await createTestContext(target);
    });
    afterAll(() => ctx.close());

    test('120 requests with a garbage token leave the real user untouched; the stranger is limited', async () => {
      const t = await ctx.tenant();
      const session = await ctx.json(
        await ctx.request('POST', '/api/v1/sessions/create', { key: t.publishableKey, body: { returnUrl: 'https://shop.example.com/r' } }),
      );
      ctx.clock.set(new Date(Math.ceil(ctx.clock.now().getTime() / 60_000) * 60_000));
      const garbage = { sessionId: session.sessionId, sessionToken: 'garbage' };
      for (let i = 0; i < 120; i++) {
        const response = await ctx.request('POST', '/api/v1/verify/status', { body: garbage });
        if (response.status !== 401) throw new Error(`garbage request ${i + 1} got ${response.status}`);
      }
      const stranger = await ctx.request('POST', '/api/v1/verify/status', { body: garbage });
      expect(stranger.status).toBe(429);
      expect(stranger.headers.get('x-ratelimit-retry-after')).toBe('60');

      const user = await ctx.request('POST', '/api/v1/verify/session', { body: { sessionId: session.sessionId, sessionToken: session.sessionToken } });
      expect(user.status).toBe(200);
      expect(user.headers.get('x-ratelimit-remaining')).toBe('119');
    }, 120_000);
  });
}

/** The live-check route takes multipart bodies (modules/engine): the same hostile inputs, in its format. */
for (const target of TARGETS) {
  describe(`hostile input at POST /api/v1/verify/checks [${target}]`, () => {
    let ctx: TestContext;
    let session: Json;
    beforeAll(async () => {
      ctx = await createTestContext(target);
      const t = await ctx.tenant();
      session = await ctx.json(await ctx.request('POST', '/api/v1/sessions/create', { key: t.secretKey, body: { returnUrl: 'https://shop.example.com/r' } }));
    });
    afterAll(() => ctx.close());

    const multipart = (fields: Record<string, string | Blob>) => {
      const form = new FormData();
      for (const [name, value] of Object.entries(fields)) form.append(name, value);
      return form;
    };
    const post = (body: string | FormData, headers: Record<string, string> = {}) =>
      ctx.app.handle(new Request('http://localhost:3000/api/v1/verify/checks', { method: 'POST', headers, body }));

    test.each([
      [
        'a NUL byte in sessionId',
        () => multipart({ sessionId: `ses_${MARK}\u0000`, sessionToken: 'x', check: 'age_estimation', selfie: new Blob([new Uint8Array([1])]) }),
        400,
        'sessionId must not contain NUL',
      ],
      // (A lone surrogate cannot travel in multipart: FormData encodes it as U+FFFD, an ordinary character.)
      [
        'an unknown image part',
        () => multipart({ sessionId: 'ses_x', sessionToken: 'x', check: 'age_estimation', avatar: new Blob([new Uint8Array([1])]) }),
        400,
        'part avatar should not exist',
      ],
      ['an unknown check', () => multipart({ sessionId: 'ses_x', sessionToken: 'x', check: 'vibes' }), 400, 'check must be one of age_estimation, document'],
      ['a JSON body', () => JSON.stringify({ sessionId: 'ses_x' }), 415, 'Content-Type must be multipart/form-data'],
      [
        'an image over 4 MB',
        () => multipart({ sessionId: 'ses_x', sessionToken: 'x', check: 'age_estimation', selfie: new Blob([new Uint8Array(4 * 1024 * 1024 + 1)]) }),
        413,
        'is larger than',
      ],
    ] as const)('%s → %d', async (_name, body, status, message) => {
      const made = body();
      const response = await post(made, typeof made === 'string' ? { 'content-type': 'application/json' } : {});
      expect(response.status).toBe(status);
      const json = await ctx.json(response);
      expect(json).toMatchObject({ statusCode: status, path: '/api/v1/verify/checks', timestamp: expect.any(String), error: expect.any(String) });
      expect(Array.isArray(json.message) ? json.message.join('\n') : json.message).toContain(message);
      for (const header of ['x-ratelimit-limit', 'x-ratelimit-window', 'x-ratelimit-remaining']) expect(response.headers.get(header)).toMatch(/^\d+$/);
      expect(session.sessionId).toBeString();
    });
  });
}
