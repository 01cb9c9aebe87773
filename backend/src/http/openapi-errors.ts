/**
 * The errors each operation answers, one example each, for the OpenAPI document (openapi.ts).
 * Messages the spec fixes come from protocol ERROR_MESSAGES; the others are the ones the code
 * throws (the tests in openapi.test.ts and the contract tests compare them with real responses).
 */
import { ERROR_CODES, ERROR_MESSAGES } from '@ageverify/protocol';
import { DEFAULT_LIMITS, RATE_LIMIT_WINDOW_SECONDS } from '../modules/rate-limits/rate-limiter';
import { DEFAULT_MAX_BODY_BYTES } from '../config';
import { IDEMPOTENCY_MESSAGES } from '../modules/idempotency/decide';

export interface ErrorExample {
  /** Key of the example in the document. */
  name: string;
  /** When it happens, one sentence. */
  summary: string;
  message: string | string[];
  code?: string;
}

export const EXAMPLE_TIMESTAMP = '2026-01-15T12:00:00.000Z';

export const STATUS_PHRASES: Readonly<Record<number, string>> = {
  400: 'Bad Request',
  401: 'Unauthorized',
  403: 'Forbidden',
  404: 'Not Found',
  405: 'Method Not Allowed',
  409: 'Conflict',
  413: 'Payload Too Large',
  415: 'Unsupported Media Type',
  429: 'Too Many Requests',
  503: 'Service Unavailable',
};

/** Every operation with a JSON body can answer these, before its own rules run. */
export const BODY_ERROR_STATUSES = [413, 415] as const;
export const bodyErrors = (path: string): Readonly<Record<number, ErrorExample[]>> => ({
  413: [
    {
      name: 'bodyTooLarge',
      summary: `The body is larger than MAX_BODY_BYTES (${DEFAULT_MAX_BODY_BYTES} by default).`,
      message: `Request body is larger than ${DEFAULT_MAX_BODY_BYTES} bytes`,
    },
  ],
  415: [
    {
      name: 'notJson',
      summary: 'The body is not sent as application/json (UTF-8).',
      message: `Content-Type must be application/json, got "text/plain" on ${path}`,
    },
  ],
});

const invalidJson: ErrorExample = {
  name: 'validation',
  summary: 'A property is unknown, missing, of the wrong type or too long.',
  message: ['property foo should not exist'],
};
const apiKeyRequired: ErrorExample = {
  name: 'apiKeyRequired',
  summary: 'No key in Authorization: Bearer or x-api-key.',
  message: ERROR_MESSAGES.apiKeyRequired,
};
const invalidKey: ErrorExample = { name: 'invalidKey', summary: 'The key is unknown or revoked.', message: 'Invalid API key' };
const suspended: ErrorExample = { name: 'suspended', summary: 'The account is suspended.', message: 'Insufficient permissions: this account is suspended' };
const verifyLimit: ErrorExample = {
  name: 'rateLimited',
  summary: 'Too many calls for this session in the current window.',
  message: 'Rate limit exceeded for this session; retry in 42 s',
};
const sessionNotFound: ErrorExample = { name: 'notFound', summary: 'No session with this id.', message: ERROR_MESSAGES.sessionNotFound };
const invalidSessionToken: ErrorExample = { name: 'invalidToken', summary: 'The token does not belong to this session.', message: 'Invalid session token' };
const alreadyCompleted: ErrorExample = {
  name: 'completed',
  summary: 'The session has already ended.',
  message: 'Session is already completed (status verified)',
};

const rateLimited = (bucket: keyof typeof DEFAULT_LIMITS): ErrorExample => ({
  name: 'rateLimited',
  summary: `More than the account's limit (${DEFAULT_LIMITS[bucket]} by default) in the current ${RATE_LIMIT_WINDOW_SECONDS} s window.`,
  message: `Rate limit exceeded: ${DEFAULT_LIMITS[bucket]} requests per ${RATE_LIMIT_WINDOW_SECONDS} seconds for this account; retry in 42 s`,
});

