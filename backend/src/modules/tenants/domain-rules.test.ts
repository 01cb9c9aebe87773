import { describe, expect, test } from 'bun:test';
import { isHostAllowed, normaliseDomainEntry } from './domain-rules';

describe('isHostAllowed', () => {
  const allowed = ['shop.example.com', '*.brand.example', '192.0.2.10'];
  const cases: [string, boolean][] = [
    ['shop.example.com', true],
    ['SHOP.Example.com', true],
    ['shop.example.com.', true],
    ['evil-shop.example.com', false],
    ['shop.example.com.evil.net', false],
    ['example.com', false],
    ['a.brand.example', true],
    ['a.b.brand.example', true],
    ['brand.example', false],
    ['xbrand.example', false],
    ['192.0.2.10', true],
    ['192.0.2.11', false],
    ['localhost', true],
    ['127.0.0.1', true],
  ];
  for (const [host, verdict] of cases) {
    test(`${host} → ${verdict ? 'allowed' : 'refused'}`, () => expect(isHostAllowed(host, allowed)).toBe(verdict));
  }
});

describe('normaliseDomainEntry', () => {
  test.each([
    ['Shop.Example.com', 'shop.example.com'],
    ['  shop.example.com  ', 'shop.example.com'],
    ['*.Example.com.', '*.example.com'],
    ['127.0.0.1', '127.0.0.1'],
  ])('%s is stored as %s', (raw, stored) => {
    expect(normaliseDomainEntry(raw)).toEqual({ ok: true, domain: stored, reducedFrom: null });
  });

  // Issue 23: a pasted URL, or a host with a port or path, is reduced to its host.
  test.each([
    ['https://shop.example.com/return', 'shop.example.com'],
    ['  HTTPS://Shop.Example.com:8443/return?order=1#done ', 'shop.example.com'],
    ['http://shop.example.com', 'shop.example.com'],
    ['https://shop.example.com.', 'shop.example.com'],
    ['shop.example.com/path', 'shop.example.com'],
    ['shop.example.com:443', 'shop.example.com'],
    ['shop.example.com?x=1', 'shop.example.com'],
    ['https://*.brand.example/x', '*.brand.example'],
    ['https://192.0.2.10:8080/', '192.0.2.10'],
    ['https://bücher.example/', 'xn--bcher-kva.example'],
  ])('%s is reduced to %s', (raw, stored) => {
    expect(normaliseDomainEntry(raw)).toEqual({ ok: true, domain: stored, reducedFrom: raw.trim() });
  });

  test.each([
    ['*.com', 'at least two labels'],
    ['-bad-.com', 'is not a valid host name'],
    ['a..b', 'is not a valid host name'],
    ['', 'is not a valid host name'],
    ['https://-bad-.com/x', 'is not a valid host name'],
    ['https://*.com/', 'at least two labels'],
    ['ftp://shop.example.com/', 'got a ftp: URL'],
    ['https://shop.example.com@evil.example/', 'holds a user name or password'],
    ['https://user:pw@shop.example.com/', 'holds a user name or password'],
    ['https://shop.example.com:99999/', 'is neither'],
    ['https://[::1]/', 'or an IPv4 address'],
    ['https:///path', 'has no host name'],
  ])('%s is refused: %s', (raw, words) => {
    const verdict = normaliseDomainEntry(raw);
    expect(verdict.ok).toBe(false);
    expect(verdict.ok ? '' : verdict.message).toContain(words);
  });
});
