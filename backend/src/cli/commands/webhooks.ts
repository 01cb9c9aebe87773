/** CLI commands of webhook endpoints: configuration, test and resume, redelivery, health, attempts, notices; changes audited with actor "cli". */
import { cliAudit } from '../../modules/audit';
import { listNotices } from '../../modules/notifications/dashboard-notices';
import { listEmails } from '../../modules/notifications/email-outbox';
import { requireTenant } from '../../modules/tenants/service';
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
} from '../../modules/webhooks';
import { WEBHOOK_ERRORS } from '../../modules/webhooks/errors';
import { defineCommand } from '../command-table';
import { CLI_ERRORS } from '../errors';

const tenant = { type: 'string', required: true, value: 'ID' } as const;
const endpoint = { type: 'string', required: true, value: 'ID' } as const;
const events = { type: 'csv', value: 'KIND,KIND,…', help: 'event kinds, comma-separated (see "Event kinds" below)' } as const;

export const WEBHOOK_COMMANDS = [
  defineCommand({
    command: 'webhooks add',
    summary: 'A new endpoint; prints its signing secret once.',
    options: {
      tenant,
      url: { type: 'string', required: true, value: 'URL' },
      events: { ...events, required: true },
      pair: { type: 'string', value: 'ID', help: 'only events of sessions created with this key pair' },
      disabled: { type: 'flag' },
    },
    run: ({ db, clock, guard }, values) =>
      addEndpoint(
        db,
        clock,
        guard,
        { tenantId: values.tenant, url: values.url, events: values.events, pairId: values.pair, enabled: !values.disabled },
        cliAudit(clock),
      ),
  }),
  defineCommand({
    command: 'webhooks list',
    options: { tenant },
    run: ({ db }, values) => listEndpoints(db, values.tenant),
  }),
  defineCommand({
    command: 'webhooks remove',
    options: { tenant, endpoint },
    run: ({ db, clock }, values) => removeEndpoint(db, values.tenant, values.endpoint, cliAudit(clock)),
  }),
  defineCommand({
    command: 'webhooks edit',
    options: {
      tenant,
      endpoint,
      url: { type: 'string', value: 'URL' },
      events,
      pair: { type: 'string', value: 'ID|none', help: '"none": events of every key pair' },
    },
    run: ({ db, clock, guard }, values) =>
      updateEndpoint(
        db,
        guard,
        {
          tenantId: values.tenant,
          endpointId: values.endpoint,
          url: values.url,
          events: values.events,
          pairId: values.pair === undefined ? undefined : values.pair === 'none' ? null : values.pair,
        },
        cliAudit(clock),
      ),
  }),
  defineCommand({
    command: 'webhooks enable|disable',
    options: { tenant, endpoint },
    run: ({ db, clock }, values, verb) => setEndpointEnabled(db, clock, values.tenant, values.endpoint, verb === 'enable', cliAudit(clock)),
  }),
  defineCommand({
    command: 'webhooks test',
    summary: 'Sends a signed test event; resumes a paused endpoint on 2xx.',
    options: { tenant, endpoint },
    run: (ctx, values) => testEndpoint(ctx, values.tenant, values.endpoint, cliAudit(ctx.clock)),
  }),
  defineCommand({
    command: 'webhooks redeliver',
    summary: 'Sends again the undelivered events of the last 7 days, in batches of 500.',
    options: { tenant, endpoint },
    run: (ctx, values) => redeliverEndpoint(ctx, values.tenant, values.endpoint),
  }),
  defineCommand({
    command: 'webhooks health',
    options: { tenant, endpoint: { type: 'string', value: 'ID' } },
    async run({ db, clock }, values) {
      await requireTenant(db, values.tenant);
      const health = await endpointHealth(db, clock.now(), values.tenant, values.endpoint);
      if (values.endpoint && health.length === 0) throw WEBHOOK_ERRORS.ENDPOINT_NOT_FOUND({ tenantId: values.tenant, endpointId: values.endpoint });
      return health;
    },
  }),
  defineCommand({
    command: 'webhooks attempts',
    summary: 'Give one of --event or --endpoint.',
    options: {
      tenant,
      event: { type: 'string', value: 'ID', help: 'the attempts of one event' },
      endpoint: { type: 'string', value: 'ID', help: 'the latest attempts to one endpoint' },
    },
    async run({ db }, values) {
      await requireTenant(db, values.tenant);
      if (values.event) {
        const found = await eventAttempts(db, values.tenant, values.event);
        if (!found) throw WEBHOOK_ERRORS.EVENT_NOT_FOUND({ tenantId: values.tenant, eventId: values.event });
        return found;
      }
      if (!values.endpoint)
        throw CLI_ERRORS.ONE_OF_OPTIONS_REQUIRED({ hint: '--event ID (attempts of one event) or --endpoint ID (latest attempts to one endpoint)' });
      return recentAttempts(db, values.tenant, values.endpoint);
    },
  }),
  defineCommand({
    command: 'webhooks notices',
    summary: 'Dashboard notices and the email outbox.',
    options: { tenant },
    async run({ db }, values) {
      await requireTenant(db, values.tenant);
      return { notices: await listNotices(db, values.tenant, { includeResolved: true }), emails: await listEmails(db, values.tenant) };
    },
  }),
  defineCommand({
    command: 'webhooks legacy-set',
    summary: 'The legacy single webhook, before any endpoint exists.',
    options: {
      tenant,
      url: { type: 'string', required: true, value: 'URL' },
      events: { ...events, required: true },
      secret: { type: 'string', required: true, value: 'S' },
    },
    run: ({ db, clock, guard }, values) =>
      setLegacyWebhook(db, guard, { tenantId: values.tenant, url: values.url, secret: values.secret, events: values.events }, cliAudit(clock)),
  }),
];
