/**
 * Two-factor sign-in (issue 23; docs/dashboard-api.md "Two-factor sign-in", decision 0057): the rule
 * of a tenant's policy, written once for the dashboard API, which enforces it, and the dashboard,
 * which sends a member it holds back to the enrolment screen.
 */
import type { UserRole } from './accounts';
import { can } from './roles';

/**
 * Codes in the error body (`code`) of the two-factor refusals the dashboard acts on, beside their
 * message.
 */
export const TWO_FACTOR_ERROR_CODES = {
  /** 403 on every tenant route: the tenant requires a second factor of this member, who has none yet. */
  required: 'TWO_FACTOR_REQUIRED',
  /** 401: the code is wrong (or a recovery code is unknown or used). */
  codeInvalid: 'TWO_FACTOR_CODE_INVALID',
  /** 401: this TOTP code was accepted once already (RFC 6238 section 5.2); wait for the next one. */
  codeUsed: 'TWO_FACTOR_CODE_USED',
  /** 400: the password typed to turn two-factor sign-in on or off is wrong. */
  passwordWrong: 'TWO_FACTOR_PASSWORD_WRONG',
  /** 401: the sign-in's code step is over (10 minutes passed, or 5 wrong codes): sign in with the password again. */
  challengeEnded: 'TWO_FACTOR_CHALLENGE_ENDED',
} as const;

/**
 * Whether this member must turn on two-factor sign-in before anything else of the tenant: the
 * tenant requires it of members who can manage API keys, this member's role can, and the user has
 * no second factor yet.
 */
export function mustEnrolTwoFactor(input: { role: UserRole; tenantRequiresTwoFactor: boolean; userHasTwoFactor: boolean }): boolean {
  return input.tenantRequiresTwoFactor && can(input.role, 'keys') && !input.userHasTwoFactor;
}

/**
 * A code typed at sign-in: six digits are a code of the authenticator app, anything else is tried as
 * a recovery code (`xxxxx-xxxxx`). Spaces, which apps show in the middle of a code, are dropped.
 */
export function twoFactorCodeKind(typed: string): { kind: 'totp' | 'recovery'; code: string } {
  const compact = typed.replace(/\s+/g, '');
  return /^\d{6}$/.test(compact) ? { kind: 'totp', code: compact } : { kind: 'recovery', code: compact };
}
