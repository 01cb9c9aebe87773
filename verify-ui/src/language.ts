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
