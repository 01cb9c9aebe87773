import { describe, expect, test } from 'bun:test';
import { CANCEL_TIMEOUT_MS, CREATE_TIMEOUT_MS, createSession, reportCancel } from './session-api';
import { BASE_URL, FakeBrowser, created, jsonResponse, textResponse } from './testing/fake-environment';
import type { Environment } from './environment';

function setup() {
  const browser = new FakeBrowser();
  const env = browser.environment() as Environment;
  const call = (body = { returnUrl: 'https://shop.example/done' }) => createSession(env, { baseUrl: BASE_URL, apiKey: 'pk_test_1', body });
  return { browser, call };
}

describe('createSession: the request (spec "POST /sessions/create")', () => {
  test('POSTs JSON to {base_url}/sessions/create with the key as a Bearer token and no cookies', async () => {
    const { browser, call } = setup();
    await call({ returnUrl: 'https://shop.example/done', externalUserId: 'u1', challengeAge: 30 } as never);
    expect(browser.requests).toHaveLength(1);
    const [request] = browser.requests;
    expect(request?.url).toBe('https://verify.example.com/api/v1/sessions/create');
    expect(request?.init.method).toBe('POST');
    expect(request?.init.headers.Authorization).toBe('Bearer pk_test_1');
    expect(request?.init.headers['Content-Type']).toBe('application/json');
    expect(request?.init.credentials).toBe('omit');
    expect(request?.body).toEqual({ returnUrl: 'https://shop.example/done', externalUserId: 'u1', challengeAge: 30 });
  });
});

describe('createSession: answers', () => {
  test('201 gives the session, verifyUrl untouched', async () => {
    const { call } = setup();
    const outcome = await call();
    expect(outcome.ok).toBe(true);
    if (outcome.ok) expect(outcome.session.verifyUrl).toBe('https://verify.example.com/verify?sessionId=ses_123&sessionToken=tok.abc~def');
  });

  test('201 with a billingBlock is still a session', async () => {
    const { browser, call } = setup();
    browser.respond = () => created({ billingBlock: { code: 'PLAN_LIMIT_REACHED', message: 'Limit reached' } });
    const outcome = await call();
    expect(outcome.ok).toBe(true);
  });

  const failures: [string, () => ReturnType<FakeBrowser['respond']>, string, number | undefined, string[]][] = [
    [
      '400 with validation messages',
      () =>
        jsonResponse(400, {
          statusCode: 400,
          message: ['property foo should not exist', 'returnUrl must be a URL'],
          timestamp: 't',
          path: '/api/v1/sessions/create',
          error: 'Bad Request',
        }),
      'API_ERROR',
      400,
      ['HTTP 400', 'property foo should not exist; returnUrl must be a URL'],
    ],
    [
      '400 domain not allowed',
      () => jsonResponse(400, { statusCode: 400, message: 'Return URL domain not allowed', timestamp: 't', path: '/p' }),
      'API_ERROR',
      400,
      ['Return URL domain not allowed', 'allowed-domain list'],
    ],
    [
      '401 missing key',
      () => jsonResponse(401, { statusCode: 401, message: 'API key required', timestamp: 't', path: '/p', error: 'Unauthorized' }),
      'API_ERROR',
      401,
      ['HTTP 401', 'API key required', 'active publishable key'],
    ],
    ['403', () => jsonResponse(403, { statusCode: 403, message: 'Forbidden', timestamp: 't', path: '/p' }), 'API_ERROR', 403, ['HTTP 403', 'Forbidden']],
    [
      '429 with Retry-After header',
      () => jsonResponse(429, { statusCode: 429, message: 'Too Many Requests', timestamp: 't', path: '/p' }, { 'X-RateLimit-Retry-After': '17' }),
      'RATE_LIMITED',
      429,
      ['Rate limit', 'HTTP 429', 'Try again in 17 s'],
    ],
    [
      '503 launch configuration unavailable',
      () =>
        jsonResponse(503, {
          statusCode: 503,
          message: 'Launch configuration unavailable',
          code: 'SESSION_LAUNCH_CONFIGURATION_UNAVAILABLE',
          timestamp: 't',
          path: '/p',
        }),
      'API_ERROR',
      503,
      ['HTTP 503 SESSION_LAUNCH_CONFIGURATION_UNAVAILABLE', 'Launch configuration unavailable'],
    ],
    ['502 from a proxy, HTML body', () => textResponse(502, '<html>bad gateway</html>', {}, 'Bad Gateway'), 'API_ERROR', 502, ['HTTP 502', 'Bad Gateway']],
    ['500 with an empty body', () => textResponse(500, ''), 'API_ERROR', 500, ['HTTP 500', 'no message']],
    ['201 that is not JSON', () => textResponse(201, 'ok'), 'INVALID_RESPONSE', undefined, ['sessionId and a verifyUrl', 'HTTP 201']],
    ['201 without verifyUrl', () => jsonResponse(201, { sessionId: 'ses_1' }), 'INVALID_RESPONSE', undefined, ['verifyUrl']],
    [
      '201 with a javascript: verifyUrl',
      () => created({ verifyUrl: 'javascript:alert(1)' }),
      'INVALID_RESPONSE',
      undefined,
      ['unusable verifyUrl', 'javascript:'],
    ],
    ['201 with an http verifyUrl', () => created({ verifyUrl: 'http://verify.example.com/verify?sessionId=s' }), 'INVALID_RESPONSE', undefined, ['https']],
    [
      'network failure',
      () => {
        throw new TypeError('Failed to fetch');
      },
      'NETWORK_ERROR',
      undefined,
      ['Could not reach the verification service at https://verify.example.com/api/v1/sessions/create: Failed to fetch', 'baseUrl'],
    ],
  ];

  test.each(failures)('%s', async (_name, respond, code, status, messageParts) => {
    const { browser, call } = setup();
    browser.respond = respond;
    const outcome = await call();
    expect(outcome.ok).toBe(false);
    if (outcome.ok) return;
    expect(outcome.error.code).toBe(code as never);
    expect(outcome.error.status).toBe(status as never);
    for (const part of messageParts) expect(outcome.error.message).toContain(part);
  });

  test('the server message and code are kept on the error', async () => {
    const { browser, call } = setup();
    browser.respond = () => jsonResponse(503, { statusCode: 503, message: 'x', code: 'SESSION_LAUNCH_CONFIGURATION_UNAVAILABLE', timestamp: 't', path: '/p' });
    const outcome = await call();
    if (outcome.ok) throw new Error('expected failure');
    expect(outcome.error.serverMessage).toBe('x');
    expect(outcome.error.serverCode).toBe('SESSION_LAUNCH_CONFIGURATION_UNAVAILABLE');
  });

  test('429 carries retryAfterMs from the header', async () => {
    const { browser, call } = setup();
    browser.respond = () => jsonResponse(429, {}, { 'X-RateLimit-Retry-After': '2.5' });
    const outcome = await call();
    if (outcome.ok) throw new Error('expected failure');
    expect(outcome.error.retryAfterMs).toBe(3000);
  });

  test('a request with no answer times out as a network error', async () => {
    const { browser, call } = setup();
    browser.respond = () => new Promise(() => {});
    const pending = call();
    await Promise.resolve();
    browser.advance(CREATE_TIMEOUT_MS);
    const outcome = await pending;
    if (outcome.ok) throw new Error('expected failure');
    expect(outcome.error.code).toBe('NETWORK_ERROR');
    expect(outcome.error.message).toContain('no answer within 30 s');
  });

  test('the timeout timer is cleared after an answer', async () => {
    const { browser, call } = setup();
    await call();
    expect(browser.pendingTimers).toBe(0);
  });
});

