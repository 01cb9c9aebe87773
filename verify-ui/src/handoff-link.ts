/**
 * The QR handoff link comes from the server (POST /verify/session, `handoffUrl`), but it is still
 * checked before it is drawn as a QR code: a phone that scans it must land on this very verify UI
 * and nowhere else, even if a server bug or a misconfigured VERIFY_URL produced another address.
 *
 * Rule: an absolute http(s) URL on exactly the page's origin (scheme, host and port), without
 * user:password@. Same origin as the page also means the link is as secure as the page itself:
 * https in production, http only where the page itself is served over http (local development).
 * Returns the normalised URL (ASCII, percent-encoded: what the QR code encodes), or null.
 */
export function safeHandoffUrl(raw: string | null | undefined, pageOrigin: string): string | null {
  if (!raw) return null;
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    return null;
  }
  if (url.protocol !== 'https:' && url.protocol !== 'http:') return null;
  if (url.username || url.password) return null;
  if (url.origin !== pageOrigin) return null;
  // Without both of these the phone would only see "this link is incomplete".
  if (!url.searchParams.get('sessionId') || !url.searchParams.get('handoffToken')) return null;
  return url.href;
}

/**
 * The phone opens the handoff link in whatever language its browser prefers; a user who chose
 * German on the desktop expects German on the phone too. The page's own language rides along as
 * the spec's `lang` display parameter ("Verification UI query parameters"), which the phone's
 * launch-params.ts reads like any other verifyUrl. Any `lang` already on the link is replaced.
 */
export function withLanguage(url: string, language: string): string {
  const withLang = new URL(url);
  withLang.searchParams.set('lang', language);
  return withLang.href;
}

/**
 * A link to localhost, 127.0.0.0/8 or [::1] works on this computer only: a phone that scans it
 * reaches itself. The desktop then says so instead of showing a QR code that cannot work
 * (PUBLIC_BASE_URL is the address in the link; README "Configuration").
 */
export function isLoopbackUrl(url: string): boolean {
  let host: string;
  try {
    host = new URL(url).hostname.toLowerCase();
  } catch {
    return false;
  }
  if (host === 'localhost' || host.endsWith('.localhost')) return true;
  if (host === '[::1]') return true;
  return /^127\.\d{1,3}\.\d{1,3}\.\d{1,3}$/.test(host);
}
