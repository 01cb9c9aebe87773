/**
 * `POST /api/v1/verify/checks`: the verify UI's live-check submission (protocol/src/checks.ts),
 * authenticated like the rest of the verify UI's API (sessionToken or handoffToken, then the
 * per-session bucket). The body is multipart, so this route reads it itself (check-submission.ts);
 * the global JSON parser skips CHECKS_PATH.
 */
import { Elysia } from 'elysia';
import { DEFAULT_VERIFY_UI_HEADERS, admitCaller } from '../verify/caller-gate';
import { readCheckSubmission, type CheckSubmission } from './checks/check-submission';
import { runCheck, type CheckDeps } from './checks/check-service';
import { challengeResult, checkRequestBody, checkResult } from './http-model';
import { errorBodySchema } from '../sessions/model';
import { loadSessionBody, sessionViewResult } from '../verify/model';
import type { Credentials, VerifyCaller } from '../verify/service';
import { requestChallenge } from './checks/check-service';
import { continueWithDocument } from './checks/document-instead';

export const CHECKS_PATH = '/api/v1/verify/checks';
export const CHALLENGES_PATH = '/api/v1/verify/challenges';
export const DOCUMENT_INSTEAD_PATH = '/api/v1/verify/document-instead';

/** What the JSON routes below refuse, in the spec's error body: credentials, billing, the session's state, the rate limit. */
const CREDENTIAL_ROUTE_ERRORS = {
  400: errorBodySchema,
  401: errorBodySchema,
  403: errorBodySchema,
  404: errorBodySchema,
  409: errorBodySchema,
  429: errorBodySchema,
};

/** A JSON route of the verify UI's credentials (sessionToken or handoffToken): authenticated and counted first (caller-gate.ts). */
function asCaller<T>(deps: CheckDeps, run: (caller: VerifyCaller) => Promise<T>) {
  return async ({ body, set }: { body: unknown; set: { headers: unknown } }) =>
    run(await admitCaller(deps, body as Credentials, 'either', set.headers as Record<string, string | number>));
}

export function checkRoutes(deps: CheckDeps) {
  return new Elysia({ name: 'verify-checks' })
    .post(
      CHALLENGES_PATH,
      asCaller(deps, (caller) => requestChallenge(deps, caller)),
      {
        parse: 'json',
        body: loadSessionBody,
        response: { 200: challengeResult, ...CREDENTIAL_ROUTE_ERRORS },
        detail: {
          summary: 'Get a liveness challenge for the selfie capture',
          description:
            'Issues the moves the user makes in front of the camera (a random order of head turns) and the id the selfie frames must answer. ' +
            'Used once, by the next check; asking again replaces it. Authenticated by the sessionToken (desktop) or the handoffToken (phone).',
          tags: ['Verify UI'],
          security: [],
        },
      },
    )
    .post(
      DOCUMENT_INSTEAD_PATH,
      asCaller(deps, (caller) => continueWithDocument(deps, caller)),
      {
        parse: 'json',
        body: loadSessionBody,
        response: { 200: sessionViewResult, ...CREDENTIAL_ROUTE_ERRORS },
        detail: {
          summary: 'Continue with an ID document instead of the face check (no camera)',
          description:
            'For a user who has no camera: an L1 session still at its face check moves on to the document check, as a step-up would. ' +
            'Only when the session view says documentInstead (the account allows step-up and face match is off); refused while a check is running. ' +
            'Answers the session view, whose nextCheck is then document. Authenticated by the sessionToken (desktop) or the handoffToken (phone).',
          tags: ['Verify UI'],
          security: [],
        },
      },
    )
    .onRequest(({ request, set }) => {
      const path = new URL(request.url).pathname;
      if (path !== CHECKS_PATH && path !== CHALLENGES_PATH && path !== DOCUMENT_INSTEAD_PATH) return;
      set.headers['cache-control'] = 'no-store';
      Object.assign(set.headers, DEFAULT_VERIFY_UI_HEADERS);
    })
    .post(
      CHECKS_PATH,
      async ({ body, set }) => {
        const submission = body as CheckSubmission;
        const caller = await admitCaller(deps, submission, 'either', set.headers as Record<string, string | number>);
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
