/**
 * SSRF vectors (docs/webhooks.md "Which destinations are refused"), each refused twice: when the endpoint is configured
 * (addEndpoint) and when a delivery connects (attemptDelivery with the production default: no
 * allowed CIDRs). The loopback vectors point at a live HTTPS receiver on 127.0.0.1, so a guard
 * that let one through would show up as a request received. DNS names resolve through a fake
 * resolver that answers like an attacker's DNS would. Redirect vectors can only show at connect
 * time: the configured URL is public and its response redirects.
 */
import { afterAll, beforeAll, describe, expect, test } from 'bun:test';
import { ManualClock } from '../../../clock';
import { openPglite, type Database } from '../../../db/database';
import { createTenant } from '../../tenants/service';
import { attemptDelivery } from '../delivery/attempt';
import { addEndpoint } from '../endpoints/endpoint-config';
import { startReceiver, type Receiver } from '../testing/https-receiver';
import { fakeResolver, LOOPBACK_ONLY } from '../testing/testbed';
import type { GuardOptions } from './destination-guard';
import { TEST_AUDIT } from '../../audit/testing/audit-kit';

let receiver: Receiver;
let database: Database;
let tenantId: string;
let P = 0;

const attackerDns = fakeResolver({
  localhost: ['127.0.0.1', '::1'],
  'localhost.': ['127.0.0.1'],
  'localtest.me': ['127.0.0.1'],
  '127.0.0.1.nip.io': ['127.0.0.1'],
  'metadata.google.internal': ['169.254.169.254'],
  metadata: ['169.254.169.254'],
  'private.attacker.example': ['10.1.2.3'],
  'cgnat.attacker.example': ['100.100.100.200'],
  'mixed.attacker.example': ['93.184.215.14', '127.0.0.1'],
  'aaaa-private.attacker.example': ['93.184.215.14', 'fd00::1'],
  'cname-internal.attacker.example': ['192.168.10.20'],
  'ula-only.attacker.example': ['fd12:3456:789a::1'],
  'mapped.attacker.example': ['::ffff:10.0.0.1'],
  'public.example': ['93.184.215.14'],
});

// [name, url (P = the live receiver's port)]
const vectors: [string, () => string][] = [
  ['loopback 127.0.0.1', () => `https://127.0.0.1:${P}/`],
  ['all of 127/8', () => `https://127.127.127.127:${P}/`],
  ['decimal 2130706433', () => `https://2130706433:${P}/`],
  ['hex 0x7f000001', () => `https://0x7f000001:${P}/`],
  ['hex short 0x7f.1', () => `https://0x7f.1:${P}/`],
  ['octal 0177.0.0.1', () => `https://0177.0.0.1:${P}/`],
  ['octal 017700000001', () => `https://017700000001:${P}/`],
  ['short 127.1', () => `https://127.1:${P}/`],
  ['short 127.0.1', () => `https://127.0.1:${P}/`],
  ['IPv6 [::1]', () => `https://[::1]:${P}/`],
  ['IPv6 [0000::1]', () => `https://[0000::1]:${P}/`],
  ['IPv4-mapped [::ffff:127.0.0.1]', () => `https://[::ffff:127.0.0.1]:${P}/`],
  ['IPv4-mapped hex [::ffff:7f00:1]', () => `https://[::ffff:7f00:1]:${P}/`],
  ['IPv4-compatible [::127.0.0.1]', () => `https://[::127.0.0.1]:${P}/`],
  ['unspecified 0.0.0.0 (reaches localhost on Linux)', () => `https://0.0.0.0:${P}/`],
  ['unspecified 0', () => `https://0:${P}/`],
  ['unspecified [::]', () => `https://[::]:${P}/`],
  ['AWS/GCP/Azure metadata 169.254.169.254', () => 'https://169.254.169.254/latest/meta-data/'],
  ['metadata decimal 2852039166', () => 'https://2852039166/'],
  ['metadata hex 0xA9.0xFE.0xA9.0xFE', () => 'https://0xA9.0xFE.0xA9.0xFE/'],
  ['metadata octal 0251.0376.0251.0376', () => 'https://0251.0376.0251.0376/'],
  ['ECS credentials 169.254.170.2', () => 'https://169.254.170.2/v2/credentials'],
  ['Alibaba metadata 100.100.100.200 (CGNAT)', () => 'https://100.100.100.200/'],
  ['Oracle metadata 192.0.0.192', () => 'https://192.0.0.192/'],
  ['AWS IMDSv6 [fd00:ec2::254]', () => 'https://[fd00:ec2::254]/'],
  ['mapped metadata [::ffff:169.254.169.254]', () => 'https://[::ffff:169.254.169.254]/'],
  ['NAT64 metadata [64:ff9b::a9fe:a9fe]', () => 'https://[64:ff9b::a9fe:a9fe]/'],
  ['6to4 metadata [2002:a9fe:a9fe::]', () => 'https://[2002:a9fe:a9fe::]/'],
  ['Teredo [2001::a9fe:a9fe]', () => 'https://[2001::a9fe:a9fe]/'],
  ['private 10/8', () => 'https://10.0.0.1/'],
  ['private 172.16/12', () => 'https://172.16.0.1/'],
  ['private 192.168/16', () => 'https://192.168.0.1/'],
  ['CGNAT 100.64/10', () => 'https://100.64.0.1/'],
  ['ULA [fc00::1]', () => 'https://[fc00::1]/'],
  ['link-local [fe80::1]', () => 'https://[fe80::1]/'],
  ['multicast 224.0.0.1', () => 'https://224.0.0.1/'],
  ['multicast [ff02::1]', () => 'https://[ff02::1]/'],
  ['broadcast 255.255.255.255', () => 'https://255.255.255.255/'],
  ['benchmarking 198.18.0.1', () => 'https://198.18.0.1/'],
  ['reserved 240.0.0.1', () => 'https://240.0.0.1/'],
  ['documentation 192.0.2.1', () => 'https://192.0.2.1/'],
  ['name localhost', () => `https://localhost:${P}/`],
  ['name localhost. (trailing dot)', () => `https://localhost.:${P}/`],
  ['name ⓛⓞⓒⓐⓛⓗⓞⓢⓣ (normalises to localhost)', () => `https://ⓛⓞⓒⓐⓛⓗⓞⓢⓣ:${P}/`],
  ['name localtest.me', () => `https://localtest.me:${P}/`],
  ['name 127.0.0.1.nip.io', () => `https://127.0.0.1.nip.io:${P}/`],
  ['name metadata.google.internal', () => 'https://metadata.google.internal/computeMetadata/v1/'],
  ['name metadata', () => 'https://metadata/'],
  ['name resolving to a private address', () => 'https://private.attacker.example/'],
  ['name resolving to CGNAT', () => 'https://cgnat.attacker.example/'],
  ['name with mixed public and loopback answers', () => `https://mixed.attacker.example:${P}/`],
  ['name with a public A and a private AAAA', () => 'https://aaaa-private.attacker.example/'],
  ['CNAME to an internal name (resolver returns its address)', () => 'https://cname-internal.attacker.example/'],
  ['name resolving to ULA only', () => 'https://ula-only.attacker.example/'],
  ['name resolving to a mapped private address', () => 'https://mapped.attacker.example/'],
  ['parser confusion 127.1.1.1:80\\@127.2.2.2:80', () => 'https://127.1.1.1:80\\@127.2.2.2:80/'],
  ['credentials evil.example@127.0.0.1', () => `https://evil.example@127.0.0.1:${P}/`],
  ['plain http', () => 'http://public.example/'],
  ['gopher scheme', () => 'gopher://public.example:70/_x'],
  ['file scheme', () => 'file:///etc/passwd'],
  ['ftp scheme', () => 'ftp://public.example/'],
  ['dict scheme', () => 'dict://public.example:11211/stat'],
];

