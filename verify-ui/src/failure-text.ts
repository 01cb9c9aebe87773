import type { ApiFailure } from './api';
import { addErrorTranslations, currentLanguage, errorTranslationsFailed, i18n, recogniseApiError } from './i18n';

export interface FailureText {
  /** Localised explanation for the user. */
  body: string;
  /**
   * What the server's message says, in the page language (error-details.ts), or a translated
   * generic detail for a message this page does not know: never the server's English words.
   * Null without a message, and while the explanations are still loading.
   */
  detail: string | null;
  /** Whether trying the same request again can help. */
  retryable: boolean;
}

/** Turns an API failure into what the user reads. A bad or unknown link cannot be fixed by retrying. */
export function describeFailure(failure: ApiFailure): FailureText {
  switch (failure.kind) {
    case 'network':
      return { body: i18n.t('error.network'), detail: null, retryable: true };
    case 'invalid-response':
      return { body: i18n.t('error.invalidResponse'), detail: null, retryable: true };
    case 'http': {
      const text = failure.message ? detailText(failure.message, failure.status) : null;
      const detail = text === null ? null : i18n.t('error.details', { message: text });
      if (failure.status === 401 || failure.status === 403) return { body: i18n.t('error.unauthorized'), detail, retryable: false };
      if (failure.status === 404) return { body: i18n.t('error.notFound'), detail, retryable: false };
      if (failure.status === 429) return { body: i18n.t('error.rateLimited'), detail, retryable: true };
      if (failure.status >= 500) return { body: i18n.t('error.server'), detail, retryable: true };
      // Other 4xx: the request itself was refused; the server's message says why.
      return { body: i18n.t('error.rejected'), detail, retryable: false };
    }
  }
}

/**
 * The page language's explanation of a known message. Those, and the table that recognises the
 * messages, load on demand (i18n.ts): until they are there the detail is left out (the page renders
 * again when they arrive); a message the page does not know, or strings that cannot be loaded,
 * give a generic detail with the status.
 */
function detailText(message: string, status: number): string | null {
  const generic = () => i18n.t('error.unknownDetail', { status });
  const known = recogniseApiError(message);
  if (known === null) return generic();
  const key = known ? (`apiErrors.${known.key}` as const) : null;
  // Only the page language's own text: i18next would fall back to English, which is what issue 23 forbids.
  if (known && key && i18n.getResource(currentLanguage(), 'translation', key) !== undefined) {
    return i18n.t(key as 'apiErrors.SESSION_RATE_LIMIT_EXCEEDED', known.values as { seconds: string });
  }
  if (errorTranslationsFailed()) return generic();
  void addErrorTranslations();
  return null;
}
