import { describe, expect, test } from 'bun:test';
import { COMPLETE_MESSAGE_TYPE } from '@ageverify/protocol';
import { AgeVerify, create, isCancelCallback } from './ageverify';
import { AgeVerifyError } from './errors';
import { CLOSED_POLL_MS, LATE_MESSAGE_GRACE_MS } from './new-tab';
import { CANCEL_TIMEOUT_MS } from './session-api';
import { RATE_LIMIT_WINDOW_MS } from './rate-limit';
import { BASE_URL, FakeBrowser, VERIFY_ORIGIN, created, jsonResponse, type RecordedRequest } from './testing/fake-environment';
import type { ResponseLike } from './environment';
import type { AgeVerifyOptions, CancelPayload, CompletePayload } from './types';

const VERIFY_URL = `${VERIFY_ORIGIN}/verify?sessionId=ses_123&sessionToken=tok.abc~def`;

/** Lets promise callbacks (fetch answers) run; the fake clock only moves with advance(). */
const flush = () => new Promise<void>((resolve) => setTimeout(resolve, 0));

function setup(options: Partial<AgeVerifyOptions> = {}, browser = new FakeBrowser()) {
  const errors: AgeVerifyError[] = [];
  const completes: CompletePayload[] = [];
  const cancels: CancelPayload[] = [];
  const sdk = new AgeVerify(
    {
      apiKey: 'pk_test_123',
      returnUrl: 'https://shop.example/done',
      baseUrl: BASE_URL,
      onError: (error) => void errors.push(error),
      ...options,
    },
    browser.environment(),
  );
  return { sdk, browser, errors, completes, cancels };
}

function newTab(options: Partial<AgeVerifyOptions> = {}) {
  const completes: CompletePayload[] = [];
  const cancels: CancelPayload[] = [];
  const ctx = setup({
    mode: 'new-tab',
    cancelUrl: 'https://shop.example/cart?step=age',
    onComplete: (result) => void completes.push(result),
    onCancel: (result) => void cancels.push(result),
    ...options,
  });
  return { ...ctx, completes, cancels };
}

const completeMessage = (overrides: Record<string, unknown> = {}) => ({
  type: COMPLETE_MESSAGE_TYPE,
  sessionId: 'ses_123',
  status: 'verified',
  timestamp: 1_700_000_123_000,
  redirectUrl: 'https://shop.example/done?sessionId=ses_123&status=verified',
  ...overrides,
});

describe('construction', () => {
  test('throws synchronously on misuse (details in options.test.ts)', () => {
    expect(() => new AgeVerify({ apiKey: 'sk_live_x', returnUrl: 'https://shop.example' } as AgeVerifyOptions, new FakeBrowser().environment())).toThrow(
      AgeVerifyError,
    );
    expect(() => new AgeVerify({ returnUrl: 'https://shop.example' } as AgeVerifyOptions, new FakeBrowser().environment())).toThrow(
      'Expected the apiKey option to be your publishable key',
    );
  });

  test('defaults baseUrl to the service that served the script', async () => {
    const browser = new FakeBrowser();
    const sdk = new AgeVerify(
      { apiKey: 'pk_1', returnUrl: 'https://shop.example/done' },
      browser.environment({ scriptUrl: 'https://svc.example/sdk/ageverify.iife.min.js' }),
    );
    await sdk.verify();
    expect(browser.requests[0]?.url).toBe('https://svc.example/api/v1/sessions/create');
  });

  test('create() is new AgeVerify()', () => {
    expect(() => create({ apiKey: 'pk_1', returnUrl: 'https://shop.example', baseUrl: BASE_URL })).not.toThrow();
    expect(create({ apiKey: 'pk_1', returnUrl: 'https://shop.example', baseUrl: BASE_URL })).toBeInstanceOf(AgeVerify);
  });
});

