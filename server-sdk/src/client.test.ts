import { describe, expect, test } from 'bun:test';
import { createClient } from './client';

const ok = {
  sessionId: 'ses_1',
  merchantId: 'ten_1',
  verified: true,
  accessGranted: true,
  status: 'verified',
  verificationMode: 'L1',
  challengeAge: 25,
  faceMatchEnabled: true,
  externalUserId: null,
  testMode: false,
  timestamp: 't',
  expiresAt: 'e',
};
const reply = (status: number, body: unknown) =>
  (async () => new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } })) as unknown as typeof fetch;
const error = (status: number, message: string) => ({ statusCode: status, message, timestamp: 't', path: '/api/v1/sessions/validate', error: 'x' });

describe('createClient', () => {
  test.each([
    [
      'a publishable key',
      { baseUrl: 'https://av.example.com/api/v1', secretKey: 'pk_live_x' },
      'Expected a secret key starting with "sk_", got "pk_live_…" instead.',
    ],
    ['a number', { baseUrl: 'https://av.example.com/api/v1', secretKey: 42 }, 'got a value of type number instead'],
    ['a bad base URL', { baseUrl: 'av.example.com', secretKey: 'sk_live_x' }, 'Expected baseUrl to be an absolute URL'],
  ])('refuses %s at once', (_, options, message) => {
    expect(() => createClient(options as never)).toThrow(message);
  });

  test('sends the session id with the secret key to /sessions/validate', async () => {
    let seen: Request | null = null;
    const client = createClient({
      baseUrl: 'https://av.example.com/api/v1/',
      secretKey: 'sk_live_abc',
      fetch: (async (url: URL, init: RequestInit) => {
        seen = new Request(url, init);
        return new Response(JSON.stringify(ok), { status: 200 });
      }) as unknown as typeof fetch,
    });
    expect(await client.validateSession('ses_1')).toEqual({ ok: true, result: ok as never });
    expect(seen!.url).toBe('https://av.example.com/api/v1/sessions/validate');
    expect(seen!.headers.get('authorization')).toBe('Bearer sk_live_abc');
    expect(await seen!.json()).toEqual({ sessionId: 'ses_1' });
  });

  test.each([
    [409, 'Session has already been used', 'already-used'],
    [400, 'Session has expired', 'expired'],
    [404, 'Session not found', 'not-found'],
    [403, 'Session does not belong to this tenant', 'other-tenant'],
  ])('%i %s is returned as reason %s', async (status, message, reason) => {
    const client = createClient({ baseUrl: 'https://av.example.com/api/v1', secretKey: 'sk_x', fetch: reply(status, error(status, message)) });
    const outcome = await client.validateSession('ses_1');
    expect(outcome).toMatchObject({ ok: false, reason });
  });

  test('other failures throw with the server message', async () => {
    const client = createClient({ baseUrl: 'https://av.example.com/api/v1', secretKey: 'sk_x', fetch: reply(401, error(401, 'Invalid API key')) });
    expect(client.validateSession('ses_1')).rejects.toThrow('401 Invalid API key');
  });
});