beforeAll(async () => {
  receiver = await startReceiver();
  P = receiver.port;
  database = await openPglite(null);
  tenantId = (await createTenant(database.db, new ManualClock(), { name: 'SSRF', domains: ['s.example.com'], sandbox: false })).tenantId;
});
afterAll(async () => {
  await receiver.stop();
  await database.close();
});

// Production defaults: no allowed CIDRs. The CA is trusted so that only the guard stands in the way.
const guard = (): GuardOptions => ({ resolver: attackerDns, allowedCidrs: [], caFile: receiver.caFile });

test(`the table has at least 40 vectors (${vectors.length})`, () => expect(vectors.length).toBeGreaterThanOrEqual(40));

describe('refused at configuration time', () => {
  for (const [name, url] of vectors) {
    test(name, async () => {
      const refusal = addEndpoint(
        database.db,
        new ManualClock(),
        guard(),
        { tenantId, url: url(), events: ['verification.completed'], enabled: true },
        TEST_AUDIT,
      );
      await expect(refusal).rejects.toThrow(/webhook (url|host)/);
    });
  }
});

describe('refused at connection time (no request reaches the live receiver)', () => {
  for (const [name, url] of vectors) {
    test(name, async () => {
      const result = await attemptDelivery({ url: url(), eventId: 'evt_ssrf', body: '{}', secret: 'whsec_x', sentAt: new Date() }, guard(), {
        timeoutMs: 2_000,
      });
      expect(result.statusCode).toBeNull();
      expect(result.errorClass).toBe('destination');
    });
  }
  test('the receiver saw none of them', () => expect(receiver.requests()).toHaveLength(0));
});

describe('redirects to private addresses are refused at connection time (never followed)', () => {
  const targets: (string | (() => string))[] = [
    'https://169.254.169.254/latest/meta-data/',
    () => `https://127.0.0.1:${P}/admin`, // the live receiver: following would show as a request
    'https://127.0.0.1/admin',
    'https://[::1]/',
    'https://10.0.0.1/internal',
    'gopher://127.0.0.1:6379/_FLUSHALL',
    'file:///etc/passwd',
  ];
  for (const [i, target] of targets.entries()) {
    for (const status of [302, 307]) {
      test(`${status} → ${typeof target === 'string' ? target : 'https://127.0.0.1:<receiver port>/admin'}`, async () => {
        const path = `/to-private-${i}-${status}`;
        receiver.script(path, [{ status, location: typeof target === 'string' ? target : target() }]);
        const allowReceiver: GuardOptions = { ...guard(), resolver: fakeResolver({ 'hooks.test': ['127.0.0.1'] }), allowedCidrs: LOOPBACK_ONLY };
        const before = receiver.requests().length;
        const result = await attemptDelivery({ url: receiver.url(path), eventId: 'evt_r', body: '{}', secret: 'whsec_x', sentAt: new Date() }, allowReceiver, {
          timeoutMs: 2_000,
        });
        expect(result).toMatchObject({ statusCode: status, errorClass: 'redirect' });
        // Exactly the one request to the configured URL; nothing followed it.
        expect(
          receiver
            .requests()
            .slice(before)
            .map((r) => r.path),
        ).toEqual([path]);
      });
    }
  }
});
