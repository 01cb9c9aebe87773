import { describe, expect, test } from 'bun:test';
import { AgeVerifyError, type AgeVerifyErrorCode } from './errors';
import { checkVerifyOptions, planLaunch, resolveOptions } from './options';

const BASE = 'https://verify.example.com/api/v1';
const valid = { apiKey: 'pk_test_123', returnUrl: 'https://shop.example/done', baseUrl: BASE };

function thrown(run: () => unknown): AgeVerifyError {
  try {
    run();
  } catch (error) {
    expect(error).toBeInstanceOf(AgeVerifyError);
    return error as AgeVerifyError;
  }
  throw new Error('expected a throw');
}

describe('resolveOptions: defaults', () => {
  test('fills in redirect mode and popup target and keeps only given options', () => {
    expect(resolveOptions(valid, undefined)).toEqual({
      apiKey: 'pk_test_123',
      returnUrl: 'https://shop.example/done',
      baseUrl: BASE,
      mode: 'redirect',
      newTabTarget: 'popup',
    });
  });

  test('keeps every spec option', () => {
    const onComplete = () => {};
    const onCancel = () => false;
    const onError = () => {};
    const resolved = resolveOptions(
      {
        ...valid,
        cancelUrl: 'http://localhost:3000/cancel?keep=1',
        defaultChallengeAge: 25,
        defaultVerificationMode: 'L2',
        mode: 'new-tab',
        newTabTarget: 'tab',
        language: 'pt',
        onComplete,
        onCancel,
        onError,
      },
      undefined,
    );
    expect(resolved).toMatchObject({
      cancelUrl: 'http://localhost:3000/cancel?keep=1',
      defaultChallengeAge: 25,
      defaultVerificationMode: 'L2',
      mode: 'new-tab',
      newTabTarget: 'tab',
      language: 'pt',
    });
    expect(resolved.onComplete).toBe(onComplete);
    expect(resolved.onCancel).toBe(onCancel);
    expect(resolved.onError).toBe(onError);
  });

  test('derives baseUrl from the script address when left out', () => {
    const { baseUrl: _, ...withoutBase } = valid;
    expect(resolveOptions(withoutBase, 'https://svc.example/sdk/ageverify.iife.min.js').baseUrl).toBe('https://svc.example/api/v1');
  });

  test('challengeAge bounds 25 and 99 are accepted', () => {
    expect(resolveOptions({ ...valid, defaultChallengeAge: 99 }, undefined).defaultChallengeAge).toBe(99);
  });
});

