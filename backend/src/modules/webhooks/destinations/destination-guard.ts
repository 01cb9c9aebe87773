/**
 * Webhook destination rules (spec Authentication 9, "Webhook endpoint" url): HTTPS only, and the
 * host must resolve to public unicast addresses only. A reply with ANY non-public answer is refused
 * whole (stricter than Svix and Smokescreen, which drop the private answers; docs/webhooks.md "Which destinations are refused").
 * The same check runs when an endpoint is configured and again at every connection (delivery).
 *
 * WEBHOOK_ALLOWED_CIDRS exempts listed ranges, for tests and private deployments (docs/decisions-on-open-points.md).
 */
import { lookup } from 'node:dns/promises';
import ipaddr from 'ipaddr.js';

export type Resolver = (hostname: string) => Promise<string[]>;

const systemResolver: Resolver = async (hostname) => (await lookup(hostname, { all: true, verbatim: true })).map((a) => a.address);

export type DestinationVerdict =
  | { ok: true; url: URL; addresses: string[] }
  | { ok: false; reason: 'invalid-url' | 'not-https' | 'credentials' | 'dns' | 'non-public'; message: string };

export interface GuardOptions {
  resolver?: Resolver;
  allowedCidrs?: readonly [ipaddr.IPv4 | ipaddr.IPv6, number][];
  /** WEBHOOK_CA_FILE: an extra PEM CA trusted (besides the default roots) when connecting. */
  caFile?: string | null;
}

const GLOBAL_UNICAST_V6 = ipaddr.parseCIDR('2000::/3');
const IPV4_COMPATIBLE = ipaddr.parseCIDR('::/96');

/** The address class of one IP, or null when it is a public unicast address. */
export function nonPublicRange(address: string, allowedCidrs: GuardOptions['allowedCidrs'] = []): string | null {
  let ip: ipaddr.IPv4 | ipaddr.IPv6;
  try {
    ip = ipaddr.parse(address.replace(/^\[|\]$/g, '').replace(/%.*$/, ''));
  } catch {
    return 'unparseable';
  }
  if (allowedCidrs.some(([range, bits]) => range.kind() === ip.kind() && ip.match(range, bits))) return null;
  // ::ffff:a.b.c.d reaches the IPv4 host a.b.c.d: judge the embedded address.
  if (ip.kind() === 'ipv6' && (ip as ipaddr.IPv6).isIPv4MappedAddress()) {
    const v4 = (ip as ipaddr.IPv6).toIPv4Address();
    if (allowedCidrs.some(([range, bits]) => range.kind() === 'ipv4' && v4.match(range, bits))) return null;
    return `ipv4Mapped:${v4.range()}`;
  }
  const range = ip.range();
  // Everything ipaddr.js classifies (private, loopback, linkLocal, uniqueLocal, carrierGradeNat,
  // rfc6052/NAT64, 6to4, teredo, multicast, reserved, unspecified, …) is refused; only unicast passes.
  // `reserved` includes 192.0.0.0/24 (IETF protocol assignments, e.g. Oracle's metadata 192.0.0.192).
  if (range !== 'unicast') return range;
  // Only 2000::/3 is global unicast (RFC 4291 §2.4, IANA). ipaddr.js calls the rest of the space
  // "unicast" too, e.g. the deprecated IPv4-compatible ::a.b.c.d (URL turns [::127.0.0.1] into
  // [::7f00:1]), so anything outside 2000::/3 is refused.
  if (ip.kind() === 'ipv6' && !ip.match(GLOBAL_UNICAST_V6)) return (ip as ipaddr.IPv6).match(IPV4_COMPATIBLE) ? 'ipv4Compatible' : 'notGlobalUnicast';
  return null;
}

export async function checkDestination(raw: string, options: GuardOptions = {}): Promise<DestinationVerdict> {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    return { ok: false, reason: 'invalid-url', message: `webhook url must be an absolute https:// URL, got "${raw}"` };
  }
  if (url.protocol !== 'https:') return { ok: false, reason: 'not-https', message: `webhook url must use https://, got "${url.protocol}"` };
  if (url.username || url.password) return { ok: false, reason: 'credentials', message: 'webhook url must not contain user credentials' };
  // WHATWG URL has already normalised decimal/hex/octal IPv4 forms (2130706433 → 127.0.0.1).
  const host = url.hostname.replace(/^\[|\]$/g, '');
  let addresses: string[];
  if (ipaddr.isValid(host)) {
    addresses = [host];
  } else {
    try {
      addresses = await (options.resolver ?? systemResolver)(host);
    } catch (error) {
      return { ok: false, reason: 'dns', message: `webhook host "${host}" does not resolve (${(error as NodeJS.ErrnoException).code ?? 'DNS error'})` };
    }
    if (addresses.length === 0) return { ok: false, reason: 'dns', message: `webhook host "${host}" has no addresses` };
  }
  for (const address of addresses) {
    const range = nonPublicRange(address, options.allowedCidrs);
    if (range) {
      return {
        ok: false,
        reason: 'non-public',
        message: `webhook host "${host}" resolves to ${address} (${range}); destinations must be public Internet addresses only`,
      };
    }
  }
  return { ok: true, url, addresses };
}
