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
    ['*.Example.com.', '*.example.com'],
    ['127.0.0.1', '127.0.0.1'],
  ])('%s is stored as %s', (raw, stored) => {
    expect(normaliseDomainEntry(raw)).toEqual({ ok: true, domain: stored });
  });
  test.each(['https://shop.example.com', 'shop.example.com:443', 'shop.example.com/path', '*.com', '-bad-.com', 'a..b', ''])(
    '%s is refused with a message',
    (raw) => {
      const verdict = normaliseDomainEntry(raw);
      expect(verdict.ok).toBe(false);
    },
  );
});
