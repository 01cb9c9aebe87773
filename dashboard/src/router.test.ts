import { describe, expect, test } from 'bun:test';
import { entryPage, fragmentParam, parseRoute, routeHref } from './router';

describe('routes', () => {
  test('hash routes name a screen and an optional id', () => {
    expect(parseRoute('#/webhooks/whe_1')).toEqual({ screen: 'webhooks', id: 'whe_1' });
    expect(parseRoute('#/keys')).toEqual({ screen: 'keys', id: null });
    expect(parseRoute('')).toEqual({ screen: 'overview', id: null });
    expect(parseRoute('#/nothing-here')).toEqual({ screen: 'overview', id: null });
  });

  test('an id survives the round trip through the hash', () => {
    const href = routeHref('sessions', 'ses_a/b c');
    expect(parseRoute(href)).toEqual({ screen: 'sessions', id: 'ses_a/b c' });
  });

  test('a malformed escape in the id opens the screen without an id instead of throwing (URIError)', () => {
    // DashApp parses the hash in a field initialiser: a throw there left a blank page.
    expect(parseRoute('#/sessions/%')).toEqual({ screen: 'sessions', id: null });
    expect(parseRoute('#/webhooks/whe_%E0%A4%A')).toEqual({ screen: 'webhooks', id: null });
  });

  test('setup and invitation links open their pages; every other path the app', () => {
    expect(entryPage('/dashboard/setup')).toBe('setup');
    expect(entryPage('/dashboard/invite/')).toBe('invite');
    expect(entryPage('/dashboard/confirm')).toBe('confirm');
    expect(entryPage('/dashboard/')).toBe('app');
    expect(entryPage('/dashboard/sessions')).toBe('app');
  });

  test('fragment values are read without touching the server', () => {
    expect(fragmentParam('#token=abc-123', 'token')).toBe('abc-123');
    expect(fragmentParam('#id=inv_1', 'token')).toBeNull();
  });
});
