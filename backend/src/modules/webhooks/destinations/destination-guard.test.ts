import { describe, expect, test } from 'bun:test';
import ipaddr from 'ipaddr.js';
import { checkDestination, nonPublicRange } from './destination-guard';

// Table-first (docs/engineering-habits.md habit 4): address classes from docs/webhooks.md "Which destinations are refused".
const refused = [
  '127.0.0.1',
  '127.127.127.127',
  '10.0.0.1',
  '172.16.0.1',
  '172.31.255.255',
  '192.168.1.1',
  '169.254.169.254',
  '169.254.170.2',
  '100.64.0.1',
  '100.100.100.200',
  '100.127.255.254',
  // 192.0.0.0/24, IETF protocol assignments (Oracle's metadata is 192.0.0.192): ipaddr.js `reserved`.
  '192.0.0.192',
  '192.0.0.8',
  '192.0.0.170',
  '0.0.0.0',
  '0.1.2.3',
  '224.0.0.1',
  '240.0.0.1',
  '255.255.255.255',
  '198.18.0.1',
  '192.0.2.1',
  '203.0.113.5',
  '::1',
  '::',
  '::ffff:127.0.0.1',
  '::ffff:169.254.169.254',
  'fd00:ec2::254',
  'fc00::1',
  'fe80::1',
  'fe80::1%eth0',
  'ff02::1',
  '64:ff9b::a9fe:a9fe',
  '2002:a9fe:a9fe::',
  '2001::1',
  '2001:db8::1',
  '100::1',
  // IPv4-compatible (deprecated ::/96, what URL makes of [::127.0.0.1]) and the rest outside 2000::/3.
  '::7f00:1',
  '::a9fe:a9fe',
  '5f00::1',
  'fec0::1',
  '4000::1',
  '3fff::1',
];
const accepted = ['93.184.215.14', '8.8.8.8', '1.1.1.1', '100.63.255.254', '100.128.0.1', '2606:4700:4700::1111', '2a00:1450:4001::200e'];

describe('nonPublicRange', () => {
  for (const address of refused) test(`${address} is refused`, () => expect(nonPublicRange(address)).not.toBeNull());
  for (const address of accepted) test(`${address} is public`, () => expect(nonPublicRange(address)).toBeNull());
  test('an operator-allowed CIDR exempts its addresses only', () => {
    const allowed = [ipaddr.parseCIDR('127.0.0.1/32')];
    expect(nonPublicRange('127.0.0.1', allowed)).toBeNull();
    expect(nonPublicRange('127.0.0.2', allowed)).not.toBeNull();
    expect(nonPublicRange('::ffff:127.0.0.1', allowed)).toBeNull();
  });
});

describe('checkDestination', () => {
  const resolver = (table: Record<string, string[]>) => async (host: string) => {
    const answer = table[host];
    if (!answer) throw Object.assign(new Error('not found'), { code: 'ENOTFOUND' });
    return answer;
  };
  const dns = resolver({
    'hooks.example.com': ['93.184.215.14'],
    'mixed.example.com': ['93.184.215.14', '10.0.0.5'],
    'v6private.example.com': ['93.184.215.14', 'fd00::1'],
    'metadata.example.com': ['169.254.169.254'],
  });
  const cases: [string, boolean, string?][] = [
    ['https://hooks.example.com/webhook', true],
    ['http://hooks.example.com/webhook', false, 'not-https'],
    ['ftp://hooks.example.com/', false, 'not-https'],
    ['https://user:pw@hooks.example.com/', false, 'credentials'],
    ['https://mixed.example.com/', false, 'non-public'],
    ['https://v6private.example.com/', false, 'non-public'],
    ['https://metadata.example.com/', false, 'non-public'],
    ['https://unknown.example.com/', false, 'dns'],
    ['https://2130706433/', false, 'non-public'],
    ['https://0x7f000001/', false, 'non-public'],
    ['https://0177.0.0.1/', false, 'non-public'],
    ['https://127.1/', false, 'non-public'],
    ['https://[::ffff:127.0.0.1]/', false, 'non-public'],
    ['https://[::]/', false, 'non-public'],
    ['not a url', false, 'invalid-url'],
  ];
  for (const [url, ok, reason] of cases) {
    test(`${url} → ${ok ? 'accepted' : reason}`, async () => {
      const verdict = await checkDestination(url, { resolver: dns });
      expect(verdict.ok).toBe(ok);
      if (!verdict.ok) expect(verdict.reason).toBe(reason as never);
    });
  }
});
