/**
 * The verify UI's API (same origin as the UI), authenticated by the session's sessionToken
 * (desktop) or handoffToken (phone), never by an API key, and limited per session.
 * `/verify/simulate` is the documented API for automated sandbox tests; `/verify/cancel` is called
 * by the SDK from the merchant's page when a new-tab window closes before completion.
 */
import { Elysia } from 'elysia';
import { errorBodySchema } from '../sessions/model';
import { DEFAULT_VERIFY_UI_HEADERS, admitCaller } from './caller-gate';
import { loadSessionBody, outcomeResult, sessionStatusResult, sessionTokenBody, sessionViewResult, simulateBody } from './model';
import { cancelSession, loadSessionView, recordOpened, sessionStatus, simulateOutcome, type Credentials, type VerifyDeps } from './service';

/** Who may call each route: status polling and cancel belong to the desktop's sessionToken. */
const CALLERS_OF_ROUTE: Readonly<Record<string, 'session' | 'either'>> = {
  '/api/v1/verify/session': 'either',
  '/api/v1/verify/simulate': 'either',
  '/api/v1/verify/status': 'session',
  '/api/v1/verify/cancel': 'session',
};

/**
 * OpenAPI: these operations take no API key; the token in the body is the credential, so no
 * security scheme applies (an empty requirement says so rather than leaving it unstated).
 */
const TOKEN_IN_BODY = { security: [], tags: ['Verify UI'] };
const errors = { 400: errorBodySchema, 401: errorBodySchema, 404: errorBodySchema, 429: errorBodySchema };

export function verifyRoutes(deps: VerifyDeps) {
  return (
    new Elysia({ name: 'verify', prefix: '/api/v1/verify' })
      // Before the body is read: responses carry tokens (no caching), and even a body that fails to
      // parse is answered with the rate-limit headers (spec "Limits"), the defaults at that point.
      .onRequest(({ request, set }) => {
        if (!(new URL(request.url).pathname in CALLERS_OF_ROUTE)) return;
        set.headers['cache-control'] = 'no-store';
        Object.assign(set.headers, DEFAULT_VERIFY_UI_HEADERS);
      })
      // Authenticate first, then count (caller-gate.ts).
      .resolve(async ({ body, path, set }) => ({
        caller: await admitCaller(deps, body as Credentials, CALLERS_OF_ROUTE[path] ?? 'session', set.headers as Record<string, string | number>),
      }))
      .post(
        '/session',
        async ({ caller }) => {
          await recordOpened(deps, caller);
          return loadSessionView(deps, caller);
        },
        {
          parse: 'json',
          body: loadSessionBody,
          response: { 200: sessionViewResult, ...errors },
          detail: {
            ...TOKEN_IN_BODY,
            summary: 'Load a session for the verify UI',
            description:
              'What the verify UI shows: mode, challenge age, the legal minimum age a document must show, merchant name, billing block, and where to go when the session is already over. Authenticated by the sessionToken (desktop) or the handoffToken (phone).',
          },
        },
      )
      .post('/simulate', ({ caller, body }) => simulateOutcome(deps, caller, body.outcome), {
        parse: 'json',
        body: simulateBody,
        response: { 200: outcomeResult, ...errors, 403: errorBodySchema, 409: errorBodySchema },
        detail: {
          ...TOKEN_IN_BODY,
          summary: 'Choose the outcome of a sandbox session (automated tests)',
          description:
            'Sandbox sessions only. Ends the session with the chosen outcome, dispatches the same events as a real check, and answers the redirect the UI would follow.',
        },
      })
      .post('/status', ({ caller }) => sessionStatus(caller), {
        parse: 'json',
        body: sessionTokenBody,
        response: { 200: sessionStatusResult, ...errors },
        detail: {
          ...TOKEN_IN_BODY,
          summary: 'Poll a session while the phone completes it (QR handoff)',
          description: 'The desktop page polls this while the phone runs the check. sessionToken only.',
        },
      })
      .post('/cancel', ({ caller }) => cancelSession(deps, caller), {
        parse: 'json',
        body: sessionTokenBody,
        response: { 200: outcomeResult, ...errors, 409: errorBodySchema },
        detail: {
          ...TOKEN_IN_BODY,
          summary: 'Report a new-tab flow closed before completion (verification.cancelled)',
          description:
            'Called by the browser SDK from the merchant page (CORS allowed) when the verification tab closes before completion. Ends the session as cancelled. sessionToken only.',
        },
      })
  );
}
