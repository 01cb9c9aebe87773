import { describe, expect, test } from 'bun:test';
import { normalizeLanguage, pickLanguage } from './language';

describe('normalizeLanguage', () => {
  test.each([
    ['de', 'de'],
    ['de-AT', 'de'],
    ['pt-BR', 'pt'],
    ['pt_PT', 'pt'],
    ['FR-ca', 'fr'],
    [' it ', 'it'],
    ['en-GB', 'en'],
    ['nl', null],
    ['', null],
    [null, null],
    ['deutsch', null],
  ])('%p → %p', (tag, expected) => expect(normalizeLanguage(tag)).toBe(expected as ReturnType<typeof normalizeLanguage>));
});

describe('pickLanguage', () => {
  test.each([
    // [stored choice, browser languages, language]
    [null, ['de-DE', 'de', 'en'], 'de'],
    [null, ['nl-NL', 'fr-BE', 'de'], 'fr'],
    [null, ['pt-BR'], 'pt'],
    [null, ['nl', 'sv'], 'en'],
    [null, [], 'en'],
    ['fr', ['de-DE'], 'fr'],
    ['it', [], 'it'],
    // A stored value the dashboard does not speak (an old build's, edited by hand) is ignored.
    ['nl', ['es-MX'], 'es'],
    ['', ['es'], 'es'],
  ])('stored %p, browser %p → %p', (stored, browser, expected) => expect(pickLanguage(stored, browser)).toBe(expected as ReturnType<typeof pickLanguage>));
});
