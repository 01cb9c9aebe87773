/**
 * The shortest password the service accepts (backend/src/modules/tenants/accounts.ts,
 * MIN_PASSWORD_LENGTH). Checked here only to answer before a round trip; the service decides.
 */
export const MIN_PASSWORD_LENGTH = 10;
