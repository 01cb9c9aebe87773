import { checkRedirectUrl } from '@ageverify/protocol';
import { AgeVerifyError, describeValue } from './errors';

/** Options and response fields that hold a URL the SDK sends the browser or its key to. */
export type UrlField = 'returnUrl' | 'cancelUrl' | 'baseUrl' | 'verifyUrl';

/**
 * Applies the spec's URL rules (spec "Browser SDK", URL rules, shared with the backend through
 * @ageverify/protocol): HTTPS in production; http:// only for localhost and 127.0.0.1 (any port and
 * path); file:, javascript:, data: and every other scheme blocked. Also refuses user:pass@ URLs,
 * which make a URL read like another host. Throws an AgeVerifyError that says what was expected.
 */
export function checkUrl(value: unknown, field: UrlField): URL {
  if (typeof value !== 'string') {
    throw new AgeVerifyError('INVALID_OPTION', `Expected ${field} to be a URL string, got ${describeValue(value)} instead.`);
  }
  const verdict = checkRedirectUrl(value, field);
  if (!verdict.ok) {
    switch (verdict.reason) {
      case 'https-required':
        throw new AgeVerifyError(
          'HTTPS_REQUIRED',
          `Expected ${field} to use https: (http: is allowed only for localhost and 127.0.0.1), got ${describeValue(value)} instead.`,
        );
      case 'blocked-scheme':
        throw new AgeVerifyError('BLOCKED_URL_SCHEME', `Expected ${field} to use https:, got the blocked scheme "${schemeOf(value)}" instead.`);
      case 'credentials':
        throw credentialsError(field);
      default:
        throw new AgeVerifyError(
          'INVALID_URL',
          `Expected ${field} to be an absolute URL such as "https://shop.example/age-verified", got ${describeValue(value)} instead.`,
        );
    }
  }
  // The shared rule accepts http://user@localhost before it looks at credentials; the SDK refuses them everywhere.
  if (verdict.url.username || verdict.url.password) throw credentialsError(field);
  return verdict.url;
}

function credentialsError(field: UrlField): AgeVerifyError {
  return new AgeVerifyError('URL_CREDENTIALS', `Expected ${field} without a user name or password, got a URL with credentials instead.`);
}

/** The scheme as the URL parser sees it (lower case, tabs and newlines removed), for messages. */
function schemeOf(raw: string): string {
  try {
    return new URL(raw).protocol;
  } catch {
    return raw.split(':')[0] ?? raw;
  }
}

/** Display parameters the SDK may append to verifyUrl (spec "Verification UI query parameters"). */
export interface DisplayParams {
  lang?: string;
  skip_intro?: 'true';
  auto_return?: 'true';
}

/**
 * Appends display parameters to verifyUrl by string concatenation.
 *
 * Spec "Session creation result": verifyUrl is used exactly as returned, must not be reconstructed,
 * and only `lang`, `skip_intro` and `auto_return` may be appended. Parsing and re-serializing with
 * URLSearchParams would re-encode the existing query (for example `~` or `%20`), so the original
 * text is kept byte for byte and the new pairs are added before any fragment. The only change to the
 * existing query: an earlier occurrence of a display parameter that is being set is dropped, so the
 * UI does not read a stale value first. Authentication parameters are never touched.
 */
export function appendDisplayParams(verifyUrl: string, params: DisplayParams): string {
  const pairs: string[] = [];
  const keys: string[] = [];
  for (const key of ['lang', 'skip_intro', 'auto_return'] as const) {
    const value = params[key];
    if (value === undefined) continue;
    keys.push(key);
    pairs.push(`${key}=${encodeURIComponent(value)}`);
  }
  if (pairs.length === 0) return verifyUrl;

  const hashAt = verifyUrl.indexOf('#');
  const beforeHash = hashAt < 0 ? verifyUrl : verifyUrl.slice(0, hashAt);
  const hash = hashAt < 0 ? '' : verifyUrl.slice(hashAt);
  const queryAt = beforeHash.indexOf('?');
  const path = queryAt < 0 ? beforeHash : beforeHash.slice(0, queryAt);
  let query = queryAt < 0 ? '' : beforeHash.slice(queryAt + 1);

  const parts = query.split('&');
  if (parts.some((part) => keys.indexOf(queryKey(part)) >= 0)) {
    query = parts.filter((part) => keys.indexOf(queryKey(part)) < 0).join('&');
  }
  const separator = query === '' || query.endsWith('&') ? '' : '&';
  return `${path}?${query}${separator}${pairs.join('&')}${hash}`;
}

/** The decoded name of one `name=value` pair of a query string. */
function queryKey(part: string): string {
  const name = part.split('=')[0] ?? '';
  try {
    return decodeURIComponent(name.replace(/\+/g, ' '));
  } catch {
    return name;
  }
}
