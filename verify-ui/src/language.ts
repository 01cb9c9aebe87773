import type { UiLanguage } from '@ageverify/protocol';

/**
 * Spec "Verification UI query parameters": the `lang` parameter wins, then the browser's preferred
 * languages, then English; locale variants become their base code. The rule is shared with the
 * dashboard (protocol/src/ui-language.ts).
 */
export {
  DEFAULT_UI_LANGUAGE as DEFAULT_LANGUAGE,
  UI_LANGUAGE_NAMES as LANGUAGE_NAMES,
  normalizeUiLanguage as normalizeLanguage,
  pickUiLanguage as pickLanguage,
} from '@ageverify/protocol';

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
