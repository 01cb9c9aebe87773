import { describe, expect, test } from 'bun:test';
import { AgeVerifyError } from './errors';
import { appendDisplayParams, checkUrl } from './url';

function codeOf(run: () => unknown): string | undefined {
  try {
    run();
    return undefined;
  } catch (error) {
    expect(error).toBeInstanceOf(AgeVerifyError);
    return (error as AgeVerifyError).code;
  }
}

describe('checkUrl: spec "Browser SDK" URL rules', () => {
  const accepted = [
    'https://shop.example/age-verified',
    'https://shop.example:8443/a/b?x=1#frag',
    'HTTPS://SHOP.EXAMPLE/',
    'http://localhost/return',
    'http://localhost:3000/any/path?q=1',
    'http://LOCALHOST:8080',
    'http://127.0.0.1/',
    'http://127.0.0.1:5173/cb',
    '  https://shop.example/trimmed  ',
  ];
  test.each(accepted)('accepts %s', (url) => {
    expect(checkUrl(url, 'returnUrl')).toBeInstanceOf(URL);
  });

  const refused: [unknown, string][] = [
    // Production requires HTTPS.
    ['http://shop.example/return', 'HTTPS_REQUIRED'],
    ['http://localhost.evil.example/', 'HTTPS_REQUIRED'],
    ['http://127.0.0.1.nip.io/', 'HTTPS_REQUIRED'],
    ['http://127.0.0.2/', 'HTTPS_REQUIRED'],
    ['http://[::1]/', 'HTTPS_REQUIRED'],
    ['http://10.0.0.1/', 'HTTPS_REQUIRED'],
    // Blocked schemes, including obfuscated spellings the URL parser normalizes.
    ['javascript:alert(1)', 'BLOCKED_URL_SCHEME'],
    ['JavaScript:alert(1)', 'BLOCKED_URL_SCHEME'],
    ['java\tscript:alert(1)', 'BLOCKED_URL_SCHEME'],
    [' javascript:alert(1)', 'BLOCKED_URL_SCHEME'],
    ['data:text/html,<script>alert(1)</script>', 'BLOCKED_URL_SCHEME'],
    ['file:///etc/passwd', 'BLOCKED_URL_SCHEME'],
    ['vbscript:msgbox(1)', 'BLOCKED_URL_SCHEME'],
    ['blob:https://shop.example/uuid', 'BLOCKED_URL_SCHEME'],
    ['ftp://shop.example/', 'BLOCKED_URL_SCHEME'],
    ['ws://shop.example/', 'BLOCKED_URL_SCHEME'],
    ['wss://shop.example/', 'BLOCKED_URL_SCHEME'],
    ['about:blank', 'BLOCKED_URL_SCHEME'],
    ['mailto:a@shop.example', 'BLOCKED_URL_SCHEME'],
    ['intent://scan/#Intent;scheme=zxing;end', 'BLOCKED_URL_SCHEME'],
    // Not absolute URLs.
    ['/age-verified', 'INVALID_URL'],
    ['//shop.example/x', 'INVALID_URL'],
    ['shop.example', 'INVALID_URL'],
    ['https://', 'INVALID_URL'],
    ['', 'INVALID_URL'],
    // Credentials make a URL read like another host.
    ['https://shop.example@evil.example/', 'URL_CREDENTIALS'],
    ['https://user:pass@shop.example/', 'URL_CREDENTIALS'],
    ['http://user@localhost:3000/', 'URL_CREDENTIALS'],
    // Not strings.
    [42, 'INVALID_OPTION'],
    [null, 'INVALID_OPTION'],
    [{ href: 'https://shop.example' }, 'INVALID_OPTION'],
  ];
  test.each(refused)('refuses %p with %s', (url, code) => {
    expect(codeOf(() => checkUrl(url, 'returnUrl'))).toBe(code);
  });

  test('messages say what was expected and what arrived', () => {
    expect(() => checkUrl('http://shop.example/r', 'cancelUrl')).toThrow(
      'Expected cancelUrl to use https: (http: is allowed only for localhost and 127.0.0.1), got "http://shop.example/r" instead.',
    );
    expect(() => checkUrl('javascript:alert(1)', 'returnUrl')).toThrow('Expected returnUrl to use https:, got the blocked scheme "javascript:" instead.');
    expect(() => checkUrl('/relative', 'returnUrl')).toThrow(
      'Expected returnUrl to be an absolute URL such as "https://shop.example/age-verified", got "/relative" instead.',
    );
  });
});

describe('appendDisplayParams: verifyUrl is used exactly as returned', () => {
  const base = 'https://verify.example.com/verify?sessionId=ses_1&sessionToken=a.b~c%2Bd%20e';
  const cases: [string, Parameters<typeof appendDisplayParams>[1], string][] = [
    ['nothing to add', {}, base],
    ['lang', { lang: 'de' }, `${base}&lang=de`],
    ['all three, in spec order', { auto_return: 'true', skip_intro: 'true', lang: 'fr' }, `${base}&lang=fr&skip_intro=true&auto_return=true`],
  ];
  test.each(cases)('%s', (_name, params, expected) => {
    expect(appendDisplayParams(base, params)).toBe(expected);
  });

  test('keeps the existing query byte for byte (no re-encoding of ~, %2B, %20)', () => {
    const out = appendDisplayParams(base, { lang: 'pt', skip_intro: 'true' });
    expect(out.startsWith(base)).toBe(true);
    expect(out).toContain('sessionToken=a.b~c%2Bd%20e');
  });

  test('puts new parameters before the fragment', () => {
    expect(appendDisplayParams(`${base}#step`, { lang: 'es' })).toBe(`${base}&lang=es#step`);
  });

  test.each([
    ['https://v.example/verify', 'https://v.example/verify?lang=en'],
    ['https://v.example/verify?', 'https://v.example/verify?lang=en'],
    ['https://v.example/verify?a=1&', 'https://v.example/verify?a=1&lang=en'],
    ['https://v.example/verify#x', 'https://v.example/verify?lang=en#x'],
  ])('joins correctly onto %s', (url, expected) => {
    expect(appendDisplayParams(url, { lang: 'en' })).toBe(expected);
  });

  test('replaces a stale display parameter but never removes sessionId or sessionToken', () => {
    const url = 'https://v.example/verify?lang=en&sessionId=ses_1&skip_intro=false&sessionToken=t0k';
    const out = appendDisplayParams(url, { lang: 'de', skip_intro: 'true' });
    expect(out).toBe('https://v.example/verify?sessionId=ses_1&sessionToken=t0k&lang=de&skip_intro=true');
    const params = new URL(out).searchParams;
    expect(params.getAll('lang')).toEqual(['de']);
    expect(params.get('sessionId')).toBe('ses_1');
    expect(params.get('sessionToken')).toBe('t0k');
  });

  test('leaves other parameters, including unknown and repeated ones, untouched', () => {
    const url = 'https://v.example/verify?sessionId=s&sessionToken=t&returnUrl=https%3A%2F%2Fshop&x=1&x=2&blocked=1';
    expect(appendDisplayParams(url, { auto_return: 'true' })).toBe(`${url}&auto_return=true`);
  });

  test('encodes appended values', () => {
    expect(appendDisplayParams('https://v.example/v?a=1', { lang: 'a&b=c' })).toBe('https://v.example/v?a=1&lang=a%26b%3Dc');
  });
});
