/**
 * The SDK's errors in a real browser (spec "Browser SDK": "Initialization throws synchronous errors
 * for: missing apiKey, missing returnUrl, a secret key in browser code, a non-HTTPS production
 * return URL, a blocked URL scheme"; spec "Limits": 5 verification attempts per minute per user).
 * Each message says what was expected and what arrived (sdk/README.md "Errors").
 */
import { expect, test } from './support/fixtures';

interface InitialisationCase {
  name: string;
  /** The constructor options, built from the sandbox keys and the lab's (valid) returnUrl. */
  options: (keys: { publishableKey: string; secretKey: string; returnUrl: string }) => Record<string, unknown>;
  code: string;
  message: string | RegExp;
}

const INITIALISATION_ERRORS: InitialisationCase[] = [
  {
    name: 'missing apiKey',
    options: ({ returnUrl }) => ({ returnUrl }),
    code: 'MISSING_API_KEY',
    message: 'Expected the apiKey option to be your publishable key (starting with "pk_"), got undefined instead.',
  },
  {
    name: 'missing returnUrl',
    options: ({ publishableKey }) => ({ apiKey: publishableKey }),
    code: 'MISSING_RETURN_URL',
    message: 'Expected the returnUrl option to be an absolute URL such as "https://shop.example/age-verified", got undefined instead.',
  },
  {
    name: 'a secret key',
    options: ({ secretKey, returnUrl }) => ({ apiKey: secretKey, returnUrl }),
    code: 'SECRET_KEY_IN_BROWSER',
    message: /^Expected publishable key to start with "pk_", got the secret key "sk_…" instead\. Secret keys must never be used in browser code/,
  },
  {
    name: 'a non-HTTPS production returnUrl',
    options: ({ publishableKey }) => ({ apiKey: publishableKey, returnUrl: 'http://shop.example.com/age-verified' }),
    code: 'HTTPS_REQUIRED',
    message: 'Expected returnUrl to use https: (http: is allowed only for localhost and 127.0.0.1), got "http://shop.example.com/age-verified" instead.',
  },
  {
    name: 'a non-HTTPS production cancelUrl',
    options: ({ publishableKey, returnUrl }) => ({ apiKey: publishableKey, returnUrl, cancelUrl: 'http://shop.example.com/cancelled' }),
    code: 'HTTPS_REQUIRED',
    message: 'Expected cancelUrl to use https: (http: is allowed only for localhost and 127.0.0.1), got "http://shop.example.com/cancelled" instead.',
  },
  ...[
    ['javascript:alert(document.cookie)', 'javascript:'],
    ['data:text/html,<script>alert(1)</script>', 'data:'],
    ['file:///etc/passwd', 'file:'],
  ].map(([url, scheme]) => ({
    name: `the blocked scheme ${scheme}`,
    options: ({ publishableKey }: { publishableKey: string }) => ({ apiKey: publishableKey, returnUrl: url }),
    code: 'BLOCKED_URL_SCHEME',
    message: `Expected returnUrl to use https:, got the blocked scheme "${scheme}" instead.`,
  })),
];

test.describe('the constructor throws at once', () => {
  for (const { name, options, code, message } of INITIALISATION_ERRORS) {
    test(`for ${name}`, async ({ environment, sdkLab }) => {
      await sdkLab.open();
      const creations = await sdkLab.recordSessionCreations();
      const { publishableKey, secretKey } = environment.sandbox;

      const outcome = await sdkLab.construct(options({ publishableKey, secretKey, returnUrl: sdkLab.returnUrl }));

      // construct() calls `new AgeVerify.AgeVerify(…)` inside try/catch in one synchronous call.
      expect(outcome.thrown, 'the constructor threw synchronously').toBe(true);
      if (!outcome.thrown) return;
      expect(outcome.error).toMatchObject({ name: 'AgeVerifyError', code, isError: true, isAgeVerifyError: true });
      if (typeof message === 'string') expect(outcome.error.message).toBe(message);
      else expect(outcome.error.message).toMatch(message);
      // Keys are never shown beyond their prefix.
      expect(outcome.error.message).not.toContain(secretKey.slice(3));
      // A thrown configuration error is not also reported, and nothing was sent.
      expect(sdkLab.events).toEqual([]);
      expect(creations).toEqual([]);
    });
  }

  test('but not for http on localhost or 127.0.0.1, on any port and path', async ({ environment, sdkLab }) => {
    await sdkLab.open();
    await sdkLab.configure({
      apiKey: environment.sandbox.publishableKey,
      returnUrl: 'http://localhost:8080/shop/age-verified?step=2',
      cancelUrl: 'http://127.0.0.1:1/cancelled',
    });
  });
});

test('the 6th verify() within a minute fails with Rate limit, reported to onError and as the result, without a request', async ({
  page,
  environment,
  sdkLab,
  verifyPage,
}) => {
  const creations = await sdkLab.recordSessionCreations();
  const options = { apiKey: environment.sandbox.publishableKey, returnUrl: sdkLab.returnUrl };

  // Five attempts in redirect mode, each from a fresh page load with a fresh SDK instance: the limit
  // is per browser, not per page (sdk/README.md "Client-side rate limit").
  for (let attempt = 1; attempt <= 5; attempt++) {
    await sdkLab.open();
    await sdkLab.configure(options);
    await sdkLab.verify();
    await verifyPage.waitUntilOpen();
  }
  expect(creations.map((creation) => creation.status)).toEqual([201, 201, 201, 201, 201]);

  await sdkLab.open();
  sdkLab.clearEvents();
  await sdkLab.configure(options);
  await sdkLab.verify();

  const { result } = await sdkLab.waitForEvent('verify-result');
  expect(result.ok).toBe(false);
  if (result.ok) return;
  expect(result.error).toMatchObject({ name: 'AgeVerifyError', code: 'RATE_LIMITED', isError: true, isAgeVerifyError: true });
  expect(result.error.message).toContain('Rate limit');
  expect(result.error.message).toMatch(/^Rate limit reached: expected at most 5 verification attempts per minute, got one more\. Try again in \d+ s\.$/);
  expect(result.error.retryAfterMs).toBeGreaterThan(0);
  expect(result.error.retryAfterMs).toBeLessThanOrEqual(60_000);
  // onError got the same error, before verify() resolved.
  expect(sdkLab.events.map((event) => event.type)).toEqual(['error', 'verify-result']);
  expect(sdkLab.eventsOf('error')[0]!.error).toEqual(result.error);

  // Refused on the client: no sixth session, and the page stayed.
  expect(creations).toHaveLength(5);
  expect(page.url()).toBe(sdkLab.url);
});
