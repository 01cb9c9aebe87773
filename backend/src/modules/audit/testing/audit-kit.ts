/** Test kit of the audit trail: the audit context of changes a test makes to set the scene (actor "system"). */
import { systemAudit, type AuditContext } from '../audit-context';

export const TEST_AUDIT: AuditContext = systemAudit(new Date());
