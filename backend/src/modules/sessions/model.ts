/**
 * Request and response schemas of the Sessions API (spec "POST /sessions/create" and
 * "POST /sessions/validate"). Unknown properties are rejected (`additionalProperties: false`).
 * Maximum lengths are ours (the spec leaves them open): documented in docs/api-limits.md.
 */
import { t } from 'elysia';
import { CHALLENGE_AGE_MAX, CHALLENGE_AGE_MIN } from '@ageverify/protocol';

export const LIMITS = {
  url: 2048,
  merchantName: 120,
  externalUserId: 256,
  id: 64,
} as const;

export const createSessionBody = t.Object(
  {
    merchantId: t.Optional(t.String({ minLength: 1, maxLength: LIMITS.id })),
    returnUrl: t.String({ minLength: 1, maxLength: LIMITS.url }),
    cancelUrl: t.Optional(t.String({ minLength: 1, maxLength: LIMITS.url })),
    merchantName: t.Optional(t.String({ minLength: 1, maxLength: LIMITS.merchantName })),
    externalUserId: t.Optional(t.String({ minLength: 1, maxLength: LIMITS.externalUserId })),
    verificationMode: t.Optional(t.Union([t.Literal('L1'), t.Literal('L2')])),
    challengeAge: t.Optional(t.Number({ multipleOf: 1, minimum: CHALLENGE_AGE_MIN, maximum: CHALLENGE_AGE_MAX })),
    faceMatchEnabled: t.Optional(t.Boolean()),
  },
  { additionalProperties: false },
);

export const validateSessionBody = t.Object({ sessionId: t.String({ minLength: 1, maxLength: LIMITS.id }) }, { additionalProperties: false });
