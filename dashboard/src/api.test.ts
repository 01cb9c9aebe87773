import { afterEach, describe, expect, test } from 'bun:test';
import { ApiError, request, tenantPath, TWO_FACTOR_REQUIRED_EVENT } from './api';

const realFetch = globalThis.fetch;
afterEach(() => {
  globalThis.fetch = realFetch;
});

/** Replaces fetch with one answer and records what was asked. */
function answer(status: number, body: unknown, headers: Record<string, string> = {}) {
  const calls: Array<{ url: string; init: RequestInit }> = [];
  globalThis.fetch = (async (url: string, init: RequestInit) => {
    calls.push({ url, init });
    return new Response(body === undefined ? '' : JSON.stringify(body), { status, headers: { 'content-type': 'application/json', ...headers } });
  }) as unknown as typeof fetch;
  return calls;
}

describe('dashboard API calls', () => {
  test('a state-changing call is JSON with a body, {} when there is nothing to send (the CSRF rule needs both)', async () => {
    const calls = answer(200, { ok: true });
    await request('POST', '/tenants/ten_1/try-it');
    expect(calls[0]!.url).toBe('/dashboard/api/tenants/ten_1/try-it');
    expect(calls[0]!.init.method).toBe('POST');
    expect((calls[0]!.init.headers as Record<string, string>)['content-type']).toBe('application/json');
    expect(calls[0]!.init.body).toBe('{}');
    expect(calls[0]!.init.credentials).toBe('same-origin');
  });

  test('a read sends no body', async () => {
    const calls = answer(200, { domains: [] });
    expect(await request<{ domains: string[] }>('GET', '/tenants/ten_1/domains')).toEqual({ domains: [] });
    expect(calls[0]!.init.body).toBeUndefined();
  });

  test("a refusal carries the service's message (a list is joined), its code and its Retry-After", async () => {
    answer(400, { statusCode: 400, message: ['domain is too long', 'domain has a port'], code: 'X' });
    const error = (await request('POST', '/x', {}).catch((caught: unknown) => caught)) as ApiError;
    expect(error).toBeInstanceOf(ApiError);
    expect(error.status).toBe(400);
    expect(error.message).toBe('domain is too long; domain has a port');
    expect(error.code).toBe('X');

    answer(429, { message: 'Too many failed sign-ins' }, { 'retry-after': '600' });
    const limited = (await request('POST', '/auth/sign-in/email', {}).catch((caught: unknown) => caught)) as ApiError;
    expect(limited.retryAfter).toBe(600);
  });

  test('a body that is not JSON still gives a message', async () => {
    globalThis.fetch = (async () => new Response('<html>bad gateway</html>', { status: 502 })) as unknown as typeof fetch;
    const error = (await request('GET', '/me').catch((caught: unknown) => caught)) as ApiError;
    expect(error.status).toBe(502);
    expect(error.message).toBe('HTTP 502');
  });

  test('no connection is an error with status 0, not an exception of fetch', async () => {
    globalThis.fetch = (async () => {
      throw new TypeError('Failed to fetch');
    }) as unknown as typeof fetch;
    const error = (await request('GET', '/me').catch((caught: unknown) => caught)) as ApiError;
    expect(error.status).toBe(0);
  });

  test('tenant ids are escaped into the path', () => {
    expect(tenantPath('ten_a/b', '/keys')).toBe('/tenants/ten_a%2Fb/keys');
  });

  test('a 403 TWO_FACTOR_REQUIRED tells the app (an event), other refusals do not (issue 23)', async () => {
    const heard: string[] = [];
    const listener = (event: Event) => heard.push(event.type);
    globalThis.addEventListener(TWO_FACTOR_REQUIRED_EVENT, listener);
    try {
      answer(403, { statusCode: 403, message: 'Your role (developer) cannot manage API keys' });
      await request('POST', '/tenants/ten_1/keys', {}).catch(() => {});
      expect(heard).toEqual([]);
      answer(403, { statusCode: 403, message: 'this tenant requires two-factor sign-in', code: 'TWO_FACTOR_REQUIRED' });
      const error = (await request('GET', '/tenants/ten_1/keys').catch((caught: unknown) => caught)) as ApiError;
      expect(error.code).toBe('TWO_FACTOR_REQUIRED');
      expect(heard).toEqual([TWO_FACTOR_REQUIRED_EVENT]);
    } finally {
      globalThis.removeEventListener(TWO_FACTOR_REQUIRED_EVENT, listener);
    }
  });
});
