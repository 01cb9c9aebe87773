/** Routes of the Sessions API (spec "Endpoints": POST /sessions/create, POST /sessions/validate). */
import { IDEMPOTENCY_ERRORS } from '../idempotency/errors';
import { Elysia } from 'elysia';
import { authenticate, type ApiPrincipal } from '../../auth/api-keys';
import { DEFAULT_LIMITS, RATE_LIMIT_WINDOW_SECONDS, consume, rateLimitHeaders, type RateLimitBucket } from '../rate-limits/rate-limiter';
import { RATE_LIMIT_ERRORS } from '../rate-limits/errors';
import { createSessionBody, createSessionResult, errorBodySchema, validateSessionBody, validateSessionResult } from './model';
import { createSession, validateSession, type SessionDeps } from './service';
import { IDEMPOTENCY_HEADER, IDEMPOTENCY_KEY_MAX_LENGTH, REPLAYED_HEADER, checkIdempotencyKey, requestFingerprint } from '../idempotency/decide';
import { runIdempotent } from '../idempotency/service';

/**
 * The rate-limit bucket of each operation, chosen by its exact route (the app matches paths
 * strictly, so `/sessions/validate/` is a 404 rather than a validate counted as a create).
 */
const BUCKET_OF_ROUTE: Readonly<Record<string, RateLimitBucket>> = {
  '/api/v1/sessions/create': 'create',
  '/api/v1/sessions/validate': 'validate',
};

export function sessionRoutes(deps: SessionDeps) {
  const principals = new WeakMap<Request, ApiPrincipal>();
  return (
    new Elysia({ name: 'sessions', prefix: '/api/v1/sessions' })
      // onRequest runs before the body is read: a request without a key is 401 "API key required"
      // whatever its body, every request counts against the tenant's bucket, and every response —
      // malformed JSON, 413 and 415 included — carries the bucket's headers (spec "Limits").
      .onRequest(async ({ request, set }) => {
        const bucket = BUCKET_OF_ROUTE[new URL(request.url).pathname];
        if (!bucket) return;
        // Creation results carry bearer tokens; nothing of this API may be cached.
        set.headers['cache-control'] = 'no-store';
        // Before we know the tenant (or for a method this route does not have): the defaults, nothing consumed.
        Object.assign(set.headers, rateLimitHeaders({ allowed: true, limit: DEFAULT_LIMITS[bucket], remaining: DEFAULT_LIMITS[bucket], retryAfterSeconds: 0 }));
        if (request.method !== 'POST') return;
        const principal = await authenticate(deps.db, request.headers);
        const override = bucket === 'create' ? principal.tenant.rateLimitCreate : principal.tenant.rateLimitValidate;
        const limit = override ?? DEFAULT_LIMITS[bucket];
        const decision = await consume(deps.db, principal.tenantId, bucket, limit, deps.clock.now());
        Object.assign(set.headers, rateLimitHeaders(decision));
        if (!decision.allowed) {
          throw RATE_LIMIT_ERRORS.RATE_LIMIT_EXCEEDED({ limit, windowSeconds: RATE_LIMIT_WINDOW_SECONDS, retryAfterSeconds: decision.retryAfterSeconds });
        }
        principals.set(request, principal);
      })
      .derive(({ request }) => {
        const principal = principals.get(request);
        // Unreachable while BUCKET_OF_ROUTE lists every route below; a loud failure if it does not.
        if (!principal) throw new Error(`no principal for ${request.method} ${request.url}: route missing from BUCKET_OF_ROUTE`);
        return { principal };
      })
      .post(
        '/create',
        async ({ principal, body, set, request }) => {
          const check = checkIdempotencyKey(request.headers.get(IDEMPOTENCY_HEADER));
          if (!check.ok) throw IDEMPOTENCY_ERRORS.INVALID_IDEMPOTENCY_KEY();
          if (check.key === null) {
            set.status = 201;
            return createSession(deps, principal, body);
          }
          // Issue 15, item 4: a retry after a lost response gets the first result, not a second session.
          const outcome = await runIdempotent(
            deps.db,
            {
              tenantId: principal.tenantId,
              key: check.key,
              requestHash: requestFingerprint(principal, body),
              now: deps.clock.now(),
              serverSecret: deps.serverSecret,
            },
            (store) => createSession(deps, principal, body, store),
            201,
          );
          if (outcome.replayed) set.headers[REPLAYED_HEADER] = 'true';
          set.status = outcome.statusCode;
          return outcome.body;
        },
        {
          parse: 'json',
          body: createSessionBody,
          response: {
            201: createSessionResult,
            400: errorBodySchema,
            401: errorBodySchema,
            403: errorBodySchema,
            409: errorBodySchema,
            429: errorBodySchema,
            503: errorBodySchema,
          },
          detail: {
            summary: 'Create a verification session',
            description:
              'Works with a publishable (pk_) or secret (sk_) key. The session expires 10 minutes after creation and dispatches session.started. ' +
              'With a publishable key, verificationMode, challengeAge and faceMatchEnabled may only make the tenant policy stricter. ' +
              'Send an Idempotency-Key to make retries safe: the same key with the same request within 24 hours returns the first 201 and its body again, ' +
              'with the header Idempotent-Replayed: true, and creates nothing; the same key with another request is 400; ' +
              'while the first request with a key is still running, another is 409. 503 (with Retry-After) means the database cannot be reached: retry with the same key.',
            tags: ['Sessions'],
            parameters: [
              {
                name: 'Idempotency-Key',
                in: 'header',
                required: false,
                description: `A unique value per intended session (a UUID), 1 to ${IDEMPOTENCY_KEY_MAX_LENGTH} printable ASCII characters. Kept 24 hours per account.`,
                schema: { type: 'string', minLength: 1, maxLength: IDEMPOTENCY_KEY_MAX_LENGTH },
              },
            ],
            security: [{ bearer: [] }, { apiKey: [] }],
          },
        },
      )
      .post('/validate', ({ principal, body }) => validateSession(deps, principal, body.sessionId), {
        parse: 'json',
        body: validateSessionBody,
        response: {
          200: validateSessionResult,
          400: errorBodySchema,
          401: errorBodySchema,
          403: errorBodySchema,
          404: errorBodySchema,
          409: errorBodySchema,
          429: errorBodySchema,
        },
        detail: {
          summary: 'Validate a session (once)',
          description:
            'Secret key required. A terminal result (verified, failed, cancelled) can be validated once; again is 409 "Session has already been used". ' +
            'A pending session answers status "pending" and is not consumed. An expired session is 400 "Session has expired".',
          tags: ['Sessions'],
          security: [{ bearer: [] }, { apiKey: [] }],
        },
      })
  );
}
