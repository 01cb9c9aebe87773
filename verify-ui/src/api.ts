import {
  CHALLENGE_MOVES,
  SESSION_STATES,
  VERIFICATION_MODES,
  CALLBACK_STATUSES,
  type LivenessChallenge,
  type SessionStatusResult,
  type SimulateRequest,
  type SimulateResult,
  type VerifyCredentials,
  type VerifySessionView,
} from '@ageverify/protocol';

/**
 * Client for the verify UI's own API (protocol/src/verify.ts). Expected failures (a bad token, an
 * unknown session, the network) are returned as values, not thrown, so every caller has to decide
 * what the user sees for each of them.
 */
export type ApiFailure =
  /**
   * The server answered with the spec's error body (or at least an error status). On a 429,
   * `retryAfterMs` comes from `X-RateLimit-Retry-After` (spec "Limits") when the server sent it.
   * `code`: the body's machine-readable code, where the server sends one (the liveness challenge's
   * refusals, protocol/src/liveness.ts CHALLENGE_ERROR_CODES, which the page acts on).
   */
  | { kind: 'http'; status: number; message: string | null; retryAfterMs?: number; code?: string }
  /** No answer: offline, DNS, the server down, or our timeout. */
  | { kind: 'network' }
  /** A 2xx whose body is not what the protocol promises. */
  | { kind: 'invalid-response'; status: number };

export type ApiResult<T> = { ok: true; value: T } | { ok: false; failure: ApiFailure };

/** Default base path (spec "Versioning": the version is in the path prefix). */
const DEFAULT_API_BASE = '/api/v1';

/** A hanging request must end in a visible error with a retry, not an endless spinner. */
const REQUEST_TIMEOUT_MS = 15_000;

/**
 * The backend serves this page and its API on one origin, so the default is a path. An operator
 * who serves the page elsewhere (docs/decisions-on-open-points.md "Verify UI address") can point the UI at the API
 * with `<meta name="ageverify-api-base" content="https://api.example.com/api/v1">`.
 */
export function apiBase(): string {
  const configured = document.querySelector<HTMLMetaElement>('meta[name="ageverify-api-base"]')?.content.trim();
  return (configured || DEFAULT_API_BASE).replace(/\/+$/, '');
}

/** Reads the spec's error body; `message` may be an array of validation messages. */
export function errorMessageOf(body: unknown): string | null {
  if (typeof body !== 'object' || body === null || !('message' in body)) return null;
  const { message } = body;
  if (typeof message === 'string') return message || null;
  if (Array.isArray(message)) {
    const parts = message.filter((part): part is string => typeof part === 'string' && part.length > 0);
    return parts.length > 0 ? parts.join('; ') : null;
  }
  return null;
}

/** The error body's `code` (protocol/src/errors.ts ErrorBody), when it carries one. */
export function errorCodeOf(body: unknown): string | undefined {
  return isRecord(body) && typeof body.code === 'string' && body.code.length > 0 ? body.code : undefined;
}

/** An `http` failure from a refusal's status, body and headers (postJson and the check submission). */
export function httpFailure(status: number, body: unknown, headers: Pick<Headers, 'get'>): ApiFailure {
  const failure: Extract<ApiFailure, { kind: 'http' }> = { kind: 'http', status, message: errorMessageOf(body) };
  const code = errorCodeOf(body);
  if (code !== undefined) failure.code = code;
  const retryAfterMs = status === 429 ? retryAfterMsOf(headers) : undefined;
  if (retryAfterMs !== undefined) failure.retryAfterMs = retryAfterMs;
  return failure;
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null;
}

function includes<T extends string>(list: readonly T[], value: unknown): value is T {
  return typeof value === 'string' && (list as readonly string[]).includes(value);
}

export function isVerifySessionView(value: unknown): value is VerifySessionView {
  if (!isRecord(value)) return false;
  const block = value.billingBlock;
  return (
    typeof value.sessionId === 'string' &&
    includes(SESSION_STATES, value.state) &&
    (value.merchantName === null || typeof value.merchantName === 'string') &&
    includes(VERIFICATION_MODES, value.verificationMode) &&
    typeof value.challengeAge === 'number' &&
    typeof value.legalMinimumAge === 'number' &&
    typeof value.faceMatchEnabled === 'boolean' &&
    typeof value.sandboxMode === 'boolean' &&
    typeof value.expiresAt === 'string' &&
    (block === null || (isRecord(block) && typeof block.message === 'string')) &&
    (value.redirectUrl === null || typeof value.redirectUrl === 'string') &&
    (value.handoffUrl === null || typeof value.handoffUrl === 'string') &&
    typeof value.handoff === 'boolean'
  );
}

export function isSessionStatusResult(value: unknown): value is SessionStatusResult {
  return (
    isRecord(value) &&
    includes(SESSION_STATES, value.state) &&
    (value.status === null || includes(CALLBACK_STATUSES, value.status)) &&
    (value.redirectUrl === null || typeof value.redirectUrl === 'string')
  );
}

