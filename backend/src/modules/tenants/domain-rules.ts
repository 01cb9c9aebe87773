/**
 * Allowed return-URL domains (spec Authentication 7). An entry matches a host exactly, or, written
 * `*.example.com`, any subdomain of example.com (not the apex itself: list both to allow both).
 * Loopback hosts pass without an entry: the spec says the allowlist "does not affect localhost".
 */
import { isLoopbackHost } from '@ageverify/protocol';

const LABEL = /^(?!-)[a-z0-9-]{1,63}(?<!-)$/;

export type DomainVerdict = { ok: true; domain: string; reducedFrom: string | null } | { ok: false; message: string };

/** A scheme and `//` (`https://…`): the entry is a pasted URL. */
const URL_PREFIX = /^[a-z][a-z0-9+.-]*:\/\//i;

/**
 * Normalises a domain entry, or returns a message saying what is wrong with it. A pasted URL
 * (`https://shop.example.com/return`) or a host with a port or path (`shop.example.com:8443/x`)
 * is reduced to its host (issue 23): the allowlist matches host names only, on any port and path,
 * so the host is exactly what the entry meant. `reducedFrom` then holds the entry as given, for the
 * caller to say what was stored.
 */
export function normaliseDomainEntry(raw: string): DomainVerdict {
  const trimmed = raw.trim();
  const reduced = hostOfUrlLike(trimmed);
  if (reduced && !reduced.ok) return reduced;
  const value = (reduced ? reduced.host : trimmed).toLowerCase().replace(/\.$/, '');
  const wildcard = value.startsWith('*.');
  const host = wildcard ? value.slice(2) : value;
  // Left after the reduction only by an IPv6 literal such as [::1] (loopback passes without an entry anyway).
  if (/[/:@[\]]/.test(host)) {
    return { ok: false, message: `domain must be a host name like shop.example.com or *.example.com, or an IPv4 address; got "${raw}"` };
  }
  const labels = host.split('.');
  const isIpv4 = /^\d{1,3}(\.\d{1,3}){3}$/.test(host);
  if (!isIpv4 && (labels.length < 1 || !labels.every((label) => LABEL.test(label)))) {
    return { ok: false, message: `domain "${raw}" is not a valid host name` };
  }
  if (wildcard && (isIpv4 || labels.length < 2)) {
    return { ok: false, message: `wildcard domain "${raw}" must name a parent domain with at least two labels, like *.example.com` };
  }
  if (host.length > 253) return { ok: false, message: `domain "${raw}" is longer than 253 characters` };
  const domain = wildcard ? `*.${host}` : host;
  return { ok: true, domain, reducedFrom: reduced ? trimmed : null };
}

/**
 * The host of an entry written as a URL or with a port, path, query or fragment; null for a plain
 * host name (left to the rules above). Only http and https URLs are reduced: return URLs use no
 * other scheme. A URL with a user name or password is refused rather than reduced, because in
 * `https://shop.example.com@evil.example/` the host is the part after the `@`, not the one a reader sees.
 */
function hostOfUrlLike(value: string): { ok: true; host: string } | { ok: false; message: string } | null {
  const hasScheme = URL_PREFIX.test(value);
  if (!hasScheme && !/[/:?#@]/.test(value)) return null;
  // WHATWG parsing would read `https:///path` as the host "path": an empty authority is no host.
  if (hasScheme && /^[^:]+:\/\/[/?#]/.test(value)) return { ok: false, message: `domain "${value}" has no host name` };
  let url: URL;
  try {
    url = new URL(hasScheme ? value : `https://${value}`);
  } catch {
    return { ok: false, message: `domain must be a host name like shop.example.com or *.example.com, or a URL on it; "${value}" is neither` };
  }
  if (hasScheme && url.protocol !== 'https:' && url.protocol !== 'http:') {
    return { ok: false, message: `domain must be a host name like shop.example.com, or an https:// URL on it; got a ${url.protocol} URL "${value}"` };
  }
  if (url.username || url.password) {
    return { ok: false, message: `domain "${value}" holds a user name or password; enter only the host name, like shop.example.com` };
  }
  return { ok: true, host: url.hostname };
}

export function isHostAllowed(hostname: string, allowed: readonly string[]): boolean {
  const host = hostname.toLowerCase().replace(/\.$/, '');
  if (isLoopbackHost(host)) return true;
  return allowed.some((entry) => (entry.startsWith('*.') ? host.endsWith(entry.slice(1)) && host.length > entry.length - 1 : host === entry));
}
