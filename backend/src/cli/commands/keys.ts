/** CLI commands of a tenant's key pairs and allowed domains; their changes are audited with actor "cli". */
import { cliAudit } from '../../modules/audit';
import { addDomain, createKeyPair, listDomains, listKeyPairs, removeDomain, renameKeyPair, requireTenant, revokeKeyPair } from '../../modules/tenants/service';
import { defineCommand } from '../command-table';

const tenant = { type: 'string', required: true, value: 'ID' } as const;

export const KEY_COMMANDS = [
  defineCommand({
    command: 'keys create',
    summary: 'A new key pair (the secret key is shown once).',
    options: { tenant, sandbox: { type: 'flag' }, label: { type: 'string', value: 'TEXT', help: 'a name for the pair, at most 100 characters' } },
    async run({ db, clock }, values) {
      const pair = await createKeyPair(db, clock, values.tenant, values.sandbox, values.label, cliAudit(clock));
      return { pairId: pair.pairId, label: pair.label, publishableKey: pair.publishableKey, secretKey: pair.secretKey, sandbox: pair.sandbox };
    },
  }),
  defineCommand({
    command: 'keys rename',
    summary: "Sets a key pair's label (an empty TEXT removes it).",
    options: { tenant, pair: { type: 'string', required: true, value: 'ID' }, label: { type: 'string', required: true, value: 'TEXT' } },
    async run({ db, clock }, values) {
      const row = await renameKeyPair(db, values.tenant, values.pair, values.label, cliAudit(clock));
      return { pairId: row.id, label: row.label };
    },
  }),
  defineCommand({
    command: 'keys list',
    options: { tenant },
    run: ({ db }, values) => listKeyPairs(db, values.tenant),
  }),
  defineCommand({
    command: 'keys revoke',
    options: {
      tenant,
      pair: { type: 'string', required: true, value: 'ID' },
      'publishable-only': { type: 'flag', help: 'revokes only the publishable key; the secret key still validates' },
    },
    run: ({ db, clock }, values) => revokeKeyPair(db, clock, values.tenant, values.pair, values['publishable-only'] ? 'publishable' : 'pair', cliAudit(clock)),
  }),
  defineCommand({
    command: 'domains add|remove',
    options: { tenant, domain: { type: 'string', required: true, value: 'HOST', help: 'HOST, or *.parent.example for its subdomains' } },
    run: ({ db, clock }, values, verb) =>
      verb === 'add' ? addDomain(db, clock, values.tenant, values.domain, cliAudit(clock)) : removeDomain(db, values.tenant, values.domain, cliAudit(clock)),
  }),
  defineCommand({
    command: 'domains list',
    options: { tenant },
    async run({ db }, values) {
      await requireTenant(db, values.tenant);
      return { tenantId: values.tenant, domains: await listDomains(db, values.tenant) };
    },
  }),
];
