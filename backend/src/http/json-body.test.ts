import { describe, expect, test } from 'bun:test';
import { JsonBodyError, MAX_JSON_DEPTH, parseJsonBody } from './json-body';

const utf8 = (text: string) => new TextEncoder().encode(text);
const bytes = (...parts: Array<string | number[]>) => {
  const chunks = parts.map((part) => (typeof part === 'string' ? utf8(part) : new Uint8Array(part)));
  const out = new Uint8Array(chunks.reduce((n, c) => n + c.byteLength, 0));
  let offset = 0;
  for (const chunk of chunks) {
    out.set(chunk, offset);
    offset += chunk.byteLength;
  }
  return out;
};
const refusal = (input: Uint8Array) => {
  try {
    parseJsonBody(input);
  } catch (error) {
    expect(error).toBeInstanceOf(JsonBodyError);
    return (error as Error).message;
  }
  throw new Error('accepted');
};

describe('parseJsonBody accepts', () => {
  test.each([
    ['{"externalUserId":"user-42"}', { externalUserId: 'user-42' }],
    ['{"merchantName":"Bäckerei Müller 🥨"}', { merchantName: 'Bäckerei Müller 🥨' }],
    ['{"a":"\\ud83e\\udd68"}', { a: '🥨' }],
    ['{"a":"\\uFFFD"}', { a: '\uFFFD' }],
    [
      `{"a":${'['.repeat(MAX_JSON_DEPTH - 1)}${']'.repeat(MAX_JSON_DEPTH - 1)}}`,
      { a: JSON.parse('['.repeat(MAX_JSON_DEPTH - 1) + ']'.repeat(MAX_JSON_DEPTH - 1)) },
    ],
  ])('%p', (text, expected) => {
    expect(parseJsonBody(utf8(text))).toEqual(expected);
  });
});

describe('parseJsonBody refuses, naming the field', () => {
  test.each([
    ['NUL in a string', bytes('{"externalUserId":"a\\u0000b"}'), 'externalUserId must not contain NUL (\\u0000) characters'],
    ['NUL in a nested string', bytes('{"a":{"b":["x","\\u0000"]}}'), 'a.b[1] must not contain NUL (\\u0000) characters'],
    ['NUL in a property name', bytes('{"a\\u0000":1}'), 'property name "a\\\\u0000" must not contain NUL (\\u0000) characters'],
    ['a lone high surrogate', bytes('{"sessionId":"ses_\\ud800"}'), 'sessionId must be well-formed Unicode text (it contains a lone surrogate)'],
    ['a lone low surrogate', bytes('{"merchantName":"\\udc00x"}'), 'merchantName must be well-formed Unicode text (it contains a lone surrogate)'],
    ['an invalid UTF-8 byte in a string', bytes('{"externalUserId":"a', [0xff], 'b"}'), 'externalUserId is not valid UTF-8'],
    ['an overlong UTF-8 encoding', bytes('{"externalUserId":"', [0xc0, 0xaf], '"}'), 'externalUserId is not valid UTF-8'],
    ['a UTF-8-encoded surrogate', bytes('{"x":"', [0xed, 0xa0, 0x80], '"}'), 'x is not valid UTF-8'],
    ['a truncated sequence', bytes('{"x":"', [0xe2, 0x82], '"}'), 'x is not valid UTF-8'],
    ['invalid UTF-8 outside any string', bytes('{"x":1}', [0xff]), 'Request body is not valid UTF-8'],
    [
      '10,000-deep nesting in a string field',
      bytes(`{"externalUserId":${'['.repeat(10_000)}${']'.repeat(10_000)}}`),
      `externalUserId${'[0]'.repeat(MAX_JSON_DEPTH - 1)} is nested deeper than ${MAX_JSON_DEPTH} levels`,
    ],
    [
      'deep objects',
      bytes(`${'{"a":'.repeat(40)}1${'}'.repeat(40)}`),
      `${Array(MAX_JSON_DEPTH).fill('a').join('.')} is nested deeper than ${MAX_JSON_DEPTH} levels`,
    ],
  ])('%s', (_name, input, message) => {
    expect(refusal(input)).toBe(message);
  });

  test('malformed JSON says where', () => {
    expect(refusal(utf8('{"a":'))).toStartWith('Malformed JSON in request body: ');
  });
});
