import { UI_LANGUAGES, type UiLanguage } from '@ageverify/protocol';

/** Spec "Verification UI query parameters": English is the last resort. */
export const DEFAULT_LANGUAGE: UiLanguage = 'en';

/**
 * Reduces a language tag to a supported base code: `pt-BR` and `pt_br` become `pt`
 * (spec: "Locale variants are normalized to the base code"). Anything else gives null.
 */
export function normalizeLanguage(tag: string | null | undefined): UiLanguage | null {
  if (!tag) return null;
  const base = tag.trim().toLowerCase().split(/[-_]/)[0] ?? '';
  return (UI_LANGUAGES as readonly string[]).includes(base) ? (base as UiLanguage) : null;
}

/**
 * Chooses the UI language (spec "Verification UI query parameters"): the `lang` parameter wins;
 * an unsupported value is ignored, so the browser's preferred languages apply, in their order;
 * then English.
 */
export function pickLanguage(langParam: string | null, browserLanguages: readonly string[]): UiLanguage {
  const fromParam = normalizeLanguage(langParam);
  if (fromParam) return fromParam;
  for (const tag of browserLanguages) {
    const fromBrowser = normalizeLanguage(tag);
    if (fromBrowser) return fromBrowser;
  }
  return DEFAULT_LANGUAGE;
}

/**
 * Each language named in itself (issue 23): a user who cannot read the page's current language
 * still finds their own in the switch.
 */
export const LANGUAGE_NAMES: Readonly<Record<UiLanguage, string>> = {
  en: 'English',
  de: 'Deutsch',
  es: 'Español',
  fr: 'Français',
  pt: 'Português',
  it: 'Italiano',
};

/**
 * The page's query with `lang` set to the chosen language, so a reload (or the back button) keeps
 * it for the rest of the session. `lang` is one of the display parameters a verifyUrl may carry
 * (spec "Verification UI query parameters"); every other pair is kept byte for byte, because the
 * verifyUrl "must not be reconstructed, and authentication parameters must not be removed".
 */
export function searchWithLanguage(search: string, language: UiLanguage): string {
  const query = search.startsWith('?') ? search.slice(1) : search;
  const kept = query.split('&').filter((pair) => pair !== '' && parameterName(pair) !== 'lang');
  return `?${[...kept, `lang=${language}`].join('&')}`;
}

/** The decoded name of one `name=value` pair. */
function parameterName(pair: string): string {
  const name = (pair.split('=')[0] ?? '').replaceAll('+', ' ');
  try {
    return decodeURIComponent(name);
  } catch {
    return name;
  }
}
