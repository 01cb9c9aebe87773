/**
 * The languages of both user interfaces, the verify UI and the dashboard (issue 23): how a tag is
 * reduced to one of them and how one is chosen. One rule for both, so a browser that gets German in
 * one gets German in the other.
 */
import { UI_LANGUAGES, type UiLanguage } from './verify';

export const DEFAULT_UI_LANGUAGE: UiLanguage = 'en';

/** Each language named in itself: a reader finds theirs whatever language the page is in now. */
export const UI_LANGUAGE_NAMES: Readonly<Record<UiLanguage, string>> = {
  en: 'English',
  de: 'Deutsch',
  es: 'Español',
  fr: 'Français',
  pt: 'Português',
  it: 'Italiano',
};

/**
 * Reduces a language tag to a supported base code: `pt-BR`, `pt_br` and `PT` become `pt`, `de-AT`
 * becomes `de` (spec "Verification UI query parameters": "Locale variants are normalized to the base
 * code"). Anything else gives null.
 */
export function normalizeUiLanguage(tag: string | null | undefined): UiLanguage | null {
  if (!tag) return null;
  const base = tag.trim().toLowerCase().split(/[-_]/)[0] ?? '';
  return (UI_LANGUAGES as readonly string[]).includes(base) ? (base as UiLanguage) : null;
}

/**
 * The language a page speaks: an explicit choice wins (the verify UI's `lang` parameter, the
 * dashboard's stored menu choice) when it is supported; otherwise the first of the browser's
 * preferred languages that is, in their order; then English.
 */
export function pickUiLanguage(chosen: string | null, browserLanguages: readonly string[]): UiLanguage {
  const explicit = normalizeUiLanguage(chosen);
  if (explicit) return explicit;
  for (const tag of browserLanguages) {
    const preferred = normalizeUiLanguage(tag);
    if (preferred) return preferred;
  }
  return DEFAULT_UI_LANGUAGE;
}
