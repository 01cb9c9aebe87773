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
