/**
 * Request and response schemas of the Sessions API (spec "POST /sessions/create" and
 * "POST /sessions/validate"). Unknown properties are rejected (`additionalProperties: false`).
 * Maximum lengths are ours (the spec leaves them open): documented in docs/sessions-api.md.
 */
import { t } from 'elysia';
import { BILLING_BLOCK_CODES, CALLBACK_STATUSES, CHALLENGE_AGE_MAX, CHALLENGE_AGE_MIN, VERIFICATION_MODES } from '@ageverify/protocol';
import { literalUnion } from '../../http/literal-union';

export const LIMITS = {
  url: 2048,
  merchantName: 120,
  externalUserId: 256,
  id: 64,
} as const;

export const createSessionBody = t.Object(
  {
    merchantId: t.Optional(
      t.String({ minLength: 1, maxLength: LIMITS.id, description: "Optional. If sent, must be the key's own account id (ten_…); otherwise 400." }),
    ),
    returnUrl: t.String({
      minLength: 1,
      maxLength: LIMITS.url,
      description: "Where the user returns with sessionId, status and timestamp. https (http only for localhost), on one of the account's allowed domains.",
    }),
    cancelUrl: t.Optional(
      t.String({ minLength: 1, maxLength: LIMITS.url, description: 'Where a cancelled user returns instead of returnUrl. Same rules as returnUrl.' }),
    ),
    merchantName: t.Optional(t.String({ minLength: 1, maxLength: LIMITS.merchantName, description: 'Shown to the user in the verify UI.' })),
    externalUserId: t.Optional(
      t.String({ minLength: 1, maxLength: LIMITS.externalUserId, description: 'Your reference for the user; echoed in the results and events.' }),
    ),
    verificationMode: t.Optional(literalUnion(VERIFICATION_MODES, { description: "L1 face age estimation or L2 ID document. Default: the account's policy." })),
    challengeAge: t.Optional(
      t.Number({
        multipleOf: 1,
        minimum: CHALLENGE_AGE_MIN,
        maximum: CHALLENGE_AGE_MAX,
        description: "The age to prove (whole years). Default: the account's policy.",
      }),
    ),
    faceMatchEnabled: t.Optional(t.Boolean({ description: 'L2: also compare a selfie with the document photo.' })),
  },
  {
    additionalProperties: false,
    examples: [{ returnUrl: 'https://shop.example.com/age-check/return', externalUserId: 'user-42', verificationMode: 'L1', challengeAge: 25 }],
  },
);

export const validateSessionBody = t.Object(
  { sessionId: t.String({ minLength: 1, maxLength: LIMITS.id, description: 'The session to validate. The only allowed property.' }) },
  { additionalProperties: false, examples: [{ sessionId: 'ses_4eC39HqLyjWDarjtT1zdp7' }] },
);

/** Spec "Error body". */
export const errorBodySchema = t.Object(
  {
    statusCode: t.Number({ description: 'HTTP status.' }),
    message: t.Union([t.String(), t.Array(t.String())], { description: 'An array for validation errors with several messages.' }),
    timestamp: t.String({ format: 'date-time', description: 'When the error happened (ISO 8601).' }),
    path: t.String({ description: 'The request path that returned the error.' }),
    error: t.Optional(t.String({ description: 'Status phrase.' })),
    code: t.Optional(t.String({ description: 'Machine-readable code where the spec names one, e.g. SESSION_LAUNCH_CONFIGURATION_UNAVAILABLE.' })),
  },
  {
    description: 'Error body: every error response has this shape.',
    examples: [
      {
        statusCode: 400,
        message: ['property foo should not exist'],
        timestamp: '2026-01-15T12:00:00.000Z',
        path: '/api/v1/sessions/create',
        error: 'Bad Request',
      },
    ],
  },
);

/** Why no check can start (billing); the session is still created and its UI says why. */
export const billingBlock = t.Object({
  code: literalUnion(BILLING_BLOCK_CODES, { description: 'Why billing blocks checks for this account.' }),
  message: t.String({ description: 'User-facing text.' }),
  portalUrl: t.Optional(t.String({ description: 'Billing-portal URL.' })),
});