describe('verify() in redirect mode', () => {
  test('creates a session and sends the page to verifyUrl exactly as returned', async () => {
    const { sdk, browser, errors } = setup();
    const result = await sdk.verify();
    expect(result).toEqual({ ok: true, sessionId: 'ses_123', verifyUrl: VERIFY_URL, mode: 'redirect' });
    expect(browser.requests[0]?.body).toStrictEqual({ returnUrl: 'https://shop.example/done' });
    expect(browser.assigned).toEqual([VERIFY_URL]);
    expect(browser.opened).toEqual([]);
    expect(errors).toEqual([]);
  });

  test('merges call options over defaults into the body and the display parameters', async () => {
    const { sdk, browser } = setup({ defaultChallengeAge: 25, defaultVerificationMode: 'L1', language: 'de', cancelUrl: 'https://shop.example/cancel' });
    await sdk.verify({ externalUserId: 'user-9', challengeAge: 35, language: 'fr', skipIntro: true, autoReturn: true });
    expect(browser.requests[0]?.body).toStrictEqual({
      returnUrl: 'https://shop.example/done',
      cancelUrl: 'https://shop.example/cancel',
      externalUserId: 'user-9',
      verificationMode: 'L1',
      challengeAge: 35,
    });
    expect(browser.assigned).toEqual([`${VERIFY_URL}&lang=fr&skip_intro=true&auto_return=true`]);
  });

  test('constructor language applies when the call gives none', async () => {
    const { sdk, browser } = setup({ language: 'es' });
    await sdk.verify({ skipIntro: false });
    expect(browser.assigned).toEqual([`${VERIFY_URL}&lang=es`]);
  });

  test('keeps every parameter of verifyUrl, sessionToken included', async () => {
    const { sdk, browser } = setup({ language: 'pt' });
    const returned = `${VERIFY_ORIGIN}/verify?sessionId=ses_123&sessionToken=a%2Bb~c&returnUrl=https%3A%2F%2Fshop.example%2Fdone&merchantName=Shop%20A#top`;
    browser.respond = () => created({ verifyUrl: returned });
    await sdk.verify({ autoReturn: true });
    const sent = browser.assigned[0] ?? '';
    expect(sent).toBe(
      `${VERIFY_ORIGIN}/verify?sessionId=ses_123&sessionToken=a%2Bb~c&returnUrl=https%3A%2F%2Fshop.example%2Fdone&merchantName=Shop%20A&lang=pt&auto_return=true#top`,
    );
    expect(new URL(sent).searchParams.get('sessionToken')).toBe('a+b~c');
  });

  test('a billingBlock is reported to onError and still goes to the verification UI, which shows it', async () => {
    const { sdk, browser, errors } = setup();
    browser.respond = () => created({ billingBlock: { code: 'SUBSCRIPTION_REQUIRED', message: 'Subscribe' } });
    expect((await sdk.verify()).ok).toBe(true);
    expect(browser.assigned).toEqual([VERIFY_URL]);
    expect(errors).toHaveLength(1);
    expect(errors[0]).toMatchObject({ code: 'BILLING_BLOCKED', serverCode: 'SUBSCRIPTION_REQUIRED', serverMessage: 'Subscribe' });
    expect(errors[0]!.message).toBe("Verification is blocked by the merchant's plan (SUBSCRIPTION_REQUIRED): Subscribe");
  });

  test('bad verify() options throw synchronously, before any request', () => {
    const { sdk, browser } = setup();
    expect(() => sdk.verify({ challengeAge: 18 })).toThrow('Expected challengeAge to be a whole number from 25 to 99, got 18 instead.');
    expect(() => sdk.verify({ language: 'it' } as never)).toThrow(AgeVerifyError);
    expect(browser.requests).toEqual([]);
  });

  test.each([
    [
      '400',
      () => jsonResponse(400, { statusCode: 400, message: 'Return URL domain not allowed', timestamp: 't', path: '/p' }),
      'API_ERROR',
      'Return URL domain not allowed',
    ],
    ['401', () => jsonResponse(401, { statusCode: 401, message: 'API key required', timestamp: 't', path: '/p' }), 'API_ERROR', 'API key required'],
    ['429', () => jsonResponse(429, { statusCode: 429, message: 'Too Many Requests', timestamp: 't', path: '/p' }), 'RATE_LIMITED', 'Rate limit'],
    [
      '503',
      () => jsonResponse(503, { statusCode: 503, message: 'unavailable', code: 'SESSION_LAUNCH_CONFIGURATION_UNAVAILABLE', timestamp: 't', path: '/p' }),
      'API_ERROR',
      'SESSION_LAUNCH_CONFIGURATION_UNAVAILABLE',
    ],
    [
      'network',
      () => {
        throw new TypeError('Failed to fetch');
      },
      'NETWORK_ERROR',
      'Failed to fetch',
    ],
  ])('API failure %s: onError and { ok: false }, no navigation', async (_name, respond, code, text) => {
    const { sdk, browser, errors } = setup();
    browser.respond = respond;
    const result = await sdk.verify();
    expect(result.ok).toBe(false);
    if (result.ok) return;
    expect(result.error.code).toBe(code as never);
    expect(result.error.message).toContain(text);
    expect(errors).toEqual([result.error]);
    expect(browser.assigned).toEqual([]);
  });

  test('after a failure, verify() can be called again', async () => {
    const { sdk, browser } = setup();
    browser.respond = () => jsonResponse(500, {});
    await sdk.verify();
    browser.respond = () => created();
    expect((await sdk.verify()).ok).toBe(true);
  });

  test('a second call while the first is creating its session is refused without a request', async () => {
    const { sdk, browser, errors } = setup();
    const first = sdk.verify();
    const second = await sdk.verify();
    expect(second.ok).toBe(false);
    if (!second.ok) expect(second.error.code).toBe('VERIFICATION_IN_PROGRESS');
    expect(errors.map((e) => e.code)).toEqual(['VERIFICATION_IN_PROGRESS']);
    expect((await first).ok).toBe(true);
    expect(browser.requests).toHaveLength(1);
  });

  test('works without onError', async () => {
    const browser = new FakeBrowser();
    browser.respond = () => jsonResponse(500, {});
    const sdk = new AgeVerify({ apiKey: 'pk_1', returnUrl: 'https://shop.example', baseUrl: BASE_URL }, browser.environment());
    expect((await sdk.verify()).ok).toBe(false);
  });

  test('an onError that throws does not change the result; the error is rethrown on a later task', async () => {
    const { browser } = setup();
    browser.respond = () => jsonResponse(500, {});
    const boom = new Error('merchant bug');
    const sdk = new AgeVerify(
      {
        apiKey: 'pk_1',
        returnUrl: 'https://shop.example',
        baseUrl: BASE_URL,
        onError: () => {
          throw boom;
        },
      },
      browser.environment(),
    );
    expect((await sdk.verify()).ok).toBe(false);
    browser.flushThrown();
    expect(browser.thrownLater).toEqual([boom]);
  });
});

