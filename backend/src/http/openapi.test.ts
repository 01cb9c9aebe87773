/** The OpenAPI document is generated from the route schemas and its examples satisfy them. */
import { afterAll, beforeAll, describe, expect, test } from 'bun:test';
import { Value } from '@sinclair/typebox/value';
import { createTestContext, type TestContext } from '../testing/test-app';
import { createSessionBody, createSessionResult, errorBodySchema, validateSessionBody, validateSessionResult } from '../modules/sessions/model';

describe('OpenAPI 3.1', () => {
  let ctx: TestContext;
  let doc: Record<string, any>;
  beforeAll(async () => {
    ctx = await createTestContext('pglite');
    const response = await ctx.request('GET', '/api/v1/openapi.json');
    expect(response.status).toBe(200);
    doc = (await response.json()) as Record<string, any>;
  });
  afterAll(() => ctx.close());

  test('is OpenAPI 3.1 and lists the merchant API, not internal or static routes', () => {
    expect(doc.openapi).toStartWith('3.1');
    expect(Object.keys(doc.paths).sort()).toEqual(['/api/v1/sessions/create', '/api/v1/sessions/validate', '/api/v1/verify/cancel', '/api/v1/verify/session', '/api/v1/verify/simulate', '/api/v1/verify/status']);
  });

  test('request and response schemas are the ones the routes validate with', () => {
    const create = doc.paths['/api/v1/sessions/create'].post;
    expect(Object.keys(create.requestBody.content)).toEqual(['application/json']);
    const body = create.requestBody.content['application/json'].schema;
    expect(body.additionalProperties).toBe(false);
    expect(Object.keys(body.properties).sort()).toEqual(Object.keys(createSessionBody.properties).sort());
    expect(body.required).toEqual(['returnUrl']);
    expect(Object.keys(create.responses).sort()).toEqual(['201', '400', '401', '403', '409', '429', '503']);
    // Idempotency-Key (issue 15, item 4) is documented as an optional header parameter.
    expect(create.parameters).toContainEqual(expect.objectContaining({ name: 'Idempotency-Key', in: 'header', required: false }));
    expect(Object.keys(create.responses['201'].content['application/json'].schema.properties).sort()).toEqual(Object.keys(createSessionResult.properties).sort());
    const validate = doc.paths['/api/v1/sessions/validate'].post;
    expect(Object.keys(validate.requestBody.content['application/json'].schema.properties)).toEqual(['sessionId']);
    expect(Object.keys(validate.responses).sort()).toEqual(['200', '400', '401', '403', '404', '409', '429']);
    for (const status of ['400', '401', '403', '404', '409', '429']) {
      expect(Object.keys(validate.responses[status].content['application/json'].schema.properties).sort()).toEqual(['code', 'error', 'message', 'path', 'statusCode', 'timestamp']);
    }
  });

  test('every example satisfies its schema', () => {
    for (const schema of [createSessionBody, createSessionResult, validateSessionBody, validateSessionResult, errorBodySchema]) {
      const examples = (schema as { examples?: unknown[] }).examples ?? [];
      expect(examples.length).toBeGreaterThan(0);
      for (const example of examples) expect(Value.Errors(schema, example).First()).toBeUndefined();
    }
  });

  test('declares both ways to send a key', () => {
    expect(Object.keys(doc.components.securitySchemes).sort()).toEqual(['apiKey', 'bearer']);
  });

  test('the reference page renders the document', async () => {
    const response = await ctx.request('GET', '/api/v1/reference');
    expect(response.status).toBe(200);
    const html = await response.text();
    expect(html).toContain('POST /api/v1/sessions/create');
    expect(html).toContain('Session has already been used');
    expect(html).toContain('/api/v1/openapi.json');
  });
});
