import { describe, expect, test } from 'bun:test';
import { deriveBaseUrl, resolveBaseUrl } from './base-url';
import { AgeVerifyError } from './errors';

describe('deriveBaseUrl: the SDK script address gives {base_url}', () => {
  test.each([
    ['https://verify.example.com/sdk/ageverify.iife.min.js', 'https://verify.example.com/api/v1'],
    ['https://verify.example.com/sdk/ageverify.esm.min.js?v=3.5.0', 'https://verify.example.com/api/v1'],
    // The backend also serves each version under an immutable path.
    ['https://verify.example.com/sdk/3.5.0/ageverify.iife.min.js', 'https://verify.example.com/api/v1'],
    ['https://verify.example.com:8443/sdk/ageverify.esm.js', 'https://verify.example.com:8443/api/v1'],
    ['https://example.com/age/sdk/ageverify.iife.min.js', 'https://example.com/age/api/v1'],
    ['https://example.com/sdk/v3/sdk/ageverify.js', 'https://example.com/sdk/v3/api/v1'],
    ['http://localhost:3000/sdk/ageverify.iife.min.js', 'http://localhost:3000/api/v1'],
    ['http://127.0.0.1:3000/sdk/ageverify.esm.js', 'http://127.0.0.1:3000/api/v1'],
  ])('%s → %s', (script, expected) => {
    expect(deriveBaseUrl(script)).toBe(expected);
  });

  test.each([
    [undefined],
    [''],
    ['not a url'],
    // Bundled into the merchant's own code: no /sdk/ segment, no guessing.
    ['https://shop.example/assets/app.js'],
    ['https://shop.example/sdkfoo/ageverify.js'],
    // Bundlers rewrite import.meta.url to a file: URL.
    ['file:///srv/shop/sdk/base-url.js'],
    ['http://verify.example.com/sdk/ageverify.iife.min.js'],
    ['https://user:pw@verify.example.com/sdk/ageverify.js'],
    ['blob:https://verify.example.com/sdk/x'],
  ])('%p gives no default', (script) => {
    expect(deriveBaseUrl(script)).toBeUndefined();
  });
});

describe('resolveBaseUrl', () => {
  test.each([
    ['https://verify.example.com/api/v1', 'https://verify.example.com/api/v1'],
    ['https://verify.example.com/api/v1/', 'https://verify.example.com/api/v1'],
    ['https://verify.example.com', 'https://verify.example.com/api/v1'],
    ['https://verify.example.com/', 'https://verify.example.com/api/v1'],
    ['https://example.com/age/api/v1', 'https://example.com/age/api/v1'],
    ['http://localhost:3000/api/v1', 'http://localhost:3000/api/v1'],
  ])('option %s → %s', (option, expected) => {
    expect(resolveBaseUrl(option, undefined)).toBe(expected);
  });

  test('the option wins over the script address', () => {
    expect(resolveBaseUrl('https://other.example/api/v1', 'https://verify.example.com/sdk/a.js')).toBe('https://other.example/api/v1');
  });

  test('without the option, the script address is used', () => {
    expect(resolveBaseUrl(undefined, 'https://verify.example.com/sdk/a.js')).toBe('https://verify.example.com/api/v1');
  });

  test.each([
    [undefined, 'https://shop.example/app.js', 'MISSING_BASE_URL'],
    [undefined, undefined, 'MISSING_BASE_URL'],
    ['http://verify.example.com/api/v1', undefined, 'HTTPS_REQUIRED'],
    ['javascript:alert(1)', undefined, 'BLOCKED_URL_SCHEME'],
    ['verify.example.com', undefined, 'INVALID_URL'],
    ['https://verify.example.com/api/v1?x=1', undefined, 'INVALID_OPTION'],
    ['https://verify.example.com/api/v1#x', undefined, 'INVALID_OPTION'],
    [42, undefined, 'INVALID_OPTION'],
  ])('refuses option %p (script %p) with %s', (option, script, code) => {
    let caught: unknown;
    try {
      resolveBaseUrl(option, script);
    } catch (error) {
      caught = error;
    }
    expect(caught).toBeInstanceOf(AgeVerifyError);
    expect((caught as AgeVerifyError).code).toBe(code as AgeVerifyError['code']);
  });
});
