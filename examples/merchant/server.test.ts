/**
 * The example shop against a fake age verification service: the pages must rest on the
 * server-side validation and never on the redirect's query parameters.
 */
import { afterAll, beforeEach, describe, expect, test } from 'bun:test';
import { createMerchant } from './server';

const PUBLISHABLE_KEY = 'pk_test_publishable';
const SECRET_KEY = 'sk_test_secret';

interface ValidateCall {
  authorization: string | null;
  body: unknown;
}

const calls: ValidateCall[] = [];
/** What the fake service answers to the next validation: [status, body]. */
let nextAnswer: [number, unknown] = [200, {}];

const fakeService = Bun.serve({
  hostname: '127.0.0.1',
  port: 0,
  async fetch(request) {
    const url = new URL(request.url);
    if (request.method !== 'POST' || url.pathname !== '/api/v1/sessions/validate') return new Response('not found', { status: 404 });
    calls.push({ authorization: request.headers.get('authorization'), body: await request.json() });
    const [status, body] = nextAnswer;
    return Response.json(body, { status });
  },
});
const serviceUrl = `http://127.0.0.1:${fakeService.port}`;
const merchant = createMerchant({ serviceUrl, publishableKey: PUBLISHABLE_KEY, secretKey: SECRET_KEY });

afterAll(() => fakeService.stop(true));
beforeEach(() => {
  calls.length = 0;
});

function validationResult(overrides: Record<string, unknown>) {
  return {
    sessionId: 'ses_1',
    merchantId: 'ten_1',
    verified: true,
    accessGranted: true,
    status: 'verified',
    verificationMode: 'L1',
    challengeAge: 25,
    faceMatchEnabled: true,
    externalUserId: 'user-42',
    testMode: false,
    sandboxMode: true,
    timestamp: new Date().toISOString(),
    expiresAt: new Date().toISOString(),
    ...overrides,
  };
}

async function get(path: string): Promise<{ status: number; text: string }> {
  const response = await merchant(new Request(`http://127.0.0.1:4000${path}`));
  return { status: response.status, text: await response.text() };
}

describe('GET /', () => {
  test('loads the SDK from the service and configures it with the publishable key only', async () => {
    const { status, text } = await get('/');
    expect(status).toBe(200);
    expect(text).toContain(`<script src="${serviceUrl}/sdk/ageverify.iife.min.js"></script>`);
    expect(text).toContain('data-testid="verify-button"');
    expect(text).toContain('"returnUrl":"http://127.0.0.1:4000/return"');
    expect(text).toContain(`"baseUrl":"${serviceUrl}/api/v1"`);
    expect(text).toContain(`"apiKey":"${PUBLISHABLE_KEY}"`);
    expect(text).toContain('"externalUserId":"user-42"');
    expect(text).not.toContain(SECRET_KEY);
  });
});

describe('GET /return', () => {
  test('validates the sessionId with the secret key, sending nothing else', async () => {
    nextAnswer = [200, validationResult({ sessionId: 'ses_abc' })];
    await get('/return?sessionId=ses_abc&status=verified&timestamp=1&sessionToken=leaked');
    expect(calls).toEqual([{ authorization: `Bearer ${SECRET_KEY}`, body: { sessionId: 'ses_abc' } }]);
  });

  test('grants access when validation says so, whatever the redirect claimed', async () => {
    nextAnswer = [200, validationResult({})];
    const { status, text } = await get('/return?sessionId=ses_1&status=failed');
    expect(status).toBe(200);
    expect(text).toContain('data-testid="access-granted"');
    expect(text).not.toContain('data-testid="access-denied"');
    expect(text).toContain('<dd data-testid="validated-status">verified</dd>');
    expect(text).toContain('<dd data-testid="validated-external-user-id">user-42</dd>');
  });

  test('denies access when validation says failed, even if the redirect claims verified', async () => {
    nextAnswer = [200, validationResult({ verified: false, accessGranted: false, status: 'failed' })];
    const { text } = await get('/return?sessionId=ses_1&status=verified');
    expect(text).toContain('data-testid="access-denied"');
    expect(text).not.toContain('data-testid="access-granted"');
    expect(text).toContain('<dd data-testid="validated-status">failed</dd>');
  });

  test('denies access for a verified status without accessGranted', async () => {
    nextAnswer = [200, validationResult({ accessGranted: false })];
    const { text } = await get('/return?sessionId=ses_1&status=verified');
    expect(text).toContain('data-testid="access-denied"');
  });

  test.each([
    [409, { statusCode: 409, message: 'Session has already been used' }, 'Session has already been used'],
    [404, { statusCode: 404, message: 'Session not found' }, 'Session not found'],
    [400, { statusCode: 400, message: ['sessionId must be a string', 'x should not exist'] }, 'sessionId must be a string; x should not exist'],
    [500, 'not json', 'HTTP 500'],
  ])('shows a rejected validation (HTTP %i) as access denied with its message', async (httpStatus, body, message) => {
    nextAnswer = [httpStatus, body];
    const { text } = await get('/return?sessionId=ses_1&status=verified');
    expect(text).toContain('data-testid="access-denied"');
    expect(text).toContain(`(HTTP ${httpStatus})`);
    expect(text).toContain(`<strong data-testid="validation-error">${message}</strong>`);
  });

  test('shows an unreachable service as access denied', async () => {
    const offline = createMerchant({ serviceUrl: 'http://127.0.0.1:9', publishableKey: PUBLISHABLE_KEY, secretKey: SECRET_KEY });
    const text = await (await offline(new Request('http://127.0.0.1:4000/return?sessionId=ses_1&status=verified'))).text();
    expect(text).toContain('data-testid="access-denied"');
    expect(text).toContain('Could not reach the age verification service');
  });

  test('escapes values from the query and from the service', async () => {
    nextAnswer = [200, validationResult({ externalUserId: '<img src=x onerror=alert(1)>' })];
    const { text } = await get('/return?sessionId=ses_1&status=%3Cscript%3E');
    expect(text).not.toContain('<img src=x');
    expect(text).not.toContain('<script>');
    expect(text).toContain('&lt;img src=x onerror=alert(1)&gt;');
    expect(text).toContain('status=&lt;script&gt;');
  });

  test('answers 400 without a sessionId and does not call the service', async () => {
    const { status } = await get('/return?status=verified');
    expect(status).toBe(400);
    expect(calls).toHaveLength(0);
  });
});

test('unknown paths are 404 and other methods 405', async () => {
  expect((await get('/admin')).status).toBe(404);
  expect((await merchant(new Request('http://127.0.0.1:4000/', { method: 'POST' }))).status).toBe(405);
});
