/** CLI commands of verification receipts (issue 24): key rotation and the tenant's chain check. */
import { requireTenant } from '../../modules/tenants/service';
import { RECEIPT_ERRORS } from '../../modules/receipts/errors';
import { verifyTenantReceipts } from '../../modules/receipts/service';
import { rotateSigningKey } from '../../modules/receipts/signing-keys';
import { defineCommand } from '../command-table';

export const RECEIPT_COMMANDS = [
  defineCommand({
    command: 'receipts rotate-key',
    summary: 'Retires the receipt signing key and makes a new one (old public keys stay published).',
    options: {},
    async run({ db, clock, serverSecret }) {
      if (!serverSecret) throw new Error('receipts rotate-key needs the server secret');
      const kid = await rotateSigningKey(db, await serverSecret(), clock.now());
      return { activeKid: kid };
    },
  }),
  defineCommand({
    command: 'receipts verify',
    summary: "Walks a tenant's receipt chain: each signature, each link; reports the first break.",
    options: { tenant: { type: 'string', required: true, value: 'ID' } },
    async run({ db, publicBaseUrl }, values) {
      await requireTenant(db, values.tenant);
      const report = await verifyTenantReceipts({ db, publicBaseUrl }, values.tenant);
      if (report.firstBreak) throw RECEIPT_ERRORS.RECEIPT_CHAIN_BROKEN({ tenantId: values.tenant, ...report.firstBreak });
      return { tenantId: values.tenant, receipts: report.receipts, intact: true };
    },
  }),
];
