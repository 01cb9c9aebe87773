import i18next from 'i18next';
import { en, type Translation } from './locales/en';

// Typed keys: `i18n.t('keys.title')` is checked against the English locale at compile time.
declare module 'i18next' {
  interface CustomTypeOptions {
    defaultNS: 'translation';
    resources: { translation: Translation };
  }
}

/** One instance for the page, like the verify UI's. */
export const i18n = i18next.createInstance();

/**
 * English is complete (issue 12, item 8); other languages are added as locales/<code>.ts and listed
 * here. Resources are in memory, so `t` works as soon as init returns.
 */
export function initI18n(doc: Document = document): void {
  void i18n.init({
    lng: 'en',
    fallbackLng: 'en',
    supportedLngs: ['en'],
    resources: { en: { translation: en } },
    initAsync: false,
    // Lit escapes every interpolated value; escaping here too would show `&amp;`.
    interpolation: { escapeValue: false },
    returnNull: false,
  });
  doc.documentElement.lang = i18n.language;
  doc.title = i18n.t('app.title');
}
