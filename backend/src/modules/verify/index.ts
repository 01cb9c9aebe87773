/**
 * The verify UI's API (same origin as the UI), authenticated by the session's sessionToken
 * (desktop) or handoffToken (phone), never by an API key, and limited per session.
 * `/verify/simulate` is the documented API for automated sandbox tests; `/verify/cancel` is called
 * by the SDK from the merchant's page when a new-tab window closes before completion.
 */
import { Elysia } from 'elysia';
import { HttpError } from '../../http/http-error';
import { VERIFY_UI_LIMIT, consume, rateLimitHeaders } from '../rate-limits/rate-limiter';
import { loadSessionBody, sessionTokenBody, simulateBody } from './model';
import { cancelSession, loadSessionView, sessionStatus, simulateOutcome, type VerifyDeps } from './service';

export function verifyRoutes(deps: VerifyDeps) {
  return (
    new Elysia({ name: 'verify', prefix: '/api/v1/verify' })
      .onBeforeHandle(async ({ body, set }) => {
        const sessionId = (body as { sessionId: string }).sessionId;
        const decision = await consume(deps.db, sessionId, 'verify-ui', VERIFY_UI_LIMIT, deps.clock.now());
        Object.assign(set.headers, rateLimitHeaders(decision));
        if (!decision.allowed) throw new HttpError(429, `Rate limit exceeded for this session; retry in ${decision.retryAfterSeconds} s`);
      })
      .post('/session', ({ body }) => loadSessionView(deps, body), {
        parse: 'json',
        body: loadSessionBody,
        detail: { summary: 'Load a session for the verify UI', tags: ['Verify UI'] },
      })
      .post('/simulate', ({ body }) => simulateOutcome(deps, body, body.outcome), {
        parse: 'json',
        body: simulateBody,
        detail: { summary: 'Choose the outcome of a sandbox session (automated tests)', tags: ['Verify UI'] },
      })
      .post('/status', ({ body }) => sessionStatus(deps, body), {
        parse: 'json',
        body: sessionTokenBody,
        detail: { summary: 'Poll a session while the phone completes it (QR handoff)', tags: ['Verify UI'] },
      })
      .post('/cancel', ({ body }) => cancelSession(deps, body), {
        parse: 'json',
        body: sessionTokenBody,
        detail: { summary: 'Report a new-tab flow closed before completion (verification.cancelled)', tags: ['Verify UI'] },
      })
  );
}
