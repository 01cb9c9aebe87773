/** CLI commands of the tenant itself: create, suspend/activate, verification policy, rate limits, plan; audited with actor "cli". */
import { cliAudit } from '../../modules/audit';
import { createTenant, setPlan, setPolicy, setRateLimits, setTenantStatus } from '../../modules/tenants/service';
import { defineCommand } from '../command-table';

const tenant = { type: 'string', required: true, value: 'ID' } as const;

export const TENANT_COMMANDS = [
  defineCommand({
    command: 'tenant create',
    summary: 'Creates a tenant and its first key pair (the secret key is shown once).',
    options: {
      name: { type: 'string', required: true, value: 'NAME' },
      domain: { type: 'list', value: 'HOST', help: 'an allowed domain for returnUrl and cancelUrl; repeat for more' },
      sandbox: { type: 'flag', help: 'the first key pair is a sandbox pair (pk_test_/sk_test_)' },
      owner: { type: 'string', value: 'EMAIL', needs: 'password', help: 'creates the owner user; needs --password' },
      password: { type: 'string', value: 'P', help: "the owner's password (at least 10 characters)" },
    },
    async run({ db, clock }, { name, domain, sandbox, owner, password }) {
      const result = await createTenant(db, clock, {
        name,
        domains: domain ?? [],
        sandbox,
        owner: owner ? { email: owner, password: password! } : undefined,
        audit: cliAudit(clock),
      });
      return {
        tenantId: result.tenantId,
        pairId: result.pairId,
        publishableKey: result.publishableKey,
        secretKey: result.secretKey,
        sandbox: result.sandbox,
        domains: result.domains,
      };
    },
  }),
  defineCommand({
    command: 'tenant suspend|activate',
    summary: "A suspended tenant's keys answer 403.",
    options: { tenant },
    run: ({ db, clock }, values, verb) => setTenantStatus(db, values.tenant, verb === 'suspend' ? 'suspended' : 'active', cliAudit(clock)),
  }),
  defineCommand({
    command: 'policy set',
    summary: "The tenant's verification policy; publishable-key sessions may only tighten it.",
    options: {
      tenant,
      mode: { type: 'choice', choices: ['L1', 'L2'] },
      'challenge-age': { type: 'integer', help: 'from 25 to 99' },
      'face-match': { type: 'boolean' },
      'legal-minimum-age': { type: 'integer', help: 'from 13 to 99' },
      'step-up': { type: 'boolean', help: 'an inconclusive face estimate continues with an ID document' },
    },
    run: ({ db, clock }, values) =>
      setPolicy(
        db,
        values.tenant,
        {
          verificationMode: values.mode,
          challengeAge: values['challenge-age'] ?? undefined,
          faceMatchEnabled: values['face-match'],
          legalMinimumAge: values['legal-minimum-age'] ?? undefined,
          stepUpAllowed: values['step-up'],
        },
        cliAudit(clock),
      ),
  }),
  defineCommand({
    command: 'rate-limit set',
    summary: 'Requests per minute for this tenant; "default" restores the default.',
    options: { tenant, create: { type: 'integer', keyword: 'default' }, validate: { type: 'integer', keyword: 'default' } },
    run: ({ db, clock }, values) => setRateLimits(db, values.tenant, { create: values.create, validate: values.validate }, cliAudit(clock)),
  }),
  defineCommand({
    command: 'plan set',
    summary: 'The billing plan the billing gate checks sessions against.',
    options: {
      tenant,
      code: { type: 'string', value: 'NAME' },
      active: { type: 'boolean' },
      monthly: { type: 'count', keyword: 'unlimited', help: 'live sessions per month' },
      'sandbox-allowance': { type: 'count', keyword: 'unlimited', help: 'sandbox sessions per month' },
      'portal-url': { type: 'string', value: 'URL', help: 'https:// page where the tenant settles billing' },
    },
    run: ({ db, clock }, values) =>
      setPlan(
        db,
        values.tenant,
        {
          code: values.code,
          active: values.active,
          monthlyAllowance: values.monthly,
          sandboxAllowance: values['sandbox-allowance'],
          portalUrl: values['portal-url'],
        },
        cliAudit(clock),
      ),
  }),
];
