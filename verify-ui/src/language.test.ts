import { describe, expect, test } from 'bun:test';
import { UI_LANGUAGES } from '@ageverify/protocol';
import { LANGUAGE_NAMES, normalizeLanguage, pickLanguage, searchWithLanguage } from './language';

describe('normalizeLanguage', () => {
  const cases: Array<[string | null, string | null]> = [
    ['en', 'en'],
    ['DE', 'de'],
    ['pt-BR', 'pt'],
    ['pt_br', 'pt'],
    ['fr-CA', 'fr'],
    ['it-IT', 'it'],
    [' es-419 ', 'es'],
    ['nl', null],
    ['zh-Hant-TW', null],
    ['english', null],
    ['', null],
    [null, null],
  ];
  for (const [input, expected] of cases) {
    test(`${JSON.stringify(input)} -> ${JSON.stringify(expected)}`, () => {
      expect(normalizeLanguage(input)).toBe(expected as ReturnType<typeof normalizeLanguage>);
    });
  }
});

describe('pickLanguage (spec "Verification UI query parameters")', () => {
  const cases: Array<{ name: string; lang: string | null; browser: string[]; expected: string }> = [
    { name: 'lang wins over the browser', lang: 'de', browser: ['fr-FR', 'en'], expected: 'de' },
    { name: 'a regional lang becomes its base code', lang: 'pt-BR', browser: ['en-US'], expected: 'pt' },
    { name: 'it is supported by the UI (not by the SDK option)', lang: 'it', browser: [], expected: 'it' },
    { name: 'an unsupported lang falls back to the browser', lang: 'nl', browser: ['es-ES', 'en'], expected: 'es' },
    { name: 'the first supported browser language is used', lang: null, browser: ['nl-NL', 'ja', 'fr-BE', 'de'], expected: 'fr' },
    { name: 'nothing usable gives English', lang: 'xx', browser: ['nl', 'ja'], expected: 'en' },
    { name: 'no input gives English', lang: null, browser: [], expected: 'en' },
    { name: 'an empty lang is ignored', lang: '', browser: ['de-AT'], expected: 'de' },
  ];
  for (const { name, lang, browser, expected } of cases) {
    test(name, () => {
      expect(pickLanguage(lang, browser)).toBe(expected as ReturnType<typeof pickLanguage>);
    });
  }
});

describe('searchWithLanguage (the language switch keeps the choice in the address, issue 23)', () => {
  const cases: Array<{ name: string; search: string; expected: string }> = [
    { name: 'adds lang after the other parameters', search: '?sessionId=ses_1&sessionToken=st_a~b', expected: '?sessionId=ses_1&sessionToken=st_a~b&lang=fr' },
    { name: 'replaces an earlier lang', search: '?lang=de&sessionId=ses_1&handoffToken=ht_x', expected: '?sessionId=ses_1&handoffToken=ht_x&lang=fr' },
    { name: 'drops every lang, also an encoded name', search: '?l%61ng=de&sessionId=ses_1&lang=it', expected: '?sessionId=ses_1&lang=fr' },
    {
      name: 'keeps the other pairs byte for byte (no re-encoding)',
      search: '?sessionId=ses_1&returnUrl=https%3A%2F%2Fshop.example%2Fr%3Fa%3D1%2520b&merchantName=Caf%C3%A9+Shop&skip_intro=true',
      expected: '?sessionId=ses_1&returnUrl=https%3A%2F%2Fshop.example%2Fr%3Fa%3D1%2520b&merchantName=Caf%C3%A9+Shop&skip_intro=true&lang=fr',
    },
    { name: 'keeps a parameter whose name only starts with lang', search: '?language=x&langx=y', expected: '?language=x&langx=y&lang=fr' },
    { name: 'an empty query', search: '', expected: '?lang=fr' },
    { name: 'empty pairs go', search: '?&sessionId=ses_1&&', expected: '?sessionId=ses_1&lang=fr' },
  ];
  for (const { name, search, expected } of cases) {
    test(name, () => expect(searchWithLanguage(search, 'fr')).toBe(expected));
  }
});

test('each language is named in itself, and every UI language has a name', () => {
  expect(Object.keys(LANGUAGE_NAMES).sort()).toEqual([...UI_LANGUAGES].sort());
  expect(LANGUAGE_NAMES).toEqual({ en: 'English', de: 'Deutsch', es: 'Español', fr: 'Français', pt: 'Português', it: 'Italiano' });
});
