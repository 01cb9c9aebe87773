/**
 * URL rules for returnUrl and cancelUrl (spec "Browser SDK", URL rules; applied by the backend too):
 * production requires HTTPS; http://localhost and http://127.0.0.1 are allowed on any port and path;
 * every other scheme (file:, javascript:, data:, …) is blocked.
 */
export type UrlVerdict = { ok: true; url: URL } | { ok: false; reason: 'invalid' | 'blocked-scheme' | 'https-required' | 'credentials'; message: string };

const LOOPBACK_HOSTS = new Set(['localhost', '127.0.0.1']);

export function isLoopbackHost(hostname: string): boolean {
  return LOOPBACK_HOSTS.has(hostname.toLowerCase());
}

export function checkRedirectUrl(raw: string, field = 'returnUrl'): UrlVerdict {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    return { ok: false, reason: 'invalid', message: `${field} must be an absolute URL, got "${raw}"` };
  }
  if (url.protocol === 'http:' && isLoopbackHost(url.hostname)) return { ok: true, url };
  if (url.protocol === 'http:') {
    return {
      ok: false,
      reason: 'https-required',
      message: `${field} must use HTTPS (only http://localhost and http://127.0.0.1 may use HTTP), got "${raw}"`,
    };
  }
  if (url.protocol !== 'https:') {
    return { ok: false, reason: 'blocked-scheme', message: `${field} scheme "${url.protocol}" is not allowed; use https:` };
  }
  // user:pass@host is a classic way to make a URL look like another host to a reader.
  if (url.username || url.password) {
    return { ok: false, reason: 'credentials', message: `${field} must not contain user credentials` };
  }
  return { ok: true, url };
}

/** Appends parameters to a URL, keeping its existing query and fragment (spec: "Existing query parameters are preserved"). */
export function appendParams(base: string, params: Record<string, string | number | undefined | null>): string {
  const url = new URL(base);
  for (const [key, value] of Object.entries(params)) {
    if (value !== undefined && value !== null) url.searchParams.set(key, String(value));
  }
  return url.toString();
}