describe('client-side rate limit (spec "Limits": 5 attempts per minute per user)', () => {
  test('the 6th attempt within 60 s fails with "Rate limit", via onError and the result, without a request', async () => {
    const { sdk, browser, errors } = setup();
    for (let i = 0; i < 5; i += 1) {
      expect((await sdk.verify()).ok).toBe(true);
      browser.advance(1_000);
    }
    const sixth = await sdk.verify();
    expect(sixth.ok).toBe(false);
    if (sixth.ok) return;
    expect(sixth.error.code).toBe('RATE_LIMITED');
    expect(sixth.error.message).toContain('Rate limit');
    expect(sixth.error.retryAfterMs).toBe(RATE_LIMIT_WINDOW_MS - 5_000);
    expect(errors).toEqual([sixth.error]);
    expect(browser.requests).toHaveLength(5);

    browser.advance(RATE_LIMIT_WINDOW_MS - 5_000);
    expect((await sdk.verify()).ok).toBe(true);
    expect(browser.requests).toHaveLength(6);
  });

  test('failed attempts count too', async () => {
    const { sdk, browser } = setup();
    browser.respond = () => jsonResponse(500, {});
    for (let i = 0; i < 5; i += 1) await sdk.verify();
    const sixth = await sdk.verify();
    expect(!sixth.ok && sixth.error.code).toBe('RATE_LIMITED');
  });

  test('the limit is shared by instances on the same storage (a reload in redirect mode)', async () => {
    const browser = new FakeBrowser();
    for (let i = 0; i < 5; i += 1) await setup({}, browser).sdk.verify();
    const { sdk } = setup({}, browser);
    expect((await sdk.verify()).ok).toBe(false);
  });

  test('misuse is not an attempt', async () => {
    const { sdk } = setup();
    for (let i = 0; i < 10; i += 1) expect(() => sdk.verify({ challengeAge: 1 })).toThrow();
    expect((await sdk.verify()).ok).toBe(true);
  });
});

