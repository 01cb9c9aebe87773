import { describe, expect, test } from 'bun:test';
import { jsonBodyMediaTypeProblem, parseMediaType } from './media-type';

describe('parseMediaType', () => {
  test.each([
    ['application/json', { essence: 'application/json', parameters: {} }],
    ['APPLICATION/JSON', { essence: 'application/json', parameters: {} }],
    ['application/json; charset=UTF-8', { essence: 'application/json', parameters: { charset: 'UTF-8' } }],
    ['application/json;charset="utf-8"', { essence: 'application/json', parameters: { charset: 'utf-8' } }],
    [' text/plain ; Format=flowed', { essence: 'text/plain', parameters: { format: 'flowed' } }],
  ])('%p', (header, expected) => {
    expect(parseMediaType(header)).toEqual(expected);
  });

  test.each(['', 'json', 'application/', '/json', 'application/json/x', 'application/json; charset', 'appli cation/json'])(
    '%p is not a media type',
    (header) => {
      expect(parseMediaType(header)).toBeNull();
    },
  );
});

describe('jsonBodyMediaTypeProblem', () => {
  test.each(['application/json', 'APPLICATION/JSON', 'Application/Json; charset=utf-8', 'application/json; charset="UTF-8"'])('%p is accepted', (header) => {
    expect(jsonBodyMediaTypeProblem(header)).toBeNull();
  });

  test.each([
    ['application/jsonx', 'Content-Type must be application/json, got "application/jsonx"'],
    ['text/application/json', 'Content-Type must be application/json, got "text/application/json"'],
    ['text/plain; x=application/json', 'Content-Type must be application/json, got "text/plain; x=application/json"'],
    ['application/x-www-form-urlencoded', 'Content-Type must be application/json, got "application/x-www-form-urlencoded"'],
    ['application/json; charset=utf-16', 'Content-Type charset must be utf-8, got "utf-16"'],
    ['application/json; charset=latin1', 'Content-Type charset must be utf-8, got "latin1"'],
    [null, 'Content-Type must be application/json, got "none"'],
  ])('%p is refused', (header, message) => {
    expect(jsonBodyMediaTypeProblem(header)).toBe(message);
  });
});
