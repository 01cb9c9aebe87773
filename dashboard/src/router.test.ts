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

  test('setup and invitation links open their pages; every other path the app', () => {
    expect(entryPage('/dashboard/setup')).toBe('setup');
    expect(entryPage('/dashboard/invite/')).toBe('invite');
    expect(entryPage('/dashboard/')).toBe('app');
    expect(entryPage('/dashboard/sessions')).toBe('app');
  });

  test('fragment values are read without touching the server', () => {
    expect(fragmentParam('#token=abc-123', 'token')).toBe('abc-123');
    expect(fragmentParam('#id=inv_1', 'token')).toBeNull();
  });
});
