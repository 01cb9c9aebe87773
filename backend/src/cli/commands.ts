/**
 * The provisioning commands (the operator's way to set up tenants without the dashboard).
 * `runCommand` takes argv and a database and returns what to print: the same function runs in the
 * CLI process and, when the embedded database is held by a running server, inside that server
 * (cli/server-bridge.ts), so both paths behave identically.
 */
import { EVENT_KINDS } from '@ageverify/protocol';
import type { Clock } from '../clock';
import type { Db } from '../db/database';
import { AppError } from '../errors/app-error';
import { WEBHOOK_ERRORS } from '../modules/webhooks/errors';
import { cliMessage } from './cli-wording';
import { CLI_ERRORS } from './errors';
import { addDomain, createKeyPair, createTenant, listDomains, listKeyPairs, removeDomain, requireTenant, revokeKeyPair, setPlan, setPolicy, setRateLimits, setTenantStatus } from '../modules/tenants/service';
import {
  addEndpoint,
  endpointHealth,
  eventAttempts,
  listEndpoints,
  recentAttempts,
  redeliverEndpoint,
  removeEndpoint,
  setEndpointEnabled,
  setLegacyWebhook,
  testEndpoint,
  updateEndpoint,
  type GuardOptions,
} from '../modules/webhooks';
import { listNotices } from '../modules/notifications/dashboard-notices';
import { listEmails } from '../modules/notifications/email-outbox';

export interface CommandContext {
  db: Db;
  clock: Clock;
  guard: GuardOptions;
}

export interface CommandResult {
  exitCode: number;
  stdout: string;
  stderr: string;
}

export const USAGE = `Usage: bun run cli <command> [options]   (prints JSON; exits non-zero with a message on stderr when refused)

  tenant create --name NAME --domain HOST [--domain HOST…] [--sandbox] [--owner EMAIL --password P]
  keys create   --tenant ID [--sandbox]
  keys list     --tenant ID
  keys revoke   --tenant ID --pair ID [--publishable-only]
  domains add|remove --tenant ID --domain HOST      (HOST or *.parent.example for subdomains)
  domains list  --tenant ID
  webhooks add  --tenant ID --url URL --events KIND,KIND,… [--pair ID] [--disabled]
  webhooks list --tenant ID
  webhooks remove --tenant ID --endpoint ID
  webhooks edit --tenant ID --endpoint ID [--url URL] [--events KIND,…] [--pair ID|none]
  webhooks enable|disable --tenant ID --endpoint ID
  webhooks test --tenant ID --endpoint ID           (sends a signed test event; resumes a paused endpoint on 2xx)
  webhooks redeliver --tenant ID --endpoint ID      (undelivered events of the last 7 days, batches of 500)
  webhooks health --tenant ID [--endpoint ID]
  webhooks attempts --tenant ID (--event ID | --endpoint ID)
  webhooks notices --tenant ID                      (dashboard notices and the email outbox)
  webhooks legacy-set --tenant ID --url URL --events KIND,… --secret S   (legacy single webhook, before any endpoint)
  tenant suspend|activate --tenant ID
  policy set    --tenant ID [--mode L1|L2] [--challenge-age N] [--face-match true|false] [--legal-minimum-age N]
  rate-limit set --tenant ID [--create N|default] [--validate N|default]
  plan set      --tenant ID [--code NAME] [--active true|false] [--monthly N|unlimited] [--sandbox-allowance N|unlimited] [--portal-url URL]

Event kinds: ${EVENT_KINDS.join(', ')}
Database: DATABASE_URL (PostgreSQL) or the embedded DATA_DIR (default ./.data).`;

const FLAGS = new Set(['sandbox', 'disabled', 'publishable-only', 'help']);

export function parseArgs(argv: string[]): { words: string[]; options: Map<string, string[]> } {
  const words: string[] = [];
  const options = new Map<string, string[]>();
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i]!;
    if (!arg.startsWith('--')) {
      words.push(arg);
      continue;
    }
    const [name, inline] = arg.slice(2).split(/=(.*)/s, 2) as [string, string | undefined];
    let value: string;
    if (inline !== undefined) value = inline;
    else if (FLAGS.has(name)) value = 'true';
    else {
      const next = argv[i + 1];
      if (next === undefined || next.startsWith('--')) throw CLI_ERRORS.OPTION_NEEDS_VALUE({ option: name });
      value = next;
      i++;
    }
    options.set(name, [...(options.get(name) ?? []), value]);
  }
  return { words, options };
}

