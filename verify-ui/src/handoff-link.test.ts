import { describe, expect, test } from 'bun:test';
import { isLoopbackUrl, safeHandoffUrl, withLanguage } from './handoff-link';

const PAGE = 'https://verify.example.com';
const LINK = 'https://verify.example.com/verify?sessionId=ses_1&handoffToken=hand.abc';

describe("safeHandoffUrl (the QR code may only point back at this page's origin)", () => {
  const cases: Array<[string, string | null | undefined, string, string | null]> = [
    ['the server link on the page origin', LINK, PAGE, LINK],
    [
      'http on a local page',
      'http://localhost:3000/verify?sessionId=s&handoffToken=h',
      'http://localhost:3000',
      'http://localhost:3000/verify?sessionId=s&handoffToken=h',
    ],
    [
      'normalised to ASCII',
      'https://verify.example.com/verify?sessionId=s&handoffToken=h&x=ä',
      PAGE,
      'https://verify.example.com/verify?sessionId=s&handoffToken=h&x=%C3%A4',
    ],
    ['another host', 'https://evil.example/verify?sessionId=s&handoffToken=h', PAGE, null],
    ['a look-alike host', 'https://verify.example.com.evil.example/verify?sessionId=s&handoffToken=h', PAGE, null],
    ['another port', 'https://verify.example.com:8443/verify?sessionId=s&handoffToken=h', PAGE, null],
    ['http for an https page', 'http://verify.example.com/verify?sessionId=s&handoffToken=h', PAGE, null],
    ['user credentials', 'https://user:pw@verify.example.com/verify?sessionId=s&handoffToken=h', PAGE, null],
    ['javascript:', 'javascript:alert(1)', PAGE, null],
    ['data:', 'data:text/html,hi', PAGE, null],
    ['relative', '/verify?sessionId=s&handoffToken=h', PAGE, null],
    ['no handoffToken', 'https://verify.example.com/verify?sessionId=s', PAGE, null],
    ['no sessionId', 'https://verify.example.com/verify?handoffToken=h', PAGE, null],
    ['empty', '', PAGE, null],
    ['null', null, PAGE, null],
    ['undefined', undefined, PAGE, null],
  ];
  for (const [name, raw, origin, expected] of cases) {
    test(name, () => expect(safeHandoffUrl(raw, origin)).toBe(expected));
  }
});

describe('withLanguage', () => {
  test('adds lang to the handoff link', () =>
    expect(withLanguage('https://v.example.com/verify?sessionId=s&handoffToken=h', 'de')).toBe(
      'https://v.example.com/verify?sessionId=s&handoffToken=h&lang=de',
    ));
  test('replaces a lang already there', () =>
    expect(withLanguage('https://v.example.com/verify?lang=en&sessionId=s', 'fr')).toBe('https://v.example.com/verify?lang=fr&sessionId=s'));
});

describe('isLoopbackUrl: a phone cannot reach these', () => {
  const cases: Array<[string, boolean]> = [
    ['http://localhost:3000/verify', true],
    ['http://LOCALHOST/verify', true],
    ['http://app.localhost/verify', true],
    ['http://127.0.0.1:41234/verify', true],
    ['http://127.1.2.3/verify', true],
    ['http://[::1]:3000/verify', true],
    ['http://192.168.1.20:3000/verify', false],
    ['https://verify.example.com/verify', false],
    ['https://127.0.0.1.example.com/verify', false],
    ['not a url', false],
  ];
  for (const [url, expected] of cases) test(`${url} → ${expected}`, () => expect(isLoopbackUrl(url)).toBe(expected));
});