describe('resolveOptions: initialization errors (spec "Browser SDK")', () => {
  const bad: [string, unknown, AgeVerifyErrorCode, string][] = [
    ['no options', undefined, 'INVALID_OPTION', 'Expected AgeVerify options to be an object'],
    ['a string', 'pk_test', 'INVALID_OPTION', 'got "pk_test" instead'],
    ['an array', [], 'INVALID_OPTION', 'got an array instead'],
    ['missing apiKey', { returnUrl: valid.returnUrl, baseUrl: BASE }, 'MISSING_API_KEY', 'got undefined instead'],
    ['empty apiKey', { ...valid, apiKey: '' }, 'MISSING_API_KEY', 'got "" instead'],
    ['null apiKey', { ...valid, apiKey: null }, 'MISSING_API_KEY', 'got null instead'],
    ['numeric apiKey', { ...valid, apiKey: 123 }, 'INVALID_API_KEY', 'Expected publishable key to be of type string, got 123 instead.'],
    [
      'secret key',
      { ...valid, apiKey: 'sk_live_abcdef' },
      'SECRET_KEY_IN_BROWSER',
      'Expected publishable key to start with "pk_", got the secret key "sk_…" instead.',
    ],
    ['secret test key', { ...valid, apiKey: 'sk_test_abcdef' }, 'SECRET_KEY_IN_BROWSER', 'must never be used in browser code'],
    ['other prefix', { ...valid, apiKey: 'rk_live_x' }, 'INVALID_API_KEY', 'Expected publishable key to start with "pk_", got "rk_…" instead.'],
    ['upper-case prefix', { ...valid, apiKey: 'PK_live_x' }, 'INVALID_API_KEY', 'start with "pk_"'],
    ['prefix only', { ...valid, apiKey: 'pk_' }, 'INVALID_API_KEY', 'start with "pk_"'],
    ['key with whitespace', { ...valid, apiKey: 'pk_live_x\n' }, 'INVALID_API_KEY', 'whitespace'],
    ['missing returnUrl', { apiKey: valid.apiKey, baseUrl: BASE }, 'MISSING_RETURN_URL', 'Expected the returnUrl option to be an absolute URL'],
    ['empty returnUrl', { ...valid, returnUrl: '' }, 'MISSING_RETURN_URL', 'got "" instead'],
    ['http production returnUrl', { ...valid, returnUrl: 'http://shop.example/done' }, 'HTTPS_REQUIRED', 'Expected returnUrl to use https:'],
    ['javascript: returnUrl', { ...valid, returnUrl: 'javascript:alert(document.cookie)' }, 'BLOCKED_URL_SCHEME', '"javascript:"'],
    ['data: returnUrl', { ...valid, returnUrl: 'data:text/html,hi' }, 'BLOCKED_URL_SCHEME', '"data:"'],
    ['file: returnUrl', { ...valid, returnUrl: 'file:///C:/x.html' }, 'BLOCKED_URL_SCHEME', '"file:"'],
    ['relative returnUrl', { ...valid, returnUrl: '/done' }, 'INVALID_URL', 'absolute URL'],
    ['http production cancelUrl', { ...valid, cancelUrl: 'http://shop.example/cancel' }, 'HTTPS_REQUIRED', 'Expected cancelUrl to use https:'],
    ['javascript: cancelUrl', { ...valid, cancelUrl: 'javascript:void 0' }, 'BLOCKED_URL_SCHEME', 'cancelUrl'],
    ['null cancelUrl', { ...valid, cancelUrl: null }, 'INVALID_OPTION', 'Expected cancelUrl to be a URL string, got null instead.'],
    [
      'challenge age 24',
      { ...valid, defaultChallengeAge: 24 },
      'INVALID_OPTION',
      'Expected defaultChallengeAge to be a whole number from 25 to 99, got 24 instead.',
    ],
    ['challenge age 18', { ...valid, defaultChallengeAge: 18 }, 'INVALID_OPTION', 'got 18 instead'],
    ['challenge age 100', { ...valid, defaultChallengeAge: 100 }, 'INVALID_OPTION', 'got 100 instead'],
    ['challenge age 25.5', { ...valid, defaultChallengeAge: 25.5 }, 'INVALID_OPTION', 'got 25.5 instead'],
    ['challenge age NaN', { ...valid, defaultChallengeAge: Number.NaN }, 'INVALID_OPTION', 'got NaN instead'],
    ['challenge age string', { ...valid, defaultChallengeAge: '30' }, 'INVALID_OPTION', 'got "30" instead'],
    ['mode L3', { ...valid, defaultVerificationMode: 'L3' }, 'INVALID_OPTION', 'Expected defaultVerificationMode to be one of "L1", "L2", got "L3" instead.'],
    ['lower-case mode', { ...valid, defaultVerificationMode: 'l1' }, 'INVALID_OPTION', 'defaultVerificationMode'],
    ['mode popup', { ...valid, mode: 'popup' }, 'INVALID_OPTION', 'Expected mode to be one of "redirect", "new-tab", got "popup" instead.'],
    ['newTabTarget window', { ...valid, newTabTarget: 'window' }, 'INVALID_OPTION', 'Expected newTabTarget to be one of "popup", "tab"'],
    ['language it (UI only)', { ...valid, language: 'it' }, 'INVALID_OPTION', 'Expected language to be one of "en", "de", "es", "fr", "pt", got "it" instead.'],
    ['language pt-BR', { ...valid, language: 'pt-BR' }, 'INVALID_OPTION', 'got "pt-BR" instead'],
    ['language EN', { ...valid, language: 'EN' }, 'INVALID_OPTION', 'got "EN" instead'],
    ['onComplete string', { ...valid, onComplete: 'done()' }, 'INVALID_OPTION', 'Expected onComplete to be a function, got "done()" instead.'],
    ['onCancel object', { ...valid, onCancel: {} }, 'INVALID_OPTION', 'Expected onCancel to be a function, got an object instead.'],
    ['onError true', { ...valid, onError: true }, 'INVALID_OPTION', 'Expected onError to be a function'],
    ['unknown option', { ...valid, challengeAge: 30 }, 'INVALID_OPTION', 'got the unknown option "challengeAge" instead.'],
    ['misspelt option', { ...valid, apikey: 'pk_x' }, 'INVALID_OPTION', 'unknown option "apikey"'],
    ['http production baseUrl', { ...valid, baseUrl: 'http://verify.example.com' }, 'HTTPS_REQUIRED', 'baseUrl'],
    ['no baseUrl and no script', { apiKey: valid.apiKey, returnUrl: valid.returnUrl }, 'MISSING_BASE_URL', 'Expected a baseUrl option'],
  ];

  test.each(bad)('%s', (_name, options, code, message) => {
    const error = thrown(() => resolveOptions(options, undefined));
    expect(error.code).toBe(code);
    expect(error.message).toContain(message);
    expect(error.message).toMatch(/^Expected /);
  });

  test('a secret key never appears in full in the message', () => {
    const error = thrown(() => resolveOptions({ ...valid, apiKey: 'sk_live_TOPSECRET' }, undefined));
    expect(error.message).not.toContain('TOPSECRET');
  });

  test('apiKey is checked before returnUrl', () => {
    expect(thrown(() => resolveOptions({ apiKey: 'sk_x' }, undefined)).code).toBe('SECRET_KEY_IN_BROWSER');
  });
});

