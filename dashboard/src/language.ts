/**
 * Which language the dashboard speaks (issue 23, decision 0059): the verify UI's six, chosen from
 * the browser's preferred languages unless the user picked one in the account menu.
 */
import { UI_LANGUAGES, type UiLanguage } from '@ageverify/protocol';

export const DASHBOARD_LANGUAGES = UI_LANGUAGES;
export type DashboardLanguage = UiLanguage;

export const DEFAULT_LANGUAGE: DashboardLanguage = 'en';

/** Each language named in itself, so a reader finds theirs whatever language the page is in now. */
export const LANGUAGE_NAMES: Readonly<Record<DashboardLanguage, string>> = {
  en: 'English',
  de: 'Deutsch',
  es: 'Español',
  fr: 'Français',
  pt: 'Português',
  it: 'Italiano',
};

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

/** `de-AT`, `pt_BR` and `FR` become their base code when the dashboard speaks it; anything else is null. */
export function normalizeLanguage(tag: string | null | undefined): DashboardLanguage | null {
  if (!tag) return null;
  const base = tag.trim().toLowerCase().split(/[-_]/)[0] ?? '';
  return (DASHBOARD_LANGUAGES as readonly string[]).includes(base) ? (base as DashboardLanguage) : null;
}

/**
 * The stored choice wins; then the first of the browser's preferred languages (navigator.languages,
 * the list the browser also sends as Accept-Language) that the dashboard speaks; then English.
 */
export function pickLanguage(stored: string | null, browserLanguages: readonly string[]): DashboardLanguage {
  const chosen = normalizeLanguage(stored);
  if (chosen) return chosen;
  for (const tag of browserLanguages) {
    const preferred = normalizeLanguage(tag);
    if (preferred) return preferred;
  }
  return DEFAULT_LANGUAGE;
}

/** The dashboard language of an i18next language (a tag of LOCALE_TAGS). */
export function languageOfTag(tag: string | undefined): DashboardLanguage {
  return normalizeLanguage(tag) ?? DEFAULT_LANGUAGE;
}
