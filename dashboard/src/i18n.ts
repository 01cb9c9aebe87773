import i18next from 'i18next';
import { DEFAULT_LANGUAGE, LANGUAGE_KEY, LOCALE_TAGS, languageOfTag, pickLanguage, type DashboardLanguage } from './language';
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
 * English is in the entry bundle: it is the fallback of every key and the type of every locale.
 * The other five are a chunk each, loaded only for the language in use (decision 0059: bundled,
 * they would add their size to every first load of the page).
 */
const LOCALES: Record<Exclude<DashboardLanguage, 'en'>, () => Promise<Translation>> = {
  de: () => import('./locales/de').then((module) => module.de),
  es: () => import('./locales/es').then((module) => module.es),
  fr: () => import('./locales/fr').then((module) => module.fr),
  pt: () => import('./locales/pt').then((module) => module.pt),
  it: () => import('./locales/it').then((module) => module.it),
};

/** What language choice reads from and writes to: the window, or a stand-in in tests. */
export interface LanguagePage {
  readonly document: Pick<Document, 'title'> & { readonly documentElement: Pick<HTMLElement, 'lang'> };
  readonly navigator: { readonly languages?: readonly string[]; readonly language?: string };
  readonly localStorage: Pick<Storage, 'getItem' | 'setItem'>;
}

/**
 * Initialises translations in the language of the browser or of the user's earlier choice
 * (language.ts, pickLanguage). Resolves once that language's strings are loaded, so the page can
 * wait for it before the first render and never shows English to a German browser first.
 */
export async function initI18n(page: LanguagePage = window): Promise<void> {
  await i18n.init({
    lng: LOCALE_TAGS[DEFAULT_LANGUAGE],
    fallbackLng: LOCALE_TAGS[DEFAULT_LANGUAGE],
    supportedLngs: Object.values(LOCALE_TAGS),
    // Only the exact tag: `pt-PT` must not look for a `pt` bundle that does not exist.
    load: 'currentOnly',
    resources: { [LOCALE_TAGS[DEFAULT_LANGUAGE]]: { translation: en } },
    // English is in memory, so `t` works as soon as init returns.
    initAsync: false,
    // Lit escapes every interpolated value; escaping here too would show `&amp;`.
    interpolation: { escapeValue: false },
    returnNull: false,
  });
  const navigatorLanguages = page.navigator.languages?.length ? page.navigator.languages : [page.navigator.language ?? ''];
  const language = pickLanguage(readChoice(page), navigatorLanguages);
  try {
    await applyLanguage(language, page);
  } catch {
    // The locale's chunk did not load (offline, or a new deploy removed it): English, not no dashboard.
    label(page);
  }
}

/** The language the dashboard shows now. */
export function currentLanguage(): DashboardLanguage {
  return languageOfTag(i18n.language);
}

/**
 * The account menu's switch: loads the language, re-labels the document and remembers the choice
 * for this browser. i18next's `languageChanged` tells the elements to render again (main.ts).
 * Rejects, leaving the language as it was, when the locale cannot be loaded.
 */
export async function chooseLanguage(language: DashboardLanguage, page: LanguagePage = window): Promise<void> {
  await applyLanguage(language, page);
  try {
    page.localStorage.setItem(LANGUAGE_KEY, language);
  } catch {
    // Storage can be disabled; the choice then lasts until the page is reloaded.
  }
}

async function applyLanguage(language: DashboardLanguage, page: LanguagePage): Promise<void> {
  const tag = LOCALE_TAGS[language];
  if (language !== 'en' && !i18n.hasResourceBundle(tag, 'translation')) {
    i18n.addResourceBundle(tag, 'translation', await LOCALES[language]());
  }
  await i18n.changeLanguage(tag);
  label(page);
}

function label(page: LanguagePage): void {
  page.document.documentElement.lang = i18n.language;
  page.document.title = i18n.t('app.title');
}

function readChoice(page: LanguagePage): string | null {
  try {
    return page.localStorage.getItem(LANGUAGE_KEY);
  } catch {
    return null;
  }
}