describe('checkVerifyOptions', () => {
  test('no options is fine', () => {
    expect(checkVerifyOptions(undefined)).toEqual({});
    expect(checkVerifyOptions({})).toEqual({});
  });

  test('keeps valid options', () => {
    const all = { externalUserId: 'user-1', verificationMode: 'L1', challengeAge: 30, language: 'fr', skipIntro: true, autoReturn: false };
    expect(checkVerifyOptions(all)).toEqual(all as never);
  });

  test.each([
    [null, 'Expected verify() options to be an object'],
    ['user-1', 'Expected verify() options to be an object'],
    [{ externalUserId: 42 }, 'Expected externalUserId to be a non-empty string, got 42 instead.'],
    [{ externalUserId: '  ' }, 'Expected externalUserId to be a non-empty string'],
    [{ verificationMode: 'L3' }, 'Expected verificationMode to be one of "L1", "L2"'],
    [{ challengeAge: 17 }, 'Expected challengeAge to be a whole number from 25 to 99, got 17 instead.'],
    [{ challengeAge: 99.9 }, 'got 99.9 instead'],
    [{ language: 'it' }, 'Expected language to be one of'],
    [{ skipIntro: 'true' }, 'Expected skipIntro to be true or false, got "true" instead.'],
    [{ autoReturn: 1 }, 'Expected autoReturn to be true or false, got 1 instead.'],
    [{ returnUrl: 'https://other.example' }, 'got the unknown verify() option "returnUrl" instead.'],
    [{ faceMatchEnabled: false }, 'unknown verify() option "faceMatchEnabled"'],
  ])('refuses %p', (options, message) => {
    const error = thrown(() => checkVerifyOptions(options));
    expect(error.code).toBe('INVALID_OPTION');
    expect(error.message).toContain(message);
  });
});

describe('planLaunch: verify() options merge over constructor defaults', () => {
  const defaults = resolveOptions(
    { ...valid, cancelUrl: 'https://shop.example/cancel', defaultChallengeAge: 25, defaultVerificationMode: 'L1', language: 'de' },
    undefined,
  );
  const bare = resolveOptions(valid, undefined);

  test.each([
    [
      'defaults only',
      defaults,
      {},
      { returnUrl: 'https://shop.example/done', cancelUrl: 'https://shop.example/cancel', verificationMode: 'L1', challengeAge: 25 },
      { lang: 'de' },
    ],
    [
      'every call option overrides',
      defaults,
      { externalUserId: 'u-7', verificationMode: 'L2', challengeAge: 30, language: 'es', skipIntro: true, autoReturn: true },
      {
        returnUrl: 'https://shop.example/done',
        cancelUrl: 'https://shop.example/cancel',
        externalUserId: 'u-7',
        verificationMode: 'L2',
        challengeAge: 30,
      },
      { lang: 'es', skip_intro: 'true', auto_return: 'true' },
    ],
    ['no defaults, no options: only returnUrl', bare, {}, { returnUrl: 'https://shop.example/done' }, {}],
    ['call options without defaults', bare, { challengeAge: 40 }, { returnUrl: 'https://shop.example/done', challengeAge: 40 }, {}],
    ['false flags add nothing', bare, { skipIntro: false, autoReturn: false }, { returnUrl: 'https://shop.example/done' }, {}],
  ] as const)('%s', (_name, config, call, body, display) => {
    const plan = planLaunch(config, call);
    // toStrictEqual: no `key: undefined` may reach the API, which rejects unknown properties.
    expect(plan.body).toStrictEqual(body as never);
    expect(plan.display).toStrictEqual(display as never);
  });

  test('the body only ever carries fields the API accepts', () => {
    const plan = planLaunch(defaults, { externalUserId: 'u', language: 'fr', skipIntro: true, autoReturn: true });
    const allowed = ['returnUrl', 'cancelUrl', 'externalUserId', 'verificationMode', 'challengeAge'];
    for (const key of Object.keys(plan.body)) expect(allowed).toContain(key);
  });
});
