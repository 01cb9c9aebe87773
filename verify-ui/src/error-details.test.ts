import { describe, expect, test } from 'bun:test';
import { UI_LANGUAGES, type UiLanguage } from '@ageverify/protocol';
import { KNOWN_API_ERRORS, recogniseApiError } from './error-details';
import { errorsEn } from './locales/errors-en';
import { errorsDe } from './locales/errors-de';
import { errorsEs } from './locales/errors-es';
import { errorsFr } from './locales/errors-fr';
import { errorsPt } from './locales/errors-pt';
import { errorsIt } from './locales/errors-it';

const STRINGS: Record<UiLanguage, Record<string, string>> = {
  en: errorsEn.apiErrors,
  de: errorsDe.apiErrors,
  es: errorsEs.apiErrors,
  fr: errorsFr.apiErrors,
  pt: errorsPt.apiErrors,
  it: errorsIt.apiErrors,
};

const variables = (text: string) => [...text.matchAll(/\{\{(\w+)\}\}/g)].map((match) => match[1]).sort();

describe('every known API error has its words in every language (issue 23)', () => {
  for (const language of UI_LANGUAGES) {
    for (const known of KNOWN_API_ERRORS) {
      test(`${language}: ${known.key}`, () => {
        const text = STRINGS[language][known.key] ?? '';
        expect(text.trim().length).toBeGreaterThan(0);
        // The translation uses exactly the values the message carries, no more.
        expect(variables(text)).toEqual([...(known.values ?? [])].sort());
        if (language !== 'en') expect(text).not.toBe(STRINGS.en[known.key]);
      });
    }
  }

  test('no key is translated that the table does not know (a text nobody can reach)', () => {
    for (const language of UI_LANGUAGES) expect(Object.keys(STRINGS[language]).sort()).toEqual(KNOWN_API_ERRORS.map((known) => known.key).sort());
  });

  test('keys are unique', () => {
    const keys = KNOWN_API_ERRORS.map((known) => known.key);
    expect(new Set(keys).size).toBe(keys.length);
  });
});

describe('recogniseApiError', () => {
  const cases: Array<[string, string | null, Record<string, string>?]> = [
    ['Invalid session token', 'INVALID_SESSION_TOKEN'],
    ['Invalid handoff token', 'INVALID_HANDOFF_TOKEN'],
    ['Session not found', 'SESSION_NOT_FOUND'],
    ['Session is already completed (status verified)', 'SESSION_ALREADY_COMPLETED'],
    ['Rate limit exceeded for this session; retry in 42 s', 'SESSION_RATE_LIMIT_EXCEEDED', { seconds: '42' }],
    ['sessionToken must be at most 200 characters long', 'LINK_FIELD_INVALID'],
    ['sessionId is required', 'LINK_FIELD_INVALID'],
    ['Cannot POST /api/v1/verify/session', 'ROUTE_NOT_FOUND'],
    ['Service temporarily unavailable: the database cannot be reached; retry later', 'SERVICE_UNAVAILABLE'],
    ['The database cannot be reached; retry later', 'SERVICE_UNAVAILABLE'],
    ['This session expects a document check', 'WRONG_CHECK'],
    ['This session expects an age_estimation check', 'WRONG_CHECK'],
    ['part selfie is a JPEG with more than 100 scans; send a baseline JPEG, PNG or WebP', 'IMAGE_TOO_COMPLEX'],
    ['image took more than 3000 ms to decode', 'IMAGE_TOO_COMPLEX'],
    // Messages the page does not know: the generic translated detail, never a guess.
    ['Invalid session token, or something else', null],
    ['outcome must be one of: verified, failed, cancelled', null],
    ['sessionId must not be empty; property foo should not exist', null],
    ['Rate limit exceeded: 300 requests per 60 seconds for this account; retry in 3 s', null],
    ['', null],
  ];
  for (const [message, key, values] of cases) {
    test(`${JSON.stringify(message)} -> ${key}`, () => {
      const recognised = recogniseApiError(message);
      expect(recognised?.key ?? null).toBe(key);
      if (values) expect(recognised?.values).toEqual(values);
    });
  }
});