/** Per path, per status: the examples. */
export const ERROR_EXAMPLES: Readonly<Record<string, Readonly<Record<number, ErrorExample[]>>>> = {
  '/api/v1/sessions/create': {
    400: [
      invalidJson,
      {
        name: 'domainNotAllowed',
        summary: "returnUrl or cancelUrl is not on one of the account's allowed domains.",
        message: ERROR_MESSAGES.returnUrlDomainNotAllowed,
      },
      { name: 'merchantIdMismatch', summary: 'merchantId names another account than the key.', message: ERROR_MESSAGES.merchantIdMismatch },
      {
        name: 'idempotencyKeyInvalid',
        summary: 'The Idempotency-Key header is empty, too long or not printable ASCII.',
        message: IDEMPOTENCY_MESSAGES.invalidKey,
      },
      { name: 'idempotencyKeyReused', summary: 'The Idempotency-Key was used before with a different request.', message: IDEMPOTENCY_MESSAGES.otherRequest },
    ],
    401: [apiKeyRequired, invalidKey],
    403: [suspended],
    409: [
      { name: 'idempotencyKeyInProgress', summary: 'A request with the same Idempotency-Key has not finished yet.', message: IDEMPOTENCY_MESSAGES.inProgress },
    ],
    429: [rateLimited('create')],
    503: [
      {
        name: 'launchConfigurationUnavailable',
        summary: 'A secret key whose paired publishable key is revoked cannot start a session.',
        message: 'The secret key has no active paired publishable key; create a new key pair or restore it',
        code: ERROR_CODES.launchConfigurationUnavailable,
      },
    ],
  },
  '/api/v1/sessions/validate': {
    400: [invalidJson, { name: 'expired', summary: 'The session expired before it was completed.', message: ERROR_MESSAGES.sessionExpired }],
    401: [apiKeyRequired, invalidKey, { name: 'secretKeyRequired', summary: 'A publishable key cannot validate.', message: ERROR_MESSAGES.privateKeyRequired }],
    403: [
      { name: 'otherTenant', summary: 'The session belongs to another account.', message: ERROR_MESSAGES.sessionOtherTenant },
      { name: 'sandboxSessionLiveKey', summary: 'A live key cannot validate a sandbox session.', message: ERROR_MESSAGES.sandboxSessionLiveKey },
      { name: 'liveSessionSandboxKey', summary: 'A sandbox key cannot validate a live session.', message: ERROR_MESSAGES.liveSessionSandboxKey },
      suspended,
    ],
    404: [sessionNotFound],
    409: [{ name: 'alreadyUsed', summary: 'The terminal result was validated before; it can be validated once.', message: ERROR_MESSAGES.sessionAlreadyUsed }],
    429: [rateLimited('validate')],
  },
  '/api/v1/verify/session': {
    400: [
      { name: 'credentials', summary: 'Neither or both of sessionToken and handoffToken.', message: ['send exactly one of sessionToken or handoffToken'] },
      invalidJson,
    ],
    401: [
      invalidSessionToken,
      { name: 'invalidHandoffToken', summary: 'The handoff token does not belong to this session.', message: 'Invalid handoff token' },
    ],
    404: [sessionNotFound],
    429: [verifyLimit],
  },
  '/api/v1/verify/simulate': {
    400: [{ name: 'outcome', summary: 'outcome is not verified, failed or cancelled.', message: ['outcome must be one of: verified, failed, cancelled'] }],
    401: [invalidSessionToken],
    403: [
      { name: 'liveSession', summary: 'Only sandbox sessions can be simulated.', message: 'Outcomes can only be simulated for sandbox sessions' },
      { name: 'billingBlock', summary: 'Billing blocks this session.', message: 'This session is blocked by billing; no check can start' },
    ],
    404: [sessionNotFound],
    409: [alreadyCompleted],
    429: [verifyLimit],
  },
  '/api/v1/verify/status': {
    400: [{ name: 'sessionTokenRequired', summary: 'Only the sessionToken holder may poll.', message: ['sessionToken is required'] }],
    401: [invalidSessionToken],
    404: [sessionNotFound],
    429: [verifyLimit],
  },
  '/api/v1/verify/checks': {
    400: [
      { name: 'submission', summary: 'A field or part is missing, unknown or malformed.', message: ['check must be one of age_estimation, document'] },
      {
        name: 'faceMatchSelfie',
        summary: 'Face match is on and no selfie was sent with the document.',
        message: ['at least one selfie part is required: this session has face match on'],
      },
      {
        name: 'licenceFront',
        summary: 'Face match is on and a driving licence was sent without its front (the documentFront part).',
        message: ['a documentFront part is required: this session has face match on, and a driving licence shows its portrait on the front'],
      },
      {
        name: 'frontNotLicence',
        summary: 'A documentFront part was sent with a passport or ID card, whose portrait is on the document image.',
        message: ['no documentFront part unless check is document and documentType is driving_licence'],
      },
      {
        name: 'challengeRequired',
        summary: 'Selfie frames were sent without the liveness challenge they answer (challengeId and selfieSteps).',
        message: ['challengeId and selfieSteps are required with selfie parts: ask POST /api/v1/verify/challenges for a liveness challenge first'],
        code: 'CHALLENGE_REQUIRED',
      },
      {
        name: 'imageTooComplex',
        summary: 'An image would take the engine too long to decode: a JPEG with too many scans, or a decode over its time budget.',
        message: ['part selfie is a JPEG with more than 32 scans; send a baseline JPEG, PNG or WebP'],
      },
    ],
    401: [invalidSessionToken],
    403: [{ name: 'billingBlock', summary: 'Billing blocks this session.', message: 'This session is blocked by billing; no check can start' }],
    404: [sessionNotFound],
    409: [
      alreadyCompleted,
      {
        name: 'wrongCheck',
        summary: 'The session expects the other kind of check (e.g. a document after a step-up).',
        message: 'This session expects a document check',
      },
      {
        name: 'checkInProgress',
        summary: 'Another check is running on this session; one check at a time, and its answer comes first.',
        message: 'A check is already running on this session; wait for its answer before sending another',
      },
      {
        name: 'challengeNotCurrent',
        summary: 'The liveness challenge was already used, replaced by a newer one, or never issued: ask for a new one.',
        message: "This liveness challenge is not the session's current one (it was used, replaced or never issued); ask for a new one",
        code: 'CHALLENGE_NOT_CURRENT',
      },
      {
        name: 'challengeExpired',
        summary: 'The liveness challenge expired before the check was sent: ask for a new one.',
        message: 'This liveness challenge has expired; ask for a new one',
        code: 'CHALLENGE_EXPIRED',
      },
    ],
    413: [{ name: 'imageTooLarge', summary: 'An image part or the whole body is over its limit.', message: 'Image part selfie is larger than 4194304 bytes' }],
    415: [
      { name: 'notMultipart', summary: 'The body is not multipart/form-data.', message: 'Content-Type must be multipart/form-data on /api/v1/verify/checks' },
    ],
    429: [verifyLimit],
    503: [
      { name: 'engineBusy', summary: 'The engine queue is full; retry after Retry-After seconds.', message: 'The verification engine is busy; retry shortly' },
      {
        name: 'engineTimeout',
        summary: 'The check ran past the engine time limit; retry after Retry-After seconds.',
        message: 'The verification engine did not finish in time; retry shortly',
      },
    ],
  },
  '/api/v1/verify/challenges': {
    400: [
      { name: 'credentials', summary: 'Neither or both of sessionToken and handoffToken.', message: ['send exactly one of sessionToken or handoffToken'] },
      invalidJson,
    ],
    401: [invalidSessionToken],
    403: [{ name: 'billingBlock', summary: 'Billing blocks this session.', message: 'This session is blocked by billing; no check can start' }],
    404: [sessionNotFound],
    409: [alreadyCompleted, { name: 'sessionExpired', summary: 'The session has expired.', message: 'Session has expired' }],
    429: [verifyLimit],
  },
  '/api/v1/verify/document-instead': {
    400: [
      { name: 'credentials', summary: 'Neither or both of sessionToken and handoffToken.', message: ['send exactly one of sessionToken or handoffToken'] },
      invalidJson,
    ],
    401: [invalidSessionToken],
    403: [
      { name: 'billingBlock', summary: 'Billing blocks this session.', message: 'This session is blocked by billing; no check can start' },
      {
        name: 'stepUpNotAllowed',
        summary: 'The account does not allow step-up, so the face check cannot be left out.',
        message: 'This session cannot continue with a document instead of the face check: its account does not allow step-up',
      },
      {
        name: 'faceMatchOn',
        summary: 'Face match is on: it needs a live selfie, so a device with a camera.',
        message: 'This session has face match on, which needs a selfie from a live camera: continue on a device with a camera',
      },
    ],
    404: [sessionNotFound],
    409: [
      alreadyCompleted,
      { name: 'sessionExpired', summary: 'The session has expired.', message: 'Session has expired' },
      {
        name: 'checkInProgress',
        summary: 'A check is running on this session; its answer comes first.',
        message: 'A check is already running on this session; wait for its answer before sending another',
      },
    ],
    429: [verifyLimit],
  },
  '/api/v1/verify/cancel': {
    400: [{ name: 'sessionTokenRequired', summary: 'Only the sessionToken holder may cancel.', message: ['sessionToken is required'] }],
    401: [invalidSessionToken],
    404: [sessionNotFound],
    409: [alreadyCompleted],
    429: [verifyLimit],
  },
};
