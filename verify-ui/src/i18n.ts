import i18next from 'i18next';
import { UI_LANGUAGES, type UiLanguage } from '@ageverify/protocol';
import { DEFAULT_LANGUAGE } from './language';
import { en, type Translation } from './locales/en';
import type { LiveTranslation } from './locales/live-en';
import type { ErrorTranslation } from './locales/errors-en';
import { LazyTranslations } from './lazy-translations';
import type { RecognisedApiError } from './error-details';
import { de } from './locales/de';
import { es } from './locales/es';
import { fr } from './locales/fr';
import { pt } from './locales/pt';
import { it } from './locales/it';

// Typed keys: `i18n.t('intro.start')` is checked against the English locale at compile time. The
// live check's strings (locales/live-*.ts) arrive with the capture chunk, the explanations of API
// refusals (locales/errors-*.ts) when one is shown; their keys are typed too.
declare module 'i18next' {
  interface CustomTypeOptions {
    defaultNS: 'translation';
    resources: { translation: Translation & LiveTranslation & ErrorTranslation };
  }
}

/**
 * All six locales of the first screens are bundled: together they are a few KB, less than one extra
 * round trip would cost. The live check's strings and the explanations of API refusals are only
 * needed by some pages: they load on demand, one small chunk per language (LazyTranslations below).
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
    // A copy: lazily loaded strings are merged deep into i18next's store, which must not change
    // the locale modules themselves (nor, with them, what another i18n instance or a test reads).
    resources: JSON.parse(JSON.stringify(RESOURCES)) as typeof RESOURCES,
    // Resources are in memory, so `t` works as soon as init returns.
    initAsync: false,
    // Lit escapes every interpolated value when rendering; escaping here too would show `&amp;`.
    interpolation: { escapeValue: false },
    returnNull: false,
  });
  targetLanguage = language;
  liveTranslations.reset();
  errorTranslations.reset();
  labelDocument(language, doc);
}

/** <html lang> for assistive technology and hyphenation, and the tab's title, in the page language. */
function labelDocument(language: UiLanguage, doc: Document): void {
  doc.documentElement.lang = language;
  doc.title = i18n.t('app.title');
}

/** The page language now (the one initI18n or changeLanguage set). */
export function currentLanguage(): UiLanguage {
  return (i18n.resolvedLanguage ?? DEFAULT_LANGUAGE) as UiLanguage;
}

/**
 * Fires `change` whenever what `i18n.t` returns may have changed: another language, strings
 * added, strings that could not be loaded. Every TranslatedElement renders again on it.
 */
export const translationChanges = new EventTarget();
const announceChange = () => translationChanges.dispatchEvent(new Event('change'));
i18n.on('languageChanged', announceChange);

/** The language the page shows or is switching to: lazily loaded strings are fetched for it. */
let targetLanguage: UiLanguage = DEFAULT_LANGUAGE;
/** Counts language changes, so that of two quick ones only the later is applied. */
let languageRequest = 0;

const liveTranslations = new LazyTranslations<LiveTranslation>(i18n, {
  loaders: {
    en: () => import('./locales/live-en').then((module) => module.liveEn),
    de: () => import('./locales/live-de').then((module) => module.liveDe),
    es: () => import('./locales/live-es').then((module) => module.liveEs),
    fr: () => import('./locales/live-fr').then((module) => module.liveFr),
    pt: () => import('./locales/live-pt').then((module) => module.livePt),
    it: () => import('./locales/live-it').then((module) => module.liveIt),
  },
  withEnglish: true,
  language: () => targetLanguage,
  onChange: announceChange,
});

/**
 * The table that recognises the server's messages (error-details.ts) comes with the explanations,
 * on the same lazy path: a page without a refusal downloads neither.
 */
let apiErrorRecogniser: ((message: string) => RecognisedApiError | null) | null = null;

async function withRecogniser(texts: Promise<ErrorTranslation>): Promise<ErrorTranslation> {
  const [bundle, details] = await Promise.all([texts, import('./error-details')]);
  apiErrorRecogniser = details.recogniseApiError;
  return bundle;
}

const errorTranslations = new LazyTranslations<ErrorTranslation>(i18n, {
  loaders: {
    en: () => withRecogniser(import('./locales/errors-en').then((module) => module.errorsEn)),
    de: () => withRecogniser(import('./locales/errors-de').then((module) => module.errorsDe)),
    es: () => withRecogniser(import('./locales/errors-es').then((module) => module.errorsEs)),
    fr: () => withRecogniser(import('./locales/errors-fr').then((module) => module.errorsFr)),
    pt: () => withRecogniser(import('./locales/errors-pt').then((module) => module.errorsPt)),
    it: () => withRecogniser(import('./locales/errors-it').then((module) => module.errorsIt)),
  },
  // Every language has every key (locales.test.ts); a missing chunk gives the generic detail instead.
  withEnglish: false,
  language: () => targetLanguage,
  onChange: announceChange,
});

/**
 * The language switch (issue 23): loads the lazily loaded strings the page already uses in the new
 * language first, then switches i18next, which re-renders every TranslatedElement in place. Nothing
 * else changes: the flow's state stays where it is. Resolves to false when a later change
 * overtook this one.
 */
export async function changeLanguage(language: UiLanguage, doc: Document = document): Promise<boolean> {
  const request = ++languageRequest;
  targetLanguage = language;
  await Promise.all([liveTranslations.follow(language), errorTranslations.follow(language)]);
  if (request !== languageRequest) return false;
  await i18n.changeLanguage(language);
  labelDocument(language, doc);
  return true;
}

/**
 * Adds the live check's strings of the page language (and English, the fallback) to i18next.
 * Called by the capture chunk before its elements are defined. They are larger than the first
 * screens' and only live sessions need them: one small chunk per language.
 */
export function addLiveTranslations(): Promise<void> {
  return liveTranslations.request();
}

/**
 * Loads the page language's explanations of API refusals (locales/errors-xx.ts): only a page that
 * shows a refusal needs them, so they are not in the first bundle. Never rejects: without them the
 * page shows a generic detail (failure-text.ts).
 */
export function addErrorTranslations(): Promise<void> {
  return errorTranslations.request().catch(() => undefined);
}

/**
 * The server's message recognised (error-details.ts): its key under `apiErrors` and the values it
 * carries; null for a message the page does not know; undefined until addErrorTranslations has
 * loaded the table.
 */
export function recogniseApiError(message: string): RecognisedApiError | null | undefined {
  return apiErrorRecogniser ? apiErrorRecogniser(message) : undefined;
}

/** The page language's explanations of API refusals could not be loaded (the server may be down). */
export function errorTranslationsFailed(): boolean {
  return errorTranslations.hasFailed(currentLanguage());
}
