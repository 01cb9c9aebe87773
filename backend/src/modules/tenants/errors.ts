/**
 * Error codes of tenant provisioning (tenants, owners, key pairs, allowed domains, plans, limits,
 * policy). The messages name values, never CLI flags: the CLI rewords the few codes whose words
 * depend on its syntax (cli/cli-wording.ts), the dashboard API answers them as they are.
 */
import { defineErrors } from '../../errors/app-error';

export const TENANT_ERRORS = defineErrors({
  TENANT_NOT_FOUND: { status: 404, message: (p: { tenantId: string }) => `no tenant with id "${p.tenantId}"` },
  TENANT_NAME_INVALID: { status: 400, message: 'tenant name must be 1 to 200 characters' },
  /** tenants/domain-rules.ts says what is wrong with the entry. */
  DOMAIN_INVALID: { status: 400, message: (p: { reason: string }) => p.reason },
  DOMAIN_NOT_FOUND: { status: 404, message: (p: { tenantId: string; domain: string }) => `tenant ${p.tenantId} has no allowed domain "${p.domain}"` },
  OWNER_EMAIL_INVALID: { status: 400, message: (p: { email: string }) => `owner email "${p.email}" is not an email address` },
  OWNER_PASSWORD_TOO_SHORT: { status: 400, message: 'owner password must be at least 10 characters' },
  /** password-strength.ts: zxcvbn's warning and suggestions, then how to make a strong one. */
  PASSWORD_TOO_WEAK: { status: 400, message: (p: { advice: string }) => `password is too easy to guess. ${p.advice}` },
  OWNER_PASSWORD_TOO_LONG: { status: 400, message: (p: { max: number }) => `password must be at most ${p.max} characters` },
  OWNER_EMAIL_TAKEN: { status: 409, message: (p: { email: string }) => `a user with email ${p.email} already exists` },
  KEY_PAIR_NOT_FOUND: { status: 404, message: (p: { tenantId: string; pairId: string }) => `tenant ${p.tenantId} has no key pair "${p.pairId}"` },
  KEY_PAIR_LABEL_TOO_LONG: {
    status: 400,
    message: (p: { max: number; length: number }) => `label must be at most ${p.max} characters after trimming spaces, got ${p.length}`,
  },
  KEY_PAIR_LABEL_INVALID: { status: 400, message: 'label must not contain control characters such as line breaks or tabs' },
  /** `name`: "monthly" or "sandbox"; no allowance (null) means unlimited. */
  ALLOWANCE_INVALID: {
    status: 400,
    message: (p: { name: 'monthly' | 'sandbox'; value: number }) => `${p.name} allowance must be a whole number ≥ 0 (or none for unlimited), got ${p.value}`,
  },
  PORTAL_URL_INVALID: { status: 400, message: (p: { url: string }) => `portal url must be an https:// URL, got "${p.url}"` },
  /** `name`: "create" or "validate"; no limit (null) restores the default. */
  RATE_LIMIT_INVALID: {
    status: 400,
    message: (p: { name: string; value: number }) => `${p.name} limit must be a whole number from 1 to 1000000 (or none for the default), got ${p.value}`,
  },
  CHALLENGE_AGE_INVALID: { status: 400, message: (p: { value: number }) => `challenge age must be a whole number from 25 to 99, got ${p.value}` },
  LEGAL_MINIMUM_AGE_INVALID: { status: 400, message: (p: { value: number }) => `legal minimum age must be a whole number from 13 to 99, got ${p.value}` },
});