describe('verify() in new-tab mode', () => {
  test('opens a popup at once (inside the click), then sends it to verifyUrl', async () => {
    const { sdk, browser } = newTab({ language: 'en' });
    const pending = sdk.verify();
    // Opened synchronously, before the create request answers, so popup blockers let it through.
    expect(browser.opened).toHaveLength(1);
    expect(browser.opened[0]?.url).toBe('');
    expect(browser.opened[0]?.target).toBe('_blank');
    expect(browser.opened[0]?.features).toContain('width=500,height=760');
    const result = await pending;
    expect(result).toEqual({ ok: true, sessionId: 'ses_123', verifyUrl: `${VERIFY_URL}&lang=en`, mode: 'new-tab' });
    expect(browser.win.visited).toEqual([`${VERIFY_URL}&lang=en`]);
    expect(browser.assigned).toEqual([]);
  });

  test('newTabTarget "tab" opens a tab (no window features)', async () => {
    const { sdk, browser } = newTab({ newTabTarget: 'tab' });
    await sdk.verify();
    expect(browser.opened[0]?.features).toBe('');
  });

  test('the completion message from the verifyUrl origin calls onComplete; closing the window afterwards is no cancel', async () => {
    const { sdk, browser, completes, cancels } = newTab();
    await sdk.verify({ externalUserId: 'u-1' });
    browser.post(VERIFY_ORIGIN, completeMessage({ externalUserId: 'u-1' }));
    expect(completes).toEqual([{ sessionId: 'ses_123', status: 'verified', timestamp: 1_700_000_123_000, externalUserId: 'u-1' }]);
    // The verification UI shows its result screen in the window, with its own "Close window" button.
    expect(browser.win.closed).toBe(false);
    browser.win.closed = true;
    browser.advance(CLOSED_POLL_MS * 4);
    expect(cancels).toEqual([]);
    expect(browser.assigned).toEqual([]);
    expect(browser.listenerCount).toBe(0);
  });

  test('status "failed" is reported through onComplete too', async () => {
    const { sdk, browser, completes } = newTab();
    await sdk.verify();
    browser.post(VERIFY_ORIGIN, completeMessage({ status: 'failed', timestamp: undefined }));
    expect(completes).toEqual([{ sessionId: 'ses_123', status: 'failed' }]);
  });

  test.each(['https://evil.example', 'http://verify.example.com', 'https://verify.example.com:8443', 'https://shop.example'])(
    'a message from %s is ignored',
    async (origin) => {
      const { sdk, browser, completes } = newTab();
      await sdk.verify();
      browser.post(origin, completeMessage());
      expect(completes).toEqual([]);
      expect(browser.win.closed).toBe(false);
      // The real message still works afterwards.
      browser.post(VERIFY_ORIGIN, completeMessage());
      expect(completes).toHaveLength(1);
    },
  );

  test('a message for another session is ignored', async () => {
    const { sdk, browser, completes } = newTab();
    await sdk.verify();
    browser.post(VERIFY_ORIGIN, completeMessage({ sessionId: 'ses_other' }));
    expect(completes).toEqual([]);
  });

  test('closing the window first calls onCancel and goes to cancelUrl with status, sessionId and timestamp', async () => {
    const { sdk, browser, cancels, completes } = newTab();
    await sdk.verify();
    browser.advance(CLOSED_POLL_MS * 2);
    expect(cancels).toEqual([]);
    browser.win.closed = true;
    browser.advance(CLOSED_POLL_MS);
    await flush();
    expect(cancels).toEqual([{ sessionId: 'ses_123' }]);
    expect(completes).toEqual([]);
    expect(browser.assigned).toHaveLength(1);
    const url = new URL(browser.assigned[0] ?? '');
    expect(url.origin + url.pathname).toBe('https://shop.example/cart');
    expect(url.searchParams.get('step')).toBe('age'); // the existing query is kept
    expect(url.searchParams.get('status')).toBe('cancelled');
    expect(url.searchParams.get('sessionId')).toBe('ses_123');
    expect(url.searchParams.get('timestamp')).toBe(String(browser.time));
    expect(url.searchParams.has('sessionToken')).toBe(false);
  });

  test('onCancel returning false suppresses the redirect to cancelUrl', async () => {
    const cancels: CancelPayload[] = [];
    const { sdk, browser } = newTab({
      onCancel: (result) => {
        cancels.push(result);
        return false;
      },
    });
    await sdk.verify();
    browser.win.closed = true;
    browser.advance(CLOSED_POLL_MS);
    await flush();
    expect(cancels).toEqual([{ sessionId: 'ses_123' }]);
    expect(browser.assigned).toEqual([]);
  });

  test.each([
    ['undefined', () => undefined],
    ['true', () => true],
  ])('onCancel returning %s keeps the redirect', async (_name, onCancel) => {
    const { sdk, browser } = newTab({ onCancel });
    await sdk.verify();
    browser.win.closed = true;
    browser.advance(CLOSED_POLL_MS);
    await flush();
    expect(browser.assigned).toHaveLength(1);
  });

  test('without onCancel, closing still goes to cancelUrl', async () => {
    const { sdk, browser } = newTab({ onCancel: undefined });
    await sdk.verify();
    browser.win.closed = true;
    browser.advance(CLOSED_POLL_MS);
    await flush();
    expect(browser.assigned[0]).toContain('status=cancelled');
  });

  test('without cancelUrl, closing only calls onCancel', async () => {
    const { sdk, browser, cancels } = newTab({ cancelUrl: undefined });
    await sdk.verify();
    browser.win.closed = true;
    browser.advance(CLOSED_POLL_MS);
    await flush();
    expect(cancels).toHaveLength(1);
    expect(browser.assigned).toEqual([]);
  });

  test('a "cancelled" message is a cancellation', async () => {
    const { sdk, browser, cancels, completes } = newTab();
    await sdk.verify();
    browser.post(VERIFY_ORIGIN, completeMessage({ status: 'cancelled' }));
    expect(cancels).toEqual([{ sessionId: 'ses_123' }]);
    expect(completes).toEqual([]);
    expect(browser.assigned[0]).toContain('status=cancelled');
  });

  test('an onCancel that throws is rethrown later and the redirect still happens', async () => {
    const boom = new Error('bug');
    const { sdk, browser } = newTab({
      onCancel: () => {
        throw boom;
      },
    });
    await sdk.verify();
    browser.win.closed = true;
    browser.advance(CLOSED_POLL_MS);
    await flush();
    expect(browser.assigned).toHaveLength(1);
    browser.flushThrown();
    expect(browser.thrownLater).toEqual([boom]);
  });

  test('without onComplete, the page goes to returnUrl with the callback parameters', async () => {
    const { sdk, browser } = newTab({ onComplete: undefined, returnUrl: 'https://shop.example/done?from=sdk' });
    await sdk.verify();
    browser.post(VERIFY_ORIGIN, completeMessage({ externalUserId: 'u-2' }));
    const url = new URL(browser.assigned[0] ?? '');
    expect(url.searchParams.get('from')).toBe('sdk');
    expect(url.searchParams.get('sessionId')).toBe('ses_123');
    expect(url.searchParams.get('status')).toBe('verified');
    expect(url.searchParams.get('timestamp')).toBe('1700000123000');
    expect(url.searchParams.get('externalUserId')).toBe('u-2');
  });

  test('closing the window while the session is being created is a cancellation', async () => {
    const { sdk, browser, cancels } = newTab();
    const pending = sdk.verify();
    browser.win.closed = true;
    const result = await pending;
    expect(result.ok).toBe(true);
    await flush();
    expect(cancels).toEqual([{ sessionId: 'ses_123' }]);
    // The service hears of it too.
    expect(browser.requests.map((r) => r.url)).toEqual([`${BASE_URL}/sessions/create`, `${BASE_URL}/verify/cancel`]);
    expect(browser.win.visited).toEqual([]);
  });

  test('an API failure closes the window and reports the error', async () => {
    const { sdk, browser, errors } = newTab();
    browser.respond = () => jsonResponse(401, { statusCode: 401, message: 'API key required', timestamp: 't', path: '/p' });
    const result = await sdk.verify();
    expect(result.ok).toBe(false);
    expect(browser.win.closed).toBe(true);
    expect(errors.map((e) => e.code)).toEqual(['API_ERROR']);
  });

  test('a blocked popup is reported through onError, then the flow falls back to redirect mode', async () => {
    const { sdk, browser, errors } = newTab();
    browser.popupBlocked = true;
    const result = await sdk.verify({ language: 'de' });
    expect(errors).toHaveLength(1);
    expect(errors[0]?.code).toBe('POPUP_BLOCKED');
    expect(errors[0]?.message).toContain('blocked');
    expect(result).toEqual({ ok: true, sessionId: 'ses_123', verifyUrl: `${VERIFY_URL}&lang=de`, mode: 'redirect' });
    expect(browser.assigned).toEqual([`${VERIFY_URL}&lang=de`]);
  });

  test('a second verify() while the window is open focuses it and is refused', async () => {
    const { sdk, browser, errors } = newTab();
    await sdk.verify();
    const second = await sdk.verify();
    expect(!second.ok && second.error.code).toBe('VERIFICATION_IN_PROGRESS');
    expect(browser.win.focused).toBe(1);
    expect(browser.opened).toHaveLength(1);
    expect(errors.map((e) => e.code)).toEqual(['VERIFICATION_IN_PROGRESS']);
  });

  test('after the flow ends, verify() starts a new one', async () => {
    const { sdk, browser } = newTab();
    await sdk.verify();
    browser.post(VERIFY_ORIGIN, completeMessage());
    expect((await sdk.verify()).ok).toBe(true);
    expect(browser.opened).toHaveLength(2);
  });

  test('destroy() stops watching: no callbacks afterwards', async () => {
    const { sdk, browser, cancels, completes } = newTab();
    await sdk.verify();
    sdk.destroy();
    browser.post(VERIFY_ORIGIN, completeMessage());
    browser.win.closed = true;
    browser.advance(CLOSED_POLL_MS * 4);
    expect(completes).toEqual([]);
    expect(cancels).toEqual([]);
    expect(browser.listenerCount).toBe(0);
    expect(browser.pendingTimers).toBe(0);
  });
});

