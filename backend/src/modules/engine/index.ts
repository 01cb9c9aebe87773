/**
 * `POST /api/v1/verify/checks`: the verify UI's live-check submission (protocol/src/checks.ts),
 * authenticated like the rest of the verify UI's API (sessionToken or handoffToken, then the
 * per-session bucket). The body is multipart, so this route reads it itself (check-submission.ts);
 * the global JSON parser skips CHECKS_PATH.
 */
import { Elysia } from 'elysia';
import { VERIFY_UI_LIMIT, consume, rateLimitHeaders } from '../rate-limits/rate-limiter';
import { RATE_LIMIT_ERRORS } from '../rate-limits/errors';
import { authenticateCaller, type VerifyCaller } from '../verify/service';
import { readCheckSubmission, type CheckSubmission } from './check-submission';
import { runCheck, type CheckDeps } from './check-service';
import { checkRequestBody, checkResult } from './http-model';
import { errorBodySchema } from '../sessions/model';

export const CHECKS_PATH = '/api/v1/verify/checks';

const limitExceeded = (retryAfterSeconds: number) => RATE_LIMIT_ERRORS.SESSION_RATE_LIMIT_EXCEEDED({ retryAfterSeconds });

export function checkRoutes(deps: CheckDeps) {
  return new Elysia({ name: 'verify-checks' })
    .onRequest(({ request, set }) => {
      if (new URL(request.url).pathname !== CHECKS_PATH) return;
      set.headers['cache-control'] = 'no-store';
      Object.assign(set.headers, rateLimitHeaders({ allowed: true, limit: VERIFY_UI_LIMIT, remaining: VERIFY_UI_LIMIT, retryAfterSeconds: 0 }));
    })
    .post(
      CHECKS_PATH,
      async ({ body, set }) => {
        const submission = body as CheckSubmission;
        const now = deps.clock.now();
        let caller: VerifyCaller;
        try {
          caller = await authenticateCaller(deps, submission, 'either');
        } catch (error) {
          const denied = await consume(deps.db, submission.sessionId, 'verify-ui-denied', VERIFY_UI_LIMIT, now);
          Object.assign(set.headers, rateLimitHeaders(denied));
          throw denied.allowed ? error : limitExceeded(denied.retryAfterSeconds);
        }
        const decision = await consume(deps.db, submission.sessionId, 'verify-ui', VERIFY_UI_LIMIT, now);
        Object.assign(set.headers, rateLimitHeaders(decision));
        if (!decision.allowed) throw limitExceeded(decision.retryAfterSeconds);
        return runCheck(deps, caller, submission);
      },
      {
        parse: ({ request, path }) => readCheckSubmission(request, path),
        response: {
          200: checkResult,
          400: errorBodySchema,
          401: errorBodySchema,
          403: errorBodySchema,
          404: errorBodySchema,
          409: errorBodySchema,
          413: errorBodySchema,
          415: errorBodySchema,
          429: errorBodySchema,
          503: errorBodySchema,
        },
        detail: {
          summary: 'Submit captured images for a live check (multipart)',
          description:
            'The engine decides on the server: verified, failed (with reason), retry (with a hint) or step_up (continue with a document). ' +
            'Images are processed in memory only. Attempts are capped per session; a full engine queue is 503 with Retry-After.',
          tags: ['Verify UI'],
          security: [],
          requestBody: checkRequestBody as never,
        },
      },
    );
}
