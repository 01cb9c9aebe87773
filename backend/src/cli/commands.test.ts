/** The provisioning commands, run in-process on every database target. */
import { afterAll, beforeAll, describe, expect, test } from 'bun:test';
import ipaddr from 'ipaddr.js';
import { TARGETS, openTestDatabase, type TestDatabase } from '../testing/test-databases';
import { ManualClock } from '../clock';
import { parseArgs, runCommand, type CommandContext } from './commands';

for (const target of TARGETS) {
  describe(`cli commands [${target}]`, () => {
    let database: TestDatabase;
    let ctx: CommandContext;
    const resolver = async (host: string) => ({ 'hooks.example.com': ['93.184.215.14'], 'internal.example.com': ['10.1.2.3'] })[host] ?? [];
    beforeAll(async () => {
      database = await openTestDatabase(target);
      ctx = { db: database.db, clock: new ManualClock(), guard: { resolver, allowedCidrs: [] } };
    });
    afterAll(() => database.close());
    const run = async (...argv: string[]) => {
      const result = await runCommand(ctx, argv);
      return { ...result, json: result.stdout ? JSON.parse(result.stdout) : null };
    };

    test('tenant create prints tenantId, pairId, publishableKey and secretKey', async () => {
      const { exitCode, json } = await run('tenant', 'create', '--name', 'Shop', '--domain', 'shop.example.com', '--sandbox');
      expect(exitCode).toBe(0);
      expect(json.tenantId).toMatch(/^ten_/);
      expect(json.pairId).toMatch(/^kp_/);
      expect(json.publishableKey).toMatch(/^pk_test_/);
      expect(json.secretKey).toMatch(/^sk_test_/);
      const live = await run(
        'tenant',
        'create',
        '--name',
        'Live',
        '--domain',
        'live.example.com',
        '--owner',
        'Owner@Example.com',
        '--password',
        'correct horse battery',
      );
      expect(live.json.publishableKey).toMatch(/^pk_live_/);
    });

    test('keys create, list and revoke (pair or publishable only)', async () => {
      const { json: tenant } = await run('tenant', 'create', '--name', 'K', '--domain', 'k.example.com');
      const { json: pair } = await run('keys', 'create', '--tenant', tenant.tenantId, '--sandbox');
      expect(Object.keys(pair)).toEqual(expect.arrayContaining(['pairId', 'publishableKey', 'secretKey']));
      expect((await run('keys', 'revoke', '--tenant', tenant.tenantId, '--pair', pair.pairId, '--publishable-only')).exitCode).toBe(0);
      const { json: listed } = await run('keys', 'list', '--tenant', tenant.tenantId);
      const revoked = listed.find((row: { pairId: string }) => row.pairId === pair.pairId);
      expect(revoked).toMatchObject({ publishableRevoked: true, revoked: false });
      expect(JSON.stringify(listed)).not.toContain(pair.secretKey);
      await run('keys', 'revoke', '--tenant', tenant.tenantId, '--pair', pair.pairId);
      const { json: after } = await run('keys', 'list', '--tenant', tenant.tenantId);
      expect(after.find((row: { pairId: string }) => row.pairId === pair.pairId)).toMatchObject({ revoked: true });
    });

    test('keys create --label and keys rename (issue 23)', async () => {
      const { json: tenant } = await run('tenant', 'create', '--name', 'L', '--domain', 'l.example.com');
      const { json: pair } = await run('keys', 'create', '--tenant', tenant.tenantId, '--label', '  Checkout server  ');
      expect(pair.label).toBe('Checkout server');
      expect((await run('keys', 'rename', '--tenant', tenant.tenantId, '--pair', pair.pairId, '--label', 'Staging')).json).toEqual({
        pairId: pair.pairId,
        label: 'Staging',
      });
      const { json: listed } = await run('keys', 'list', '--tenant', tenant.tenantId);
      expect(listed.find((row: { pairId: string }) => row.pairId === pair.pairId)).toMatchObject({ label: 'Staging' });
      const tooLong = await run('keys', 'rename', '--tenant', tenant.tenantId, '--pair', pair.pairId, '--label', 'x'.repeat(101));
      expect(tooLong.exitCode).not.toBe(0);
      expect(tooLong.stderr).toContain('label must be at most 100 characters after trimming spaces, got 101');
    });

    test('domains add and remove', async () => {
      const { json: tenant } = await run('tenant', 'create', '--name', 'D', '--domain', 'd.example.com');
      expect((await run('domains', 'add', '--tenant', tenant.tenantId, '--domain', '*.Brand.example')).json.domains).toEqual([
        '*.brand.example',
        'd.example.com',
      ]);
      expect((await run('domains', 'remove', '--tenant', tenant.tenantId, '--domain', 'd.example.com')).json.domains).toEqual(['*.brand.example']);
      // A pasted URL is reduced to its host, and the output says so (issue 23).
      expect((await run('domains', 'add', '--tenant', tenant.tenantId, '--domain', 'https://shop.example.com/return')).json).toMatchObject({
        domain: 'shop.example.com',
        reducedFrom: 'https://shop.example.com/return',
        domains: ['*.brand.example', 'shop.example.com'],
      });
    });

    test('webhooks add prints endpointId and secret once; list hides the secret; remove', async () => {
      const { json: tenant } = await run('tenant', 'create', '--name', 'W', '--domain', 'w.example.com');
      const added = await run(
        'webhooks',
        'add',
        '--tenant',
        tenant.tenantId,
        '--url',
        'https://hooks.example.com/av',
        '--events',
        'session.started,verification.completed',
        '--pair',
        tenant.pairId,
        '--disabled',
      );
      expect(added.exitCode).toBe(0);
      expect(added.json.endpointId).toMatch(/^whe_/);
      expect(added.json.secret).toMatch(/^whsec_/);
      const { json: listed } = await run('webhooks', 'list', '--tenant', tenant.tenantId);
      expect(listed).toEqual([
        expect.objectContaining({
          endpointId: added.json.endpointId,
          url: 'https://hooks.example.com/av',
          events: ['session.started', 'verification.completed'],
          pairId: tenant.pairId,
          enabled: false,
        }),
      ]);
      expect(JSON.stringify(listed)).not.toContain(added.json.secret);
      expect((await run('webhooks', 'remove', '--tenant', tenant.tenantId, '--endpoint', added.json.endpointId)).exitCode).toBe(0);
      expect((await run('webhooks', 'list', '--tenant', tenant.tenantId)).json).toEqual([]);
    });

    test('plan set', async () => {
      const { json: tenant } = await run('tenant', 'create', '--name', 'P', '--domain', 'p.example.com');
      const { json } = await run(
        'plan',
        'set',
        '--tenant',
        tenant.tenantId,
        '--code',
        'pro',
        '--monthly',
        '1000',
        '--sandbox-allowance',
        'unlimited',
        '--portal-url',
        'https://billing.example.com/p',
      );
      expect(json.plan).toEqual({ code: 'pro', active: true, monthlyAllowance: 1000, sandboxAllowance: null, portalUrl: 'https://billing.example.com/p' });
    });

    test('tenant suspend/activate, policy set, rate-limit set', async () => {
      const { json: tenant } = await run('tenant', 'create', '--name', 'Ops', '--domain', 'o.example.com');
      expect((await run('tenant', 'suspend', '--tenant', tenant.tenantId)).json).toEqual({ tenantId: tenant.tenantId, status: 'suspended' });
      expect((await run('tenant', 'activate', '--tenant', tenant.tenantId)).json.status).toBe('active');
      expect((await run('policy', 'set', '--tenant', tenant.tenantId, '--mode', 'L2', '--challenge-age', '30', '--face-match', 'false')).json.policy).toEqual({
        verificationMode: 'L2',
        challengeAge: 30,
        faceMatchEnabled: false,
        legalMinimumAge: 18,
        stepUpAllowed: true,
      });
      expect((await run('policy', 'set', '--tenant', tenant.tenantId, '--step-up', 'false')).json.policy.stepUpAllowed).toBe(false);
      expect((await run('policy', 'set', '--tenant', tenant.tenantId, '--step-up', 'maybe')).stderr).toMatch(/--step-up must be true or false/);
      expect((await run('rate-limit', 'set', '--tenant', tenant.tenantId, '--create', '1000')).json.rateLimits).toEqual({ create: 1000, validate: null });
      expect((await run('rate-limit', 'set', '--tenant', tenant.tenantId, '--create', 'default')).json.rateLimits).toEqual({ create: null, validate: null });
      expect((await run('policy', 'set', '--tenant', tenant.tenantId, '--challenge-age', '18')).stderr).toMatch(
        /challenge age must be a whole number from 25 to 99/,
      );
      expect((await run('rate-limit', 'set', '--tenant', tenant.tenantId, '--validate', '0')).stderr).toMatch(/validate limit must be a whole number from 1/);
    });

    const refusals: [string, string[], RegExp][] = [
      ['unknown tenant', ['keys', 'create', '--tenant', 'ten_nope'], /no tenant with id "ten_nope"/],
      ['missing name', ['tenant', 'create', '--domain', 'x.example.com'], /--name is required/],
      ['bad domain', ['tenant', 'create', '--name', 'X', '--domain', 'ftp://x.example.com/'], /got a ftp: URL/],
      ['owner without password', ['tenant', 'create', '--name', 'X', '--owner', 'a@b.co'], /--owner needs --password/],
      ['unknown command', ['frobnicate'], /unknown command "frobnicate"/],
      ['unknown option', ['keys', 'list', '--tenant', 'x', '--colour', 'red'], /unknown option --colour/],
      ['bad plan number', ['plan', 'set', '--tenant', 'x', '--monthly', '-3'], /--monthly must be a whole number/],
    ];
    for (const [name, argv, message] of refusals) {
      test(`refuses ${name} with exit 1 and a message on stderr`, async () => {
        const result = await run(...argv);
        expect(result.exitCode).toBe(1);
        expect(result.stdout).toBe('');
        expect(result.stderr).toMatch(message);
      });
    }

    test('refuses webhook destinations the rules forbid', async () => {
      const { json: tenant } = await run('tenant', 'create', '--name', 'S', '--domain', 's.example.com');
      const cases: [string, string, RegExp][] = [
        ['https://internal.example.com/x', 'session.started', /resolves to 10\.1\.2\.3 \(private\)/],
        ['http://hooks.example.com/x', 'session.started', /must use https/],
        ['https://169.254.169.254/latest', 'session.started', /linkLocal/],
        ['https://hooks.example.com/x', 'session.begun', /unknown event kind\(s\) session.begun/],
      ];
      for (const [url, events, message] of cases) {
        const result = await run('webhooks', 'add', '--tenant', tenant.tenantId, '--url', url, '--events', events);
        expect(result.exitCode).toBe(1);
        expect(result.stderr).toMatch(message);
      }
      // The operator allowlist (WEBHOOK_ALLOWED_CIDRS) exempts listed ranges.
      const allowed = await runCommand({ ...ctx, guard: { resolver, allowedCidrs: [ipaddr.parseCIDR('10.0.0.0/8')] } }, [
        'webhooks',
        'add',
        '--tenant',
        tenant.tenantId,
        '--url',
        'https://internal.example.com/x',
        '--events',
        'session.started',
      ]);
      expect(allowed.exitCode).toBe(0);
    });

    test('at most 20 endpoints per tenant and 20 events per endpoint', async () => {
      const { json: tenant } = await run('tenant', 'create', '--name', 'L', '--domain', 'l.example.com');
      for (let i = 0; i < 20; i++)
        expect(
          (await run('webhooks', 'add', '--tenant', tenant.tenantId, '--url', `https://hooks.example.com/${i}`, '--events', 'session.started')).exitCode,
        ).toBe(0);
      const twentyFirst = await run('webhooks', 'add', '--tenant', tenant.tenantId, '--url', 'https://hooks.example.com/21', '--events', 'session.started');
      expect(twentyFirst.stderr).toMatch(/already has 20 webhook endpoints, the maximum/);
      const manyEvents = Array.from({ length: 21 }, () => 'session.started').join(',');
      expect((await run('webhooks', 'add', '--tenant', tenant.tenantId, '--url', 'https://hooks.example.com/e', '--events', manyEvents)).stderr).toMatch(
        /at most 20 events, got 21/,
      );
    });
  });
}

describe('parseArgs', () => {
  test('repeated options, inline values and flags', () => {
    const { words, options } = parseArgs(['tenant', 'create', '--domain', 'a.example', '--domain=b.example', '--sandbox', '--name', 'N']);
    expect(words).toEqual(['tenant', 'create']);
    expect(options.get('domain')).toEqual(['a.example', 'b.example']);
    expect(options.get('sandbox')).toEqual(['true']);
  });
  test('a value-taking option without a value is refused', () => expect(() => parseArgs(['keys', 'create', '--tenant'])).toThrow('--tenant needs a value'));
});
