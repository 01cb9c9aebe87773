import { describe, expect, test } from 'bun:test';
import { chooseLanguage, currentLanguage, i18n, initI18n, type LanguagePage } from './i18n';
import { formatDateTime, formatNumber } from './format';
import { LANGUAGE_KEY } from './language';

/** A page with the browser languages and stored items given; it records what i18n writes. */
function fakePage(languages: string[], stored: Record<string, string> = {}) {
  const items = new Map(Object.entries(stored));
  const page = {
    document: { title: '', documentElement: { lang: '' } },
    navigator: { languages, language: languages[0] ?? '' },
    localStorage: {
      getItem: (key: string) => items.get(key) ?? null,
      setItem: (key: string, value: string) => void items.set(key, value),
    },
  } satisfies LanguagePage;
  return { page, items };
}

const AT = '2025-03-04T05:06:07Z';

describe('the dashboard language', () => {
  test('a German browser gets German strings, <html lang="de">, a German title, dates and numbers', async () => {
    const { page } = fakePage(['de-DE', 'de', 'en']);
    await initI18n(page);
    expect(currentLanguage()).toBe('de');
    expect(page.document.documentElement.lang).toBe('de');
    expect(page.document.title).toBe('AgeVerify-Dashboard');
    expect(i18n.t('overview.title')).toBe('Übersicht');
    expect(i18n.t('overview.usedOf', { used: formatNumber(1234), allowance: formatNumber(25000) })).toBe('1.234 von 25.000');
    expect(formatDateTime(AT)).toMatch(/^04\.03\.2025, \d\d:\d\d$/);
  });

  test('a browser with no language the dashboard speaks gets English', async () => {
    const { page } = fakePage(['nl-NL', 'sv']);
    await initI18n(page);
    expect(currentLanguage()).toBe('en');
    expect(page.document.documentElement.lang).toBe('en');
    expect(page.document.title).toBe('AgeVerify dashboard');
    expect(i18n.t('overview.title')).toBe('Overview');
  });

  test('the choice stored by the account menu wins over the browser', async () => {
    const { page } = fakePage(['de-DE'], { [LANGUAGE_KEY]: 'fr' });
    await initI18n(page);
    expect(currentLanguage()).toBe('fr');
    expect(i18n.t('overview.title')).toBe('Vue d’ensemble');
  });

  test('choosing a language switches at once, tells listeners and is stored', async () => {
    const { page, items } = fakePage(['en-US']);
    await initI18n(page);
    const changes: string[] = [];
    const listener = (language: string) => changes.push(language);
    i18n.on('languageChanged', listener);
    await chooseLanguage('it', page);
    i18n.off('languageChanged', listener);
    expect(changes).toEqual(['it']);
    expect(items.get(LANGUAGE_KEY)).toBe('it');
    expect(page.document.documentElement.lang).toBe('it');
    expect(i18n.t('nav.overview')).toBe('Panoramica');
  });

  test('Portuguese is European Portuguese: pt-PT tag, dates and plurals (0 takes the plural, unlike pt-BR)', async () => {
    const { page } = fakePage(['pt-BR']);
    await initI18n(page);
    expect(currentLanguage()).toBe('pt');
    expect(page.document.documentElement.lang).toBe('pt-PT');
    expect(formatDateTime(AT)).toMatch(/^04\/03\/2025, \d\d:\d\d$/);
    expect(i18n.t('auth.password')).toBe('Palavra-passe');
    expect(i18n.t('webhooks.attemptCount', { count: 0 })).toBe('0 tentativas');
    expect(i18n.t('webhooks.attemptCount', { count: 1 })).toBe('1 tentativa');
  });

  test('plural forms follow each language (French 0 is singular; a million uses the plural everywhere)', async () => {
    const { page } = fakePage(['fr']);
    await initI18n(page);
    expect(i18n.t('webhooks.attemptCount', { count: 0 })).toBe('0 tentative');
    expect(i18n.t('webhooks.attemptCount', { count: 2 })).toBe('2 tentatives');
    // CLDR's "many" (fr, es, it, pt: 1 000 000) has no key of its own; i18next falls back to _other.
    expect(i18n.t('webhooks.attemptCount', { count: 1_000_000 })).toBe('1000000 tentatives');
    await chooseLanguage('de', page);
    expect(i18n.t('webhooks.attemptCount', { count: 1 })).toBe('1 Versuch');
    expect(i18n.t('webhooks.attemptCount', { count: 3 })).toBe('3 Versuche');
  });
});
