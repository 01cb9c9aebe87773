import { beforeEach, describe, expect, test } from 'bun:test';
import type { ApiFailure } from './api';
import { describeFailure } from './failure-text';
import { addErrorTranslations, changeLanguage, initI18n, translationChanges } from './i18n';
import { de } from './locales/de';
import { errorsDe } from './locales/errors-de';
import { errorsEn } from './locales/errors-en';
import { errorsFr } from './locales/errors-fr';

/** Stands in for `document`: i18n labels <html lang> and the title. */
const page = () => ({ documentElement: { lang: '' }, title: '' }) as unknown as Document;

const http = (status: number, message: string | null): ApiFailure => ({ kind: 'http', status, message });

// Server messages (English, part of the API): none may reach a German page.
const SERVER_MESSAGES = [
  'Invalid session token',
  'Session not found',
  'Rate limit exceeded for this session; retry in 17 s',
  'A check is already running on this session; wait for its answer before sending another',
  'Something the page has never heard of',
];

describe('the German error page shows no English detail (issue 23)', () => {
  beforeEach(async () => {
    initI18n('de', page());
    await addErrorTranslations();
  });

  test('a wrong session token: the German explanation, not "Invalid session token"', () => {
    const text = describeFailure(http(401, 'Invalid session token'));
    expect(text.body).toBe(de.error.unauthorized);
    expect(text.detail).toBe(de.error.details.replace('{{message}}', errorsDe.apiErrors.INVALID_SESSION_TOKEN));
  });

  test('values in the message are carried over (the seconds to wait)', () => {
    expect(describeFailure(http(429, 'Rate limit exceeded for this session; retry in 17 s')).detail).toBe(
      `Details: ${errorsDe.apiErrors.SESSION_RATE_LIMIT_EXCEEDED.replace('{{seconds}}', '17')}`,
    );
  });

  test("a live check's refusal", () => {
    const text = describeFailure(http(409, 'A check is already running on this session; wait for its answer before sending another'));
    expect(text.detail).toBe(`Details: ${errorsDe.apiErrors.CHECK_IN_PROGRESS}`);
  });

  test('a message the page does not know: a German generic detail with the status', () => {
    expect(describeFailure(http(400, 'Something the page has never heard of')).detail).toBe(`Details: ${de.error.unknownDetail.replace('{{status}}', '400')}`);
  });

  test('no server message ever appears in a German detail', () => {
    for (const message of SERVER_MESSAGES) {
      for (const status of [400, 401, 404, 409, 429, 503]) {
        const { detail } = describeFailure(http(status, message));
        expect(detail).not.toContain(message);
        expect(detail?.startsWith('Details: ')).toBe(true);
      }
    }
  });

  test('without a message there is no detail', () => {
    expect(describeFailure(http(502, null)).detail).toBeNull();
    expect(describeFailure({ kind: 'network' }).detail).toBeNull();
  });
});

test('the explanations load on demand: no detail until they are there, then the page is told to render again', async () => {
  initI18n('fr', page());
  const failure = http(404, 'Session not found');
  const rendered = new Promise<void>((resolve) => translationChanges.addEventListener('change', () => resolve(), { once: true }));
  // The first render asks for them; until they arrive there is no detail rather than an English one.
  expect(describeFailure(failure).detail).toBeNull();
  await rendered;
  expect(describeFailure(failure).detail).toBe(`Détails : ${errorsFr.apiErrors.SESSION_NOT_FOUND}`);
});

test('the same failure reads in the language chosen later (the language switch)', async () => {
  initI18n('de', page());
  await addErrorTranslations();
  const failure = http(401, 'Invalid session token');
  expect(describeFailure(failure).detail).toContain(errorsDe.apiErrors.INVALID_SESSION_TOKEN);
  await changeLanguage('en', page());
  expect(describeFailure(failure).detail).toBe(`Details: ${errorsEn.apiErrors.INVALID_SESSION_TOKEN}`);
});
