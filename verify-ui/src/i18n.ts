import i18next from 'i18next';
import { UI_LANGUAGES, type UiLanguage } from '@ageverify/protocol';
import { DEFAULT_LANGUAGE } from './language';
import { en, type Translation } from './locales/en';
import { de } from './locales/de';
import { es } from './locales/es';
import { fr } from './locales/fr';
import { pt } from './locales/pt';
import { it } from './locales/it';

// Typed keys: `i18n.t('intro.start')` is checked against the English locale at compile time.
declare module 'i18next' {
  interface CustomTypeOptions {
    defaultNS: 'translation';
    resources: { translation: Translation };
  }
}

/**
 * All six locales are bundled: together they are a few KB, less than one extra round trip would
 * cost, and the page needs no `connect-src` for locale files.
 */
const RESOURCES: Record<UiLanguage, { translation: Translation }> = {
  en: { translation: en },
  de: { translation: de },
  es: { translation: es },
  fr: { translation: fr },
  pt: { translation: pt },
  it: { translation: it },
};

/** One instance for the page; an own instance keeps the global i18next free for any embedder. */
export const i18n = i18next.createInstance();

/** Initialises translations synchronously (resources are inline) and labels the document. */
export function initI18n(language: UiLanguage, doc: Document = document): void {
  void i18n.init({
    lng: language,
    fallbackLng: DEFAULT_LANGUAGE,
    supportedLngs: [...UI_LANGUAGES],
    resources: RESOURCES,
    // Resources are in memory, so `t` works as soon as init returns.
    initAsync: false,
    // Lit escapes every interpolated value when rendering; escaping here too would show `&amp;`.
    interpolation: { escapeValue: false },
    returnNull: false,
  });
  doc.documentElement.lang = language;
  doc.title = i18n.t('app.title');
}
