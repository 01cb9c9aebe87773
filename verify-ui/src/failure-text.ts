import type { ApiFailure } from './api';
import { i18n } from './i18n';

export interface FailureText {
  /** Localised explanation for the user. */
  body: string;
  /** The server's own message (English, from the spec's error body), shown as a detail. */
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
      const detail = failure.message ? i18n.t('error.details', { message: failure.message }) : null;
      if (failure.status === 401 || failure.status === 403) return { body: i18n.t('error.unauthorized'), detail, retryable: false };
      if (failure.status === 404) return { body: i18n.t('error.notFound'), detail, retryable: false };
      if (failure.status === 429) return { body: i18n.t('error.rateLimited'), detail, retryable: true };
      if (failure.status >= 500) return { body: i18n.t('error.server'), detail, retryable: true };
      // Other 4xx: the request itself was refused; the server's message says why.
      return { body: i18n.t('error.rejected'), detail, retryable: false };
    }
  }
}
