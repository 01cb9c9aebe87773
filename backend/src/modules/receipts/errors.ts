/** Error codes of verification receipts (issue 24). */
import { defineErrors } from '../../errors/app-error';

export const RECEIPT_ERRORS = defineErrors({
  RECEIPT_CHAIN_BROKEN: {
    status: 409,
    message: (p: { tenantId: string; seq: number; sessionId: string | null; problem: string }) =>
      `the receipt chain of tenant ${p.tenantId} breaks at receipt ${p.seq}${p.sessionId ? ` (session ${p.sessionId})` : ''}: ${p.problem}`,
  },
});
