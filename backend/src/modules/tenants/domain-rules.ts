/**
 * Allowed return-URL domains (spec Authentication 7). An entry matches a host exactly, or, written
 * `*.example.com`, any subdomain of example.com (not the apex itself: list both to allow both).
 * Loopback hosts pass without an entry: the spec says the allowlist "does not affect localhost".
 */
import { isLoopbackHost } from '@ageverify/protocol';

const LABEL = /^(?!-)[a-z0-9-]{1,63}(?<!-)$/;

/** Normalises a domain entry, or returns a message saying what is wrong with it. */
export function normaliseDomainEntry(raw: string): { ok: true; domain: string } | { ok: false; message: string } {
  const value = raw.trim().toLowerCase().replace(/\.$/, '');
  const wildcard = value.startsWith('*.');
  const host = wildcard ? value.slice(2) : value;
  if (host.includes('/') || host.includes(':') || host.includes('@')) {
    return { ok: false, message: `domain must be a host name like shop.example.com or *.example.com, without scheme, port or path; got "${raw}"` };
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
  return { ok: true, domain: wildcard ? `*.${host}` : host };
}

export function isHostAllowed(hostname: string, allowed: readonly string[]): boolean {
  const host = hostname.toLowerCase().replace(/\.$/, '');
  if (isLoopbackHost(host)) return true;
  return allowed.some((entry) => (entry.startsWith('*.') ? host.endsWith(entry.slice(1)) && host.length > entry.length - 1 : host === entry));
}
