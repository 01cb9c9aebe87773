/**
 * Refusals of the dashboard API (issue 12; docs/dashboard-api.md). A tenant the caller
 * is not a member of answers exactly like a tenant that does not exist (404), so the dashboard never
 * reveals another tenant.
 */
import { CROSS_SITE_REFUSED_MESSAGE } from '@ageverify/protocol';
import { defineErrors } from '../../errors/app-error';

export const DASHBOARD_ERRORS = defineErrors({
  NOT_SIGNED_IN: { status: 401, message: 'Sign in to use the dashboard' },
  ROLE_FORBIDDEN: { status: 403, message: (p: { role: string; action: string }) => `Your role (${p.role}) cannot ${p.action}` },
  /** "Try it" by a role that may not make the sandbox key pair it needs (key management is owner/admin). */
  TRY_IT_NEEDS_SANDBOX_KEYS: {
    status: 403,
    message: (p: { role: string }) =>
      `Your role (${p.role}) cannot create API keys, and this tenant has no active sandbox key pair for "Try it"; ask an owner or admin to create one`,
  },
  /** CSRF: a state-changing request without our Origin, or (ours) without a JSON body. */
  CROSS_SITE_REFUSED: { status: 403, message: CROSS_SITE_REFUSED_MESSAGE },
  SETUP_TOKEN_INVALID: { status: 403, message: 'the setup token is wrong or was already used; restart the server for a new setup link' },
  SETUP_ALREADY_DONE: { status: 409, message: 'a tenant already exists; sign in instead' },
  SIGNUP_DISABLED: { status: 404, message: 'sign-up is not enabled on this server; ask the operator for an account' },
  SIGN_IN_RATE_LIMITED: {
    status: 429,
    message: (p: { retryAfterSeconds: number }) => `too many failed sign-ins; try again in ${Math.ceil(p.retryAfterSeconds / 60)} minute(s)`,
  },
  SIGNUP_RATE_LIMITED: {
    status: 429,
    message: (p: { retryAfterSeconds: number }) => `too many new accounts from this address; try again in ${Math.ceil(p.retryAfterSeconds / 60)} minute(s)`,
  },
  /** Finding 9 of issue 22: the emailed sign-up link, wrong, used or expired alike. */
  SIGNUP_LINK_INVALID: {
    status: 404,
    message: 'this sign-up link is not valid: it was used, mistyped or has expired (links work for 24 hours); sign up again',
  },
  SIGNUP_PASSWORD_MISMATCH: { status: 403, message: 'this is not the password chosen at sign-up; type that one (or sign up again)' },
  SIGNUP_ALREADY_FINISHED: { status: 409, message: 'this email has a user now; sign in instead' },
  INVITATION_NOT_FOUND: { status: 404, message: (p: { invitationId: string }) => `no open invitation "${p.invitationId}"` },
  /** Finding 1 of issue 22: the link's secret, never the id, names the invitation; no id in the message. */
  INVITATION_LINK_INVALID: {
    status: 404,
    message: 'this invitation link is not valid: it was used, cancelled or replaced by a newer email; ask for a new one',
  },
  INVITATION_EXPIRED: { status: 410, message: 'this invitation has expired; ask for a new one' },
  INVITATION_OTHER_ACCOUNT: { status: 403, message: (p: { email: string }) => `this invitation is for ${p.email}; sign out and accept it as that user` },
  INVITATION_NEEDS_SIGN_IN: { status: 409, message: (p: { email: string }) => `an account for ${p.email} exists; sign in as that user, then accept` },
  INVITATION_NEEDS_PASSWORD: { status: 400, message: 'password is required to create your account' },
  ALREADY_MEMBER: { status: 409, message: (p: { email: string }) => `${p.email} is already a member of this tenant` },
  USER_NOT_FOUND: { status: 404, message: (p: { email: string }) => `no dashboard user with the email address "${p.email}"` },
  MEMBER_NOT_FOUND: { status: 404, message: (p: { userId: string }) => `no member "${p.userId}" in this tenant` },
  LAST_OWNER: { status: 409, message: 'the last owner can be neither removed nor demoted; make another member owner first' },
  CURSOR_INVALID: { status: 400, message: 'cursor is not one this API returned' },
  EXPORT_RANGE_INVALID: {
    status: 400,
    message: (p: { maxDays: number }) => `from and to must be dates (YYYY-MM-DD), from no later than to, at most ${p.maxDays} days apart`,
  },
  EXPORT_TOO_LARGE: {
    status: 400,
    message: (p: { count: number; max: number }) => `the range holds ${p.count} sessions; an export holds at most ${p.max}: choose a shorter range`,
  },
  /** better-auth refused (its status and words, e.g. a wrong current password); the status is better-auth's. */
  AUTH_REFUSED: { status: 400, message: (p: { reason: string }) => p.reason },
  // Two-factor sign-in (issue 23, decision 0057). The codes the dashboard acts on are in the body
  // (protocol TWO_FACTOR_ERROR_CODES); the key of each entry is that code.
  TWO_FACTOR_REQUIRED: {
    status: 403,
    exposeCode: true,
    message: (p: { role: string }) =>
      `this tenant requires two-factor sign-in of members who can manage API keys, as your role (${p.role}) can: turn on two-factor sign-in under Your account first`,
  },
  TWO_FACTOR_CODE_INVALID: {
    status: 401,
    exposeCode: true,
    message: 'the code is wrong: type the 6-digit code your authenticator app shows now, or one of your unused recovery codes',
  },
  TWO_FACTOR_CODE_USED: { status: 401, exposeCode: true, message: 'this code was used already; wait for the next code of your authenticator app' },
  TWO_FACTOR_CHALLENGE_ENDED: {
    status: 401,
    exposeCode: true,
    message: 'the code step of this sign-in has ended (after 10 minutes, or 5 wrong codes); sign in with your password again',
  },
  TWO_FACTOR_PASSWORD_WRONG: { status: 400, exposeCode: true, message: 'the password is wrong' },
  TWO_FACTOR_CODE_MALFORMED: {
    status: 400,
    message: 'code must be text of at most 64 characters: the 6 digits of your authenticator app, or a recovery code',
  },
  TWO_FACTOR_LOCKED: {
    status: 429,
    message: (p: { retryAfterSeconds: number }) => `too many wrong codes for this user; try again in ${Math.ceil(p.retryAfterSeconds / 60)} minute(s)`,
  },
  TWO_FACTOR_POLICY_NEEDS_OWN: {
    status: 409,
    message: 'turn on two-factor sign-in for your own user first (under Your account): requiring it while you have none would hold you back too',
  },
  /** A better-auth endpoint the dashboard does not use (issue 22, findings 4 and 10). */
  AUTH_ROUTE_NOT_FOUND: { status: 404, message: 'no such dashboard endpoint' },
});