describe('cancel report: a new-tab window closed before completion tells the service (POST /verify/cancel)', () => {
  const SERVER_CANCEL_URL = 'https://shop.example/cart?step=age&sessionId=ses_123&status=cancelled&timestamp=1699999999000';

  /** The create call answers as usual; the cancel call as the test says. */
  function withCancelAnswer(browser: FakeBrowser, answer: (request: RecordedRequest) => ResponseLike | Promise<ResponseLike>) {
    browser.respond = (request) => (request.url.endsWith('/verify/cancel') ? answer(request) : created());
  }

  async function closedFlow(answer: (request: RecordedRequest) => ResponseLike | Promise<ResponseLike>, options: Partial<AgeVerifyOptions> = {}) {
    const ctx = newTab(options);
    withCancelAnswer(ctx.browser, answer);
    await ctx.sdk.verify();
    ctx.browser.win.closed = true;
    ctx.browser.advance(CLOSED_POLL_MS);
    return ctx;
  }

  const cancelRequests = (browser: FakeBrowser) => browser.requests.filter((r) => r.url.endsWith('/verify/cancel'));

  test('sends {sessionId, sessionToken} from the create answer to {baseUrl}/verify/cancel, before onCancel', async () => {
    const { browser, cancels } = await closedFlow(() => jsonResponse(200, { redirectUrl: SERVER_CANCEL_URL, status: 'cancelled' }));
    const [request] = cancelRequests(browser);
    expect(request?.url).toBe(`${BASE_URL}/verify/cancel`);
    expect(request?.body).toStrictEqual({ sessionId: 'ses_123', sessionToken: 'tok.abc~def' });
    expect(request?.init.headers.Authorization).toBeUndefined();
    // onCancel waits for the answer.
    expect(cancels).toEqual([]);
    await flush();
    expect(cancels).toEqual([{ sessionId: 'ses_123' }]);
  });

  test("the server's callback URL is used for the cancelUrl redirect", async () => {
    const { browser } = await closedFlow(() => jsonResponse(200, { redirectUrl: SERVER_CANCEL_URL, status: 'cancelled' }));
    await flush();
    expect(browser.assigned).toEqual([SERVER_CANCEL_URL]);
  });

  test.each([
    ['another origin', 'https://evil.example/cart?sessionId=ses_123&status=cancelled&timestamp=1'],
    ['another path', 'https://shop.example/done?sessionId=ses_123&status=cancelled&timestamp=1'],
    ['another session', 'https://shop.example/cart?sessionId=ses_999&status=cancelled&timestamp=1'],
    ['another status', 'https://shop.example/cart?sessionId=ses_123&status=verified&timestamp=1'],
    ['no timestamp', 'https://shop.example/cart?sessionId=ses_123&status=cancelled'],
    ['a javascript: URL', 'javascript:alert(1)//https://shop.example/cart?sessionId=ses_123&status=cancelled&timestamp=1'],
    ['plain http', 'http://shop.example/cart?sessionId=ses_123&status=cancelled&timestamp=1'],
  ])('a server URL with %s is not followed; the SDK builds the cancelUrl redirect itself', async (_name, redirectUrl) => {
    const { browser } = await closedFlow(() => jsonResponse(200, { redirectUrl, status: 'cancelled' }));
    await flush();
    expect(browser.assigned).toHaveLength(1);
    const url = new URL(browser.assigned[0] ?? '');
    expect(url.origin + url.pathname).toBe('https://shop.example/cart');
    expect(url.searchParams.get('step')).toBe('age');
    expect(url.searchParams.get('status')).toBe('cancelled');
    expect(url.searchParams.get('sessionId')).toBe('ses_123');
    expect(url.searchParams.get('timestamp')).toBe(String(browser.time));
  });

  test.each([
    ['a network error', () => Promise.reject(new TypeError('Failed to fetch'))],
    ['HTTP 500', () => jsonResponse(500, {})],
    ['HTTP 429', () => jsonResponse(429, {})],
    ['HTTP 401', () => jsonResponse(401, { statusCode: 401, message: 'Invalid session token' })],
  ])('%s: onCancel and the redirect happen as before', async (_name, answer) => {
    const { browser, cancels } = await closedFlow(answer as () => Promise<ResponseLike>);
    await flush();
    expect(cancels).toEqual([{ sessionId: 'ses_123' }]);
    expect(browser.assigned[0]).toContain('status=cancelled');
    expect(browser.pendingTimers).toBe(0);
  });

  test('no answer: onCancel after CANCEL_TIMEOUT_MS (a short wait), not before', async () => {
    const { browser, cancels } = await closedFlow(() => new Promise(() => {}));
    await flush();
    browser.advance(CANCEL_TIMEOUT_MS - 1);
    await flush();
    expect(cancels).toEqual([]);
    browser.advance(1);
    await flush();
    expect(cancels).toEqual([{ sessionId: 'ses_123' }]);
    expect(browser.assigned).toHaveLength(1);
    expect(browser.pendingTimers).toBe(0);
  });

  test('409 (already completed) and then the completion message: onComplete, never onCancel', async () => {
    const { browser, cancels, completes } = await closedFlow(() =>
      jsonResponse(409, { statusCode: 409, message: 'Session is already completed (status verified)', timestamp: 't', path: '/api/v1/verify/cancel' }),
    );
    await flush();
    browser.advance(LATE_MESSAGE_GRACE_MS / 2);
    browser.post(VERIFY_ORIGIN, completeMessage());
    browser.advance(LATE_MESSAGE_GRACE_MS * 4);
    await flush();
    expect(completes).toEqual([{ sessionId: 'ses_123', status: 'verified', timestamp: 1_700_000_123_000 }]);
    expect(cancels).toEqual([]);
    expect(browser.assigned).toEqual([]);
    expect(browser.listenerCount).toBe(0);
    expect(browser.pendingTimers).toBe(0);
  });

  test('the completion message while the report is still on its way: onComplete; the late 409 changes nothing', async () => {
    let answer: (response: ResponseLike) => void = () => {};
    const { browser, cancels, completes } = await closedFlow(() => new Promise((resolve) => (answer = resolve)));
    browser.post(VERIFY_ORIGIN, completeMessage({ status: 'failed' }));
    expect(completes).toEqual([{ sessionId: 'ses_123', status: 'failed', timestamp: 1_700_000_123_000 }]);
    answer(jsonResponse(409, {}));
    await flush();
    browser.advance(LATE_MESSAGE_GRACE_MS * 2);
    expect(cancels).toEqual([]);
    expect(browser.assigned).toEqual([]);
  });

  test('409 and no message within the grace period: onCancel after all (the page has no other outcome to report)', async () => {
    const { browser, cancels, completes } = await closedFlow(() => jsonResponse(409, {}));
    await flush();
    browser.advance(LATE_MESSAGE_GRACE_MS - 1);
    expect(cancels).toEqual([]);
    browser.advance(1);
    expect(cancels).toEqual([{ sessionId: 'ses_123' }]);
    expect(completes).toEqual([]);
    expect(browser.assigned[0]).toContain('status=cancelled');
  });

  test('once the service confirmed the cancellation, a stray completion message is ignored', async () => {
    const { browser, cancels, completes } = await closedFlow(() => jsonResponse(200, { redirectUrl: SERVER_CANCEL_URL, status: 'cancelled' }));
    await flush();
    browser.post(VERIFY_ORIGIN, completeMessage());
    expect(cancels).toHaveLength(1);
    expect(completes).toEqual([]);
  });

  test('destroy() while the report is on its way: no callback, no redirect, nothing left behind', async () => {
    const { sdk, browser, cancels, completes } = await closedFlow(() => jsonResponse(409, {}));
    sdk.destroy();
    await flush();
    browser.advance(LATE_MESSAGE_GRACE_MS * 2);
    browser.post(VERIFY_ORIGIN, completeMessage());
    expect(cancels).toEqual([]);
    expect(completes).toEqual([]);
    expect(browser.assigned).toEqual([]);
    expect(browser.pendingTimers).toBe(0);
    expect(browser.listenerCount).toBe(0);
  });

  test('one flow at a time holds until the report settled; then verify() starts a new flow', async () => {
    let answer: (response: ResponseLike) => void = () => {};
    const { sdk } = await closedFlow(() => new Promise((resolve) => (answer = resolve)));
    const during = await sdk.verify();
    expect(!during.ok && during.error.code).toBe('VERIFICATION_IN_PROGRESS');
    answer(jsonResponse(200, { redirectUrl: SERVER_CANCEL_URL, status: 'cancelled' }));
    await flush();
    expect((await sdk.verify()).ok).toBe(true);
  });

  test('without a sessionToken in the create answer, nothing is reported and onCancel follows at once', async () => {
    const { sdk, browser, cancels } = newTab();
    browser.respond = () => created({ sessionToken: undefined });
    await sdk.verify();
    browser.win.closed = true;
    browser.advance(CLOSED_POLL_MS);
    await flush();
    expect(browser.requests).toHaveLength(1);
    expect(cancels).toEqual([{ sessionId: 'ses_123' }]);
  });

  test('a "cancelled" message from the UI is not reported again (the UI already ended the session)', async () => {
    const { sdk, browser, cancels } = newTab();
    await sdk.verify();
    browser.post(VERIFY_ORIGIN, completeMessage({ status: 'cancelled' }));
    await flush();
    expect(cancels).toHaveLength(1);
    expect(cancelRequests(browser)).toEqual([]);
  });

  test('the sessionToken stays in memory: never in a navigated URL, a callback payload or storage', async () => {
    const { browser, cancels } = await closedFlow(() => jsonResponse(200, { redirectUrl: SERVER_CANCEL_URL, status: 'cancelled' }));
    await flush();
    // The token was in play (the cancel request carried it) and a cancellation was reported, so the
    // checks below look at a real payload rather than at nothing.
    expect(cancelRequests(browser)[0]?.body).toMatchObject({ sessionToken: 'tok.abc~def' });
    expect(cancels).toHaveLength(1);
    expect(JSON.stringify(browser.assigned)).not.toContain('tok.abc');
    expect(JSON.stringify(cancels)).not.toContain('tok.abc');
    expect(JSON.stringify([...browser.storageArea.items.values()])).not.toContain('tok.abc');
  });

  test('redirect mode never reports a cancellation', async () => {
    const { sdk, browser } = setup({ cancelUrl: 'https://shop.example/cancel' });
    await sdk.verify();
    browser.advance(CLOSED_POLL_MS * 10);
    await flush();
    expect(cancelRequests(browser)).toEqual([]);
  });
});

describe('isCancelCallback', () => {
  const cancelUrl = 'https://shop.example/cart?step=age';
  test.each([
    ['https://shop.example/cart?step=age&sessionId=ses_1&status=cancelled&timestamp=17', true],
    ['https://shop.example/cart?sessionId=ses_1&status=cancelled&timestamp=17&externalUserId=u', true],
    ['https://shop.example/cart?sessionId=ses_1&status=cancelled&timestamp=abc', false],
    ['https://shop.example:444/cart?sessionId=ses_1&status=cancelled&timestamp=17', false],
    ['https://user:pw@shop.example/cart?sessionId=ses_1&status=cancelled&timestamp=17', false],
    ['data:text/html,https://shop.example/cart?sessionId=ses_1&status=cancelled&timestamp=17', false],
    ['not a url', false],
  ])('%s -> %p', (candidate, expected) => {
    expect(isCancelCallback(candidate, cancelUrl, 'ses_1')).toBe(expected);
  });
});
