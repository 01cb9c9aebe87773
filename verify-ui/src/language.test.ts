import { describe, expect, test } from 'bun:test';
import { normalizeLanguage, pickLanguage } from './language';

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