/** Spec "Session creation result". */
export const createSessionResult = t.Object(
  {
    sessionId: t.String({ description: 'The session (ses_…). The user returns with it; validate it with a secret key.' }),
    sessionToken: t.String({ description: 'Opaque signed token for the verification UI only. Not a JWT; never send it to validate.' }),
    verifyUrl: t.String({ description: 'Complete verification URL. Use exactly as returned; only lang, skip_intro and auto_return may be appended.' }),
    expiresAt: t.String({ format: 'date-time', description: '10 minutes after creation.' }),
    testMode: t.Literal(false, { description: 'Deprecated. Always false.' }),
    sandboxMode: t.Boolean({ description: 'true when a sandbox key created the session: a tester chooses its outcome.' }),
    externalUserId: t.Union([t.String(), t.Null()], { description: 'As sent, or null.' }),
    faceMatchEnabled: t.Boolean({ description: 'Whether L2 also compares a selfie with the document photo.' }),
    handoffToken: t.String({ description: 'Token for the QR / mobile handoff flow.' }),
    billingBlock: t.Optional(t.Object(billingBlock.properties, { description: 'Present when billing blocks checks; the verify UI shows its message.' })),
  },
  {
    examples: [
      {
        sessionId: 'ses_4eC39HqLyjWDarjtT1zdp7',
        sessionToken: 'st_…',
        verifyUrl: 'https://verify.example.com/verify?sessionId=ses_4eC39HqLyjWDarjtT1zdp7&sessionToken=st_…&returnUrl=https%3A%2F%2Fshop.example.com%2Freturn',
        expiresAt: '2026-01-15T12:10:00.000Z',
        testMode: false,
        sandboxMode: false,
        externalUserId: 'user-42',
        faceMatchEnabled: true,
        handoffToken: 'ht_…',
      },
    ],
  },
);

/** Spec "Validation result". */
export const validateSessionResult = t.Object(
  {
    sessionId: t.String({ description: 'The validated session.' }),
    merchantId: t.String({ description: 'Tenant identifier of the session.' }),
    verified: t.Boolean({ description: 'Use it for access decisions.' }),
    accessGranted: t.Boolean({ description: 'Equals verified under the current policy.' }),
    status: literalUnion([...CALLBACK_STATUSES, 'pending'], { description: 'pending: not finished yet (not consumed; ask again).' }),
    verificationMode: literalUnion(VERIFICATION_MODES, { description: 'The mode the session ran with.' }),
    challengeAge: t.Number({ description: 'The age the user had to prove.' }),
    faceMatchEnabled: t.Boolean({ description: 'Whether a selfie was compared with the document photo.' }),
    externalUserId: t.Union([t.String(), t.Null()], { description: 'As sent at creation, or null.' }),
    testMode: t.Literal(false, { description: 'Deprecated. Always false.' }),
    sandboxMode: t.Boolean({ description: 'Additive. true for a sandbox session, whose outcome a tester chose; only sandbox keys can validate it.' }),
    timestamp: t.String({ format: 'date-time', description: 'Time of verification completion.' }),
    expiresAt: t.String({ format: 'date-time', description: '10 minutes after creation.' }),
    receipt: t.Optional(
      t.String({
        description:
          'Additive. The verification receipt of a terminal result: a compact JWS (ES256, typ "ageverify-receipt+jwt") signed by this service over ' +
          'the outcome, the thresholds applied, the checks that ran, the engine version and the completion time, with nothing personal in it. ' +
          'Verify it with the keys at /.well-known/jwks.json (any JOSE library). Absent while the session is pending.',
      }),
    ),
  },
  {
    examples: [
      {
        sessionId: 'ses_4eC39HqLyjWDarjtT1zdp7',
        merchantId: 'ten_8Hf2kLmN0pQrStUvWxYz12',
        verified: true,
        accessGranted: true,
        status: 'verified',
        verificationMode: 'L1',
        challengeAge: 25,
        faceMatchEnabled: true,
        externalUserId: 'user-42',
        testMode: false,
        sandboxMode: false,
        timestamp: '2026-01-15T12:03:12.000Z',
        expiresAt: '2026-01-15T12:10:00.000Z',
      },
    ],
  },
);