describe('reportCancel (POST {base_url}/verify/cancel)', () => {
  const CANCEL_CALLBACK = 'https://shop.example/cart?sessionId=ses_123&status=cancelled&timestamp=1700000000500';

  function cancelSetup() {
    const browser = new FakeBrowser();
    const env = browser.environment() as Environment;
    const call = () => reportCancel(env, { baseUrl: BASE_URL, sessionId: 'ses_123', sessionToken: 'tok.abc~def' });
    return { browser, call };
  }

  test('POSTs exactly {sessionId, sessionToken} as JSON, without an API key or cookies', async () => {
    const { browser, call } = cancelSetup();
    browser.respond = () => jsonResponse(200, { redirectUrl: CANCEL_CALLBACK, status: 'cancelled' });
    await call();
    const [request] = browser.requests;
    expect(request?.url).toBe('https://verify.example.com/api/v1/verify/cancel');
    expect(request?.init.method).toBe('POST');
    expect(request?.init.headers['Content-Type']).toBe('application/json');
    expect(request?.init.headers.Authorization).toBeUndefined();
    expect(request?.init.credentials).toBe('omit');
    expect(request?.init.mode).toBe('cors');
    expect(request?.body).toStrictEqual({ sessionId: 'ses_123', sessionToken: 'tok.abc~def' });
  });

  test.each([
    [
      '200 with redirectUrl',
      () => jsonResponse(200, { redirectUrl: CANCEL_CALLBACK, status: 'cancelled' }),
      { kind: 'cancelled', redirectUrl: CANCEL_CALLBACK },
    ],
    ['200 without redirectUrl', () => jsonResponse(200, { status: 'cancelled' }), { kind: 'cancelled' }],
    ['200 with a non-string redirectUrl', () => jsonResponse(200, { redirectUrl: 5 }), { kind: 'cancelled' }],
    ['200 with no JSON', () => textResponse(200, 'ok'), { kind: 'cancelled' }],
    [
      '409 already completed',
      () => jsonResponse(409, { statusCode: 409, message: 'Session is already completed (status verified)' }),
      { kind: 'already-completed' },
    ],
    ['401', () => jsonResponse(401, { statusCode: 401, message: 'Invalid session token' }), { kind: 'unconfirmed' }],
    ['429', () => jsonResponse(429, {}), { kind: 'unconfirmed' }],
    ['500', () => jsonResponse(500, {}), { kind: 'unconfirmed' }],
    [
      'a network error',
      () => {
        throw new TypeError('Failed to fetch');
      },
      { kind: 'unconfirmed' },
    ],
  ])('%s', async (_name, respond, expected) => {
    const { browser, call } = cancelSetup();
    browser.respond = respond;
    expect(await call()).toStrictEqual(expected as never);
    expect(browser.pendingTimers).toBe(0);
  });

  test('gives up after CANCEL_TIMEOUT_MS without an answer', async () => {
    const { browser, call } = cancelSetup();
    browser.respond = () => new Promise(() => {});
    const pending = call();
    await Promise.resolve();
    browser.advance(CANCEL_TIMEOUT_MS - 1);
    let settled = false;
    void pending.then(() => (settled = true));
    await Promise.resolve();
    expect(settled).toBe(false);
    browser.advance(1);
    expect(await pending).toStrictEqual({ kind: 'unconfirmed' });
    expect(CANCEL_TIMEOUT_MS).toBeLessThanOrEqual(5_000);
  });
});
