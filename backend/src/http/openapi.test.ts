/**
 * The OpenAPI document is generated from the route schemas and tells the truth: each error
 * response has its own examples with its own status, every response declares the headers the
 * routes send, and the examples satisfy the schemas. (scripts/openapi-lint.ts lints the same
 * document with Redocly CLI and Spectral, which also check every example against the document's
 * own schemas.)
 */
import { JWKS_PATH } from '../modules/receipts';
import { afterAll, beforeAll, describe, expect, test } from 'bun:test';
import { Value } from '@sinclair/typebox/value';
import { createTestContext, type TestContext } from '../testing/test-app';
import { createSessionBody, createSessionResult, errorBodySchema, validateSessionBody, validateSessionResult } from '../modules/sessions/model';
import { loadSessionBody, outcomeResult, sessionStatusResult, sessionTokenBody, sessionViewResult, simulateBody } from '../modules/verify/model';
import { REFERENCE_CSP } from './openapi';

const ERROR_PROPERTIES = ['code', 'error', 'message', 'path', 'statusCode', 'timestamp'];

describe('OpenAPI 3.1', () => {
  let ctx: TestContext;
  let doc: Record<string, any>;
  const operations = () =>
    Object.entries(doc.paths as Record<string, Record<string, any>>).flatMap(([path, methods]) =>
      Object.entries(methods).map(([method, op]) => ({ path, method, op })),
    );
  beforeAll(async () => {
    ctx = await createTestContext('pglite');
    const response = await ctx.request('GET', '/api/v1/openapi.json');
    expect(response.status).toBe(200);
    doc = (await response.json()) as Record<string, any>;
  });
  afterAll(() => ctx.close());

  test("is OpenAPI 3.1 and lists the merchant and verify UI APIs and the receipts' keys, not internal or static routes", () => {
    expect(doc.openapi).toStartWith('3.1');
    expect(Object.keys(doc.paths).sort()).toEqual([
      '/.well-known/jwks.json',
      '/api/v1/sessions/create',
      '/api/v1/sessions/validate',
      '/api/v1/verify/cancel',
      '/api/v1/verify/challenges',
      '/api/v1/verify/checks',
      '/api/v1/verify/document-instead',
      '/api/v1/verify/session',
      '/api/v1/verify/simulate',
      '/api/v1/verify/status',
    ]);
  });

  test('request and response schemas are the ones the routes validate with', () => {
    const create = doc.paths['/api/v1/sessions/create'].post;
    expect(Object.keys(create.requestBody.content)).toEqual(['application/json']);
    const body = create.requestBody.content['application/json'].schema;
    expect(body.additionalProperties).toBe(false);
    expect(Object.keys(body.properties).sort()).toEqual(Object.keys(createSessionBody.properties).sort());
    expect(body.required).toEqual(['returnUrl']);
    expect(Object.keys(create.responses).sort()).toEqual(['201', '400', '401', '403', '409', '413', '415', '429', '503']);
    // Idempotency-Key (issue 15, item 4) is documented as an optional header parameter.
    expect(create.parameters).toContainEqual(expect.objectContaining({ name: 'Idempotency-Key', in: 'header', required: false }));
    expect(Object.keys(create.responses['201'].content['application/json'].schema.properties).sort()).toEqual(
      Object.keys(createSessionResult.properties).sort(),
    );
    const validate = doc.paths['/api/v1/sessions/validate'].post;
    expect(Object.keys(validate.requestBody.content['application/json'].schema.properties)).toEqual(['sessionId']);
    expect(Object.keys(validate.responses).sort()).toEqual(['200', '400', '401', '403', '404', '409', '413', '415', '429']);
    expect(Object.keys(validate.responses['200'].content['application/json'].schema.properties).sort()).toEqual(
      Object.keys(validateSessionResult.properties).sort(),
    );
  });

  test('the verify UI operations declare their responses (protocol types) and that the token in the body is the credential', () => {
    const expected: Record<string, [{ properties: object }, string[]]> = {
      '/api/v1/verify/session': [sessionViewResult, ['200', '400', '401', '404', '413', '415', '429']],
      '/api/v1/verify/simulate': [outcomeResult, ['200', '400', '401', '403', '404', '409', '413', '415', '429']],
      '/api/v1/verify/status': [sessionStatusResult, ['200', '400', '401', '404', '413', '415', '429']],
      '/api/v1/verify/cancel': [outcomeResult, ['200', '400', '401', '404', '409', '413', '415', '429']],
    };
    for (const [path, [schema, statuses]] of Object.entries(expected)) {
      const op = doc.paths[path].post;
      expect(Object.keys(op.responses).sort()).toEqual(statuses);
      expect(Object.keys(op.responses['200'].content['application/json'].schema.properties).sort()).toEqual(Object.keys(schema.properties).sort());
      expect(op.security).toEqual([]);
      expect(op.tags).toEqual(['Verify UI']);
    }
  });

  test('every error response has examples of its own: statusCode is the response code, path the operation path', () => {
    const seen = new Set<string>();
    for (const { path, op } of operations()) {
      for (const [status, response] of Object.entries(op.responses as Record<string, any>)) {
        if (Number(status) < 400) continue;
        const media = response.content['application/json'];
        expect(Object.keys(media.schema.properties).sort()).toEqual(ERROR_PROPERTIES);
        // No shared schema-level example (it used to be one 400 copied onto every status).
        expect(media.schema.examples).toBeUndefined();
        const examples = Object.values(media.examples as Record<string, { summary: string; value: Record<string, unknown> }>);
        expect(examples.length).toBeGreaterThan(0);
        for (const { summary, value } of examples) {
          expect(summary.length).toBeGreaterThan(0);
          expect(value.statusCode).toBe(Number(status));
          expect(value.path).toBe(path);
          expect(Value.Errors(errorBodySchema, value).First()).toBeUndefined();
          seen.add(`${status} ${JSON.stringify(value.message)}`);
        }
      }
    }
    // The messages merchants meet most, each under its own status.
    for (const expected of [
      '401 "API key required"',
      '401 "Private API key required for session validation"',
      '403 "Session does not belong to this tenant"',
      '403 "Sandbox sessions cannot be validated with a live key"',
      '404 "Session not found"',
      '409 "Session has already been used"',
      '400 "Session has expired"',
      '400 "Return URL domain not allowed"',
    ]) {
      expect(seen).toContain(expected);
    }
    const launch = doc.paths['/api/v1/sessions/create'].post.responses['503'].content['application/json'].examples;
    expect(Object.values(launch as Record<string, { value: { code?: string } }>)[0]!.value.code).toBe('SESSION_LAUNCH_CONFIGURATION_UNAVAILABLE');
  });

  test('every response declares the rate-limit headers, Cache-Control and X-Request-Id; only 429 adds Retry-After', () => {
    for (const { path, op } of operations()) {
      if (path === JWKS_PATH) continue;
      for (const [status, response] of Object.entries(op.responses as Record<string, any>)) {
        const names = Object.keys(response.headers).sort();
        const always = ['Cache-Control', 'X-RateLimit-Limit', 'X-RateLimit-Remaining', 'X-RateLimit-Window', 'X-Request-Id'];
        expect(names).toEqual(status === '429' ? [...always, 'X-RateLimit-Retry-After'].sort() : always);
        for (const name of names) expect(doc.components.headers[name].description.length).toBeGreaterThan(0);
      }
    }
    expect(doc.components.headers['Cache-Control'].schema.const).toBe('no-store');
  });

  test("the receipts' key set is public and cached: no key, no rate limit, Cache-Control public (issue 24)", () => {
    const jwks = doc.paths[JWKS_PATH].get;
    expect(jwks.security).toEqual([]);
    expect(Object.keys(jwks.responses)).toEqual(['200']);
    expect(jwks.responses['200'].headers).toEqual({
      'Cache-Control': { $ref: '#/components/headers/Cache-Control-Public' },
      'X-Request-Id': { $ref: '#/components/headers/X-Request-Id' },
    });
    expect(doc.components.headers['Cache-Control-Public'].description).toBe('public, max-age=300');
  });

  test('every field of every request and response body has a description', () => {
    const undescribed: string[] = [];
    const visit = (schema: Record<string, any> | undefined, where: string) => {
      for (const variant of schema?.anyOf ?? []) visit(variant, where);
      for (const [name, property] of Object.entries((schema?.properties ?? {}) as Record<string, any>)) {
        if (!property.description) undescribed.push(`${where}.${name}`);
        visit(property, `${where}.${name}`);
        for (const variant of property.anyOf ?? []) visit(variant, `${where}.${name}`);
      }
    };
    for (const { path, op } of operations()) {
      for (const media of Object.values((op.requestBody?.content ?? {}) as Record<string, any>)) visit(media.schema, `${path} request`);
      for (const [status, response] of Object.entries(op.responses as Record<string, any>))
        visit(response.content?.['application/json']?.schema, `${path} ${status}`);
    }
    expect(undescribed).toEqual([]);
  });

  test('a null the verify UI API returns is allowed by the enum it belongs to', () => {
    const status = doc.paths['/api/v1/verify/status'].post.responses['200'].content['application/json'].schema.properties.status;
    expect(status.enum).toContain(null);
  });

  test('every schema example satisfies its schema', () => {
    const schemas = [
      createSessionBody,
      createSessionResult,
      validateSessionBody,
      validateSessionResult,
      errorBodySchema,
      loadSessionBody,
      simulateBody,
      sessionTokenBody,
      sessionViewResult,
      outcomeResult,
      sessionStatusResult,
    ];
    for (const schema of schemas) {
      const examples = (schema as { examples?: unknown[] }).examples ?? [];
      expect(examples.length).toBeGreaterThan(0);
      for (const example of examples) expect(Value.Errors(schema, example).First()).toBeUndefined();
    }
  });

  test('the examples are what the routes really answer', async () => {
    const example = (path: string, status: number, name: string) =>
      doc.paths[path].post.responses[String(status)].content['application/json'].examples[name].value;
    const expectLike = async (response: Response, path: string, status: number, name: string) => {
      expect(response.status).toBe(status);
      const body = (await response.json()) as Record<string, unknown>;
      const { timestamp: _t, ...expected } = example(path, status, name);
      const { timestamp: _u, ...actual } = body;
      expect(actual).toEqual(expected);
    };
    const create = '/api/v1/sessions/create';
    const validate = '/api/v1/sessions/validate';
    const { publishableKey, secretKey } = await ctx.tenant();
    await expectLike(await ctx.request('POST', create, { body: { returnUrl: 'https://shop.example.com/r' } }), create, 401, 'apiKeyRequired');
    await expectLike(
      await ctx.request('POST', create, { body: { returnUrl: 'https://shop.example.com/r' }, key: 'pk_test_unknown' }),
      create,
      401,
      'invalidKey',
    );
    await expectLike(
      await ctx.request('POST', create, { body: { returnUrl: 'https://shop.example.com/r', foo: 1 }, key: publishableKey }),
      create,
      400,
      'validation',
    );
    await expectLike(
      await ctx.request('POST', create, { body: { returnUrl: 'https://elsewhere.example.org/r' }, key: publishableKey }),
      create,
      400,
      'domainNotAllowed',
    );
    await expectLike(
      await ctx.request('POST', create, { rawBody: 'x', key: publishableKey, headers: { 'content-type': 'text/plain' } }),
      create,
      415,
      'notJson',
    );
    await expectLike(
      await ctx.request('POST', create, { rawBody: JSON.stringify({ returnUrl: 'x'.repeat(20_000) }), key: publishableKey }),
      create,
      413,
      'bodyTooLarge',
    );
    await expectLike(await ctx.request('POST', validate, { body: { sessionId: 'ses_missing' }, key: publishableKey }), validate, 401, 'secretKeyRequired');
    await expectLike(await ctx.request('POST', validate, { body: { sessionId: 'ses_missing' }, key: secretKey }), validate, 404, 'notFound');

    const session = await ctx.json(await ctx.request('POST', create, { body: { returnUrl: 'https://shop.example.com/r' }, key: publishableKey }));
    const simulate = '/api/v1/verify/simulate';
    const credentials = { sessionId: session.sessionId, sessionToken: session.sessionToken };
    await expectLike(await ctx.request('POST', simulate, { body: { ...credentials, outcome: 'maybe' } }), simulate, 400, 'outcome');
    await expectLike(
      await ctx.request('POST', simulate, { body: { ...credentials, sessionToken: 'st_wrong', outcome: 'verified' } }),
      simulate,
      401,
      'invalidToken',
    );
    expect((await ctx.request('POST', simulate, { body: { ...credentials, outcome: 'verified' } })).status).toBe(200);
    await expectLike(await ctx.request('POST', simulate, { body: { ...credentials, outcome: 'verified' } }), simulate, 409, 'completed');
    expect((await ctx.request('POST', validate, { body: { sessionId: session.sessionId }, key: secretKey })).status).toBe(200);
    await expectLike(await ctx.request('POST', validate, { body: { sessionId: session.sessionId }, key: secretKey }), validate, 409, 'alreadyUsed');
    const status = '/api/v1/verify/status';
    await expectLike(await ctx.request('POST', status, { body: { sessionId: session.sessionId } }), status, 400, 'sessionTokenRequired');
  });

  test('declares both ways to send a key', () => {
    expect(Object.keys(doc.components.securitySchemes).sort()).toEqual(['apiKey', 'bearer']);
    expect(doc.paths['/api/v1/sessions/create'].post.security).toEqual([{ bearer: [] }, { apiKey: [] }]);
  });

  test('the reference page loads Swagger UI from this server only, under a CSP of self', async () => {
    const response = await ctx.request('GET', '/api/v1/reference');
    expect(response.status).toBe(200);
    expect(response.headers.get('content-security-policy')).toBe(REFERENCE_CSP);
    expect(REFERENCE_CSP).not.toContain('unsafe');
    const html = await response.text();
    expect(html).not.toContain('<script>');
    expect(html).not.toContain('<style');
    const assets = [...html.matchAll(/(?:src|href)="([^"]+)"/g)].map((match) => match[1]!);
    expect(assets).toEqual([
      '/api/v1/reference/swagger-ui.css',
      '/api/v1/openapi.json',
      '/api/v1/reference/swagger-ui-bundle.js',
      '/api/v1/reference/start.js',
    ]);
    for (const asset of assets) {
      const file = await ctx.request('GET', asset);
      expect(file.status).toBe(200);
      expect((await file.text()).length).toBeGreaterThan(0);
    }
    expect(await (await ctx.request('GET', '/api/v1/reference/start.js')).text()).toContain('url: "/api/v1/openapi.json"');
  });
});
