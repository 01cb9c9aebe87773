import { describe, expect, test } from 'bun:test';
import { allowedMethodsOf } from './allowed-methods';

const routes = [
  { method: 'OPTIONS', path: '/' },
  { method: 'OPTIONS', path: '/*' },
  { method: 'GET', path: '/healthz' },
  { method: 'POST', path: '/api/v1/sessions/create' },
  { method: 'GET', path: '/sdk/*' },
  { method: 'GET', path: '/items/:id' },
  { method: 'DELETE', path: '/items/:id' },
];

describe('allowedMethodsOf', () => {
  const allowed = allowedMethodsOf(routes);
  test.each([
    ['/api/v1/sessions/create', ['POST']],
    ['/healthz', ['GET', 'HEAD']],
    ['/sdk/ageverify.iife.min.js', ['GET', 'HEAD']],
    ['/items/42', ['DELETE', 'GET', 'HEAD']],
    ['/items/', []],
    ['/api/v1/sessions/create/', []],
    ['/nowhere', []],
    ['/', []],
  ])('%p', (path, methods) => {
    expect(allowed(path)).toEqual(methods);
  });
});
