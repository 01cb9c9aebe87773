import { describe, expect, test } from 'bun:test';
import { AgeVerifyError, describeValue, maskKey } from './errors';

describe('AgeVerifyError', () => {
  test('is an Error with a name, a code and only the details it was given', () => {
    const error = new AgeVerifyError('API_ERROR', 'boom', { status: 400, serverMessage: 'bad' });
    expect(error).toBeInstanceOf(Error);
    expect(error).toBeInstanceOf(AgeVerifyError);
    expect(error.name).toBe('AgeVerifyError');
    expect(error.code).toBe('API_ERROR');
    expect(error.message).toBe('boom');
    expect(error.status).toBe(400);
    expect(error.serverMessage).toBe('bad');
    expect('serverCode' in error).toBe(false);
    expect('retryAfterMs' in error).toBe(false);
  });
});

describe('describeValue', () => {
  test.each([
    [undefined, 'undefined'],
    [null, 'null'],
    ['abc', '"abc"'],
    [42, '42'],
    [Number.NaN, 'NaN'],
    [true, 'true'],
    [() => 1, 'a function'],
    [[1], 'an array'],
    [{ a: 1 }, 'an object'],
    [Symbol('s'), 'a symbol'],
  ])('%p is described as %s', (value, expected) => {
    expect(describeValue(value)).toBe(expected);
  });

  test('long strings are cut short', () => {
    const shown = describeValue('x'.repeat(500));
    expect(shown.length).toBeLessThan(100);
    expect(shown).toEndWith('…"');
  });
});

test('maskKey shows only the prefix of a key', () => {
  expect(maskKey('sk_live_supersecret')).toBe('"sk_…"');
});