/** Seconds in `X-RateLimit-Retry-After` (or the standard `Retry-After`) as milliseconds, if usable. */
export function retryAfterMsOf(headers: Pick<Headers, 'get'>): number | undefined {
  const raw = headers.get('x-ratelimit-retry-after') ?? headers.get('retry-after');
  const seconds = raw === null || raw.trim() === '' ? NaN : Number(raw);
  return Number.isFinite(seconds) && seconds >= 0 ? Math.ceil(seconds * 1000) : undefined;
}

export function isLivenessChallenge(value: unknown): value is LivenessChallenge {
  return (
    isRecord(value) &&
    typeof value.challengeId === 'string' &&
    value.challengeId.length > 0 &&
    Array.isArray(value.moves) &&
    value.moves.length > 0 &&
    value.moves.every((move) => includes(CHALLENGE_MOVES, move)) &&
    typeof value.expiresAt === 'string' &&
    !Number.isNaN(Date.parse(value.expiresAt))
  );
}

export function isSimulateResult(value: unknown): value is SimulateResult {
  return isRecord(value) && typeof value.redirectUrl === 'string' && includes(CALLBACK_STATUSES, value.status);
}

async function postJson<T>(path: string, body: unknown, isExpected: (value: unknown) => value is T): Promise<ApiResult<T>> {
  const controller = new AbortController();
  const timer = setTimeout(() => controller.abort(), REQUEST_TIMEOUT_MS);
  let response: Response;
  try {
    response = await fetch(`${apiBase()}${path}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', accept: 'application/json' },
      body: JSON.stringify(body),
      // The session token travels in the body; no cookies are needed or wanted.
      credentials: 'omit',
      cache: 'no-store',
      signal: controller.signal,
    });
  } catch {
    clearTimeout(timer);
    return { ok: false, failure: { kind: 'network' } };
  }
  let parsed: unknown = null;
  try {
    parsed = await response.json();
  } catch {
    // An empty or non-JSON body: handled below by status.
  } finally {
    clearTimeout(timer);
  }
  if (!response.ok) return { ok: false, failure: httpFailure(response.status, parsed, response.headers) };
  if (!isExpected(parsed)) return { ok: false, failure: { kind: 'invalid-response', status: response.status } };
  return { ok: true, value: parsed };
}

/**
 * The request body for exactly one token: `{sessionId, sessionToken}` on the desktop or
 * `{sessionId, handoffToken}` on the phone. Built field by field, so nothing else rides along.
 */
export function credentialBody(credentials: VerifyCredentials): VerifyCredentials {
  return 'sessionToken' in credentials
    ? { sessionId: credentials.sessionId, sessionToken: credentials.sessionToken }
    : { sessionId: credentials.sessionId, handoffToken: credentials.handoffToken };
}

/** POST /verify/session: the authenticated session configuration the UI displays and obeys. */
export function fetchSessionView(credentials: VerifyCredentials): Promise<ApiResult<VerifySessionView>> {
  return postJson('/verify/session', credentialBody(credentials), isVerifySessionView);
}

/** POST /verify/status: the desktop asks whether the phone has finished (spec "QR handoff"). sessionToken only. */
export function fetchSessionStatus(sessionId: string, sessionToken: string): Promise<ApiResult<SessionStatusResult>> {
  return postJson('/verify/status', { sessionId, sessionToken }, isSessionStatusResult);
}

/**
 * POST /verify/challenges: a new liveness challenge for the selfie about to be taken (issue 19,
 * decision 0062); it replaces the session's earlier one. Both tokens may ask (desktop and phone).
 */
export function requestChallenge(credentials: VerifyCredentials): Promise<ApiResult<LivenessChallenge>> {
  return postJson('/verify/challenges', credentialBody(credentials), isLivenessChallenge);
}

/**
 * POST /verify/document-instead: a user without a camera goes on with an ID document instead of
 * the face check (only where the session view says `documentInstead`). Answers the session view,
 * whose nextCheck is then `document`.
 */
export function continueWithDocument(credentials: VerifyCredentials): Promise<ApiResult<VerifySessionView>> {
  return postJson('/verify/document-instead', credentialBody(credentials), isVerifySessionView);
}

/** POST /verify/simulate: sandbox sessions only; the tester picks the outcome. */
export function simulateOutcome(request: SimulateRequest): Promise<ApiResult<SimulateResult>> {
  return postJson('/verify/simulate', { ...credentialBody(request), outcome: request.outcome }, isSimulateResult);
}

/** POST /verify/cancel: the user leaves before any check (a billing-blocked session's "Back to the website"). sessionToken only. */
export function cancelSession(sessionId: string, sessionToken: string): Promise<ApiResult<SimulateResult>> {
  return postJson('/verify/cancel', { sessionId, sessionToken }, isSimulateResult);
}