export async function runCommand(ctx: CommandContext, argv: string[]): Promise<CommandResult> {
  try {
    const output = await dispatch(ctx, argv);
    return { exitCode: 0, stdout: `${JSON.stringify(output, null, 2)}\n`, stderr: '' };
  } catch (error) {
    // A refusal (bad input, unknown tenant, forbidden destination) exits 1; anything else is a failure.
    if (error instanceof AppError && error.status < 500) return { exitCode: 1, stdout: '', stderr: `error: ${cliMessage(error)}\n` };
    return { exitCode: 2, stdout: '', stderr: `error: ${(error as Error).message}\n` };
  }
}

async function dispatch(ctx: CommandContext, argv: string[]): Promise<unknown> {
  const { words, options } = parseArgs(argv);
  const one = (name: string): string | undefined => options.get(name)?.at(-1);
  const required = (name: string): string => {
    const value = one(name);
    if (!value) throw CLI_ERRORS.OPTION_REQUIRED({ option: name });
    return value;
  };
  const flag = (name: string) => one(name) === 'true';
  const known = (...names: string[]) => {
    for (const name of options.keys()) if (!names.includes(name)) throw CLI_ERRORS.UNKNOWN_OPTION({ option: name, command: words.join(' ') });
  };
  const { db, clock } = ctx;
  const command = words.join(' ');

  switch (command) {
    case 'tenant create': {
      known('name', 'domain', 'sandbox', 'owner', 'password');
      const owner = one('owner');
      if (owner && !one('password')) throw CLI_ERRORS.OPTION_NEEDS_OPTION({ option: 'owner', needs: 'password' });
      const result = await createTenant(db, clock, {
        name: required('name'),
        domains: options.get('domain') ?? [],
        sandbox: flag('sandbox'),
        owner: owner ? { email: owner, password: required('password') } : undefined,
      });
      return { tenantId: result.tenantId, pairId: result.pairId, publishableKey: result.publishableKey, secretKey: result.secretKey, sandbox: result.sandbox, domains: result.domains };
    }
    case 'keys create': {
      known('tenant', 'sandbox');
      const pair = await createKeyPair(db, clock, required('tenant'), flag('sandbox'));
      return { pairId: pair.pairId, publishableKey: pair.publishableKey, secretKey: pair.secretKey, sandbox: pair.sandbox };
    }
    case 'keys list':
      known('tenant');
      return listKeyPairs(db, required('tenant'));
    case 'keys revoke':
      known('tenant', 'pair', 'publishable-only');
      return revokeKeyPair(db, clock, required('tenant'), required('pair'), flag('publishable-only') ? 'publishable' : 'pair');
    case 'domains add':
      known('tenant', 'domain');
      return addDomain(db, clock, required('tenant'), required('domain'));
    case 'domains remove':
      known('tenant', 'domain');
      return removeDomain(db, required('tenant'), required('domain'));
    case 'domains list': {
      known('tenant');
      const tenantId = required('tenant');
      await requireTenant(db, tenantId);
      return { tenantId, domains: await listDomains(db, tenantId) };
    }
    case 'webhooks add': {
      known('tenant', 'url', 'events', 'pair', 'disabled');
      const events = required('events').split(',').map((kind) => kind.trim()).filter(Boolean);
      return addEndpoint(db, clock, ctx.guard, {
        tenantId: required('tenant'),
        url: required('url'),
        events,
        pairId: one('pair'),
        enabled: !flag('disabled'),
      });
    }
    case 'webhooks list':
      known('tenant');
      return listEndpoints(db, required('tenant'));
    case 'webhooks remove':
      known('tenant', 'endpoint');
      return removeEndpoint(db, required('tenant'), required('endpoint'));
    case 'webhooks edit': {
      known('tenant', 'endpoint', 'url', 'events', 'pair');
      const pair = one('pair');
      return updateEndpoint(db, ctx.guard, {
        tenantId: required('tenant'),
        endpointId: required('endpoint'),
        url: one('url'),
        events: one('events')?.split(',').map((kind) => kind.trim()).filter(Boolean),
        pairId: pair === undefined ? undefined : pair === 'none' ? null : pair,
      });
    }
    case 'webhooks enable':
    case 'webhooks disable':
      known('tenant', 'endpoint');
      return setEndpointEnabled(db, clock, required('tenant'), required('endpoint'), command === 'webhooks enable');
    case 'webhooks test':
      known('tenant', 'endpoint');
      return testEndpoint({ db, clock, guard: ctx.guard }, required('tenant'), required('endpoint'));
    case 'webhooks redeliver':
      known('tenant', 'endpoint');
      return redeliverEndpoint({ db, clock, guard: ctx.guard }, required('tenant'), required('endpoint'));
    case 'webhooks health': {
      known('tenant', 'endpoint');
      const tenantId = required('tenant');
      await requireTenant(db, tenantId);
      const health = await endpointHealth(db, clock.now(), tenantId, one('endpoint'));
      if (one('endpoint') && health.length === 0) throw WEBHOOK_ERRORS.ENDPOINT_NOT_FOUND({ tenantId, endpointId: one('endpoint')! });
      return health;
    }
    case 'webhooks attempts': {
      known('tenant', 'event', 'endpoint');
      const tenantId = required('tenant');
      await requireTenant(db, tenantId);
      const eventId = one('event');
      if (eventId) {
        const found = await eventAttempts(db, tenantId, eventId);
        if (!found) throw WEBHOOK_ERRORS.EVENT_NOT_FOUND({ tenantId, eventId });
        return found;
      }
      const endpointId = one('endpoint');
      if (!endpointId) throw CLI_ERRORS.ONE_OF_OPTIONS_REQUIRED({ hint: '--event ID (attempts of one event) or --endpoint ID (latest attempts to one endpoint)' });
      return recentAttempts(db, tenantId, endpointId);
    }
    case 'webhooks notices': {
      known('tenant');
      const tenantId = required('tenant');
      await requireTenant(db, tenantId);
      return { notices: await listNotices(db, tenantId, { includeResolved: true }), emails: await listEmails(db, tenantId) };
    }
    case 'webhooks legacy-set': {
      known('tenant', 'url', 'events', 'secret');
      return setLegacyWebhook(db, ctx.guard, {
        tenantId: required('tenant'),
        url: required('url'),
        secret: required('secret'),
        events: required('events').split(',').map((kind) => kind.trim()).filter(Boolean),
      });
    }
    case 'tenant suspend':
    case 'tenant activate':
      known('tenant');
      return setTenantStatus(db, required('tenant'), command === 'tenant suspend' ? 'suspended' : 'active');
    case 'policy set': {
      known('tenant', 'mode', 'challenge-age', 'face-match', 'legal-minimum-age');
      const mode = one('mode');
      if (mode !== undefined && mode !== 'L1' && mode !== 'L2') throw CLI_ERRORS.INVALID_CHOICE({ option: 'mode', choices: ['L1', 'L2'], value: mode });
      const faceMatch = one('face-match');
      if (faceMatch !== undefined && faceMatch !== 'true' && faceMatch !== 'false') throw CLI_ERRORS.INVALID_CHOICE({ option: 'face-match', choices: ['true', 'false'], value: faceMatch });
      return setPolicy(db, required('tenant'), {
        verificationMode: mode as 'L1' | 'L2' | undefined,
        challengeAge: numberOption('challenge-age', one('challenge-age')),
        faceMatchEnabled: faceMatch === undefined ? undefined : faceMatch === 'true',
        legalMinimumAge: numberOption('legal-minimum-age', one('legal-minimum-age')),
      });
    }
    case 'rate-limit set': {
      known('tenant', 'create', 'validate');
      const limit = (name: string) => {
        const raw = one(name);
        return raw === 'default' ? null : numberOption(name, raw);
      };
      return setRateLimits(db, required('tenant'), { create: limit('create'), validate: limit('validate') });
    }
    case 'plan set': {
      known('tenant', 'code', 'active', 'monthly', 'sandbox-allowance', 'portal-url');
      const active = one('active');
      if (active !== undefined && active !== 'true' && active !== 'false') throw CLI_ERRORS.INVALID_CHOICE({ option: 'active', choices: ['true', 'false'], value: active });
      return setPlan(db, required('tenant'), {
        code: one('code'),
        active: active === undefined ? undefined : active === 'true',
        monthlyAllowance: allowance('monthly', one('monthly')),
        sandboxAllowance: allowance('sandbox-allowance', one('sandbox-allowance')),
        portalUrl: one('portal-url'),
      });
    }
    default:
      throw command ? CLI_ERRORS.UNKNOWN_COMMAND({ command, usage: USAGE }) : CLI_ERRORS.COMMAND_REQUIRED({ usage: USAGE });
  }
}

function numberOption(name: string, raw: string | undefined): number | undefined {
  if (raw === undefined) return undefined;
  const value = Number(raw);
  if (!Number.isInteger(value)) throw CLI_ERRORS.NOT_A_WHOLE_NUMBER({ option: name, value: raw });
  return value;
}

function allowance(name: string, raw: string | undefined): number | null | undefined {
  if (raw === undefined) return undefined;
  if (raw === 'unlimited') return null;
  const value = Number(raw);
  if (!Number.isInteger(value) || value < 0) throw CLI_ERRORS.NOT_A_WHOLE_NUMBER({ option: name, value: raw, or: 'unlimited' });
  return value;
}
