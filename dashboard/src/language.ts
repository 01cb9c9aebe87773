/**
 * Which language the dashboard speaks (issue 23, decision 0059): the verify UI's six, chosen from
 * the browser's preferred languages unless the user picked one in the account menu.
 */
import { DEFAULT_UI_LANGUAGE, normalizeUiLanguage, UI_LANGUAGES, type UiLanguage } from '@ageverify/protocol';

export const DASHBOARD_LANGUAGES = UI_LANGUAGES;
export type DashboardLanguage = UiLanguage;

/**
 * How a tag becomes a language and how one is chosen: the verify UI's rule (protocol/src/ui-language.ts),
 * with the dashboard's stored menu choice in the place of the verify UI's `lang` parameter.
 */
export {
  DEFAULT_UI_LANGUAGE as DEFAULT_LANGUAGE,
  UI_LANGUAGE_NAMES as LANGUAGE_NAMES,
  normalizeUiLanguage as normalizeLanguage,
  pickUiLanguage as pickLanguage,
} from '@ageverify/protocol';

/**
 * The tag for `<html lang>`, i18next (plural rules) and Intl (dates and numbers). The one
 * Portuguese of both UIs is European Portuguese (decision 0059): `pt` alone would format dates and
 * plurals the Brazilian way.
 */
export const LOCALE_TAGS: Readonly<Record<DashboardLanguage, string>> = {
  en: 'en',
  de: 'de',
  es: 'es',
  fr: 'fr',
  pt: 'pt-PT',
  it: 'it',
};

/** The choice made in the account menu, for this browser (all users of the browser share it). */
export const LANGUAGE_KEY = 'ageverify.dashboard.language';

/** The dashboard language of an i18next language (a tag of LOCALE_TAGS). */
export function languageOfTag(tag: string | undefined): DashboardLanguage {
  return normalizeUiLanguage(tag) ?? DEFAULT_UI_LANGUAGE;
}
