import i18next from 'i18next';
import { UI_LANGUAGES, type UiLanguage } from '@ageverify/protocol';
import { DEFAULT_LANGUAGE } from './language';
import { en, type Translation } from './locales/en';
import type { LiveTranslation } from './locales/live-en';
import { de } from './locales/de';
import { es } from './locales/es';
import { fr } from './locales/fr';
import { pt } from './locales/pt';
import { it } from './locales/it';

// Typed keys: `i18n.t('intro.start')` is checked against the English locale at compile time. The
// live check's strings (locales/live-*.ts) arrive with the capture chunk; their keys are typed too.
declare module 'i18next' {
  interface CustomTypeOptions {
    defaultNS: 'translation';
    resources: { translation: Translation & LiveTranslation };
  }
}

/**
 * All six locales of the first screens are bundled: together they are a few KB, less than one extra
 * round trip would cost. The live check's strings are larger and only needed by live sessions:
 * they load with the capture chunk (addLiveTranslations), one small chunk per language.
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

const LIVE_LOCALES: Record<UiLanguage, () => Promise<LiveTranslation>> = {
  en: () => import('./locales/live-en').then((module) => module.liveEn),
  de: () => import('./locales/live-de').then((module) => module.liveDe),
  es: () => import('./locales/live-es').then((module) => module.liveEs),
  fr: () => import('./locales/live-fr').then((module) => module.liveFr),
  pt: () => import('./locales/live-pt').then((module) => module.livePt),
  it: () => import('./locales/live-it').then((module) => module.liveIt),
};

/**
 * Adds the live check's strings of the page language (and English, the fallback) to i18next,
 * merged into the same key tree. Called by the capture chunk before its elements are defined.
 */
export async function addLiveTranslations(): Promise<void> {
  const language = (i18n.resolvedLanguage ?? DEFAULT_LANGUAGE) as UiLanguage;
  const languages = [...new Set<UiLanguage>([language in LIVE_LOCALES ? language : DEFAULT_LANGUAGE, DEFAULT_LANGUAGE])];
  const bundles = await Promise.all(languages.map((code) => LIVE_LOCALES[code]()));
  for (const [index, code] of languages.entries()) i18n.addResourceBundle(code, 'translation', bundles[index], true, false);
}
