/**
 * The verify UI's API (same origin as the UI). Authenticated by the session's sessionToken in the
 * body, never by an API key. `/verify/simulate` is the documented API for automated sandbox tests.
 */
import { Elysia } from 'elysia';
import { loadSessionBody, simulateBody } from './model';
import { loadSessionView, simulateOutcome, type VerifyDeps } from './service';

export function verifyRoutes(deps: VerifyDeps) {
  return new Elysia({ name: 'verify', prefix: '/api/v1/verify' })
    .post('/session', ({ body }) => loadSessionView(deps, body.sessionId, body.sessionToken), {
      body: loadSessionBody,
      detail: { summary: 'Load a session for the verify UI', tags: ['Verify UI'] },
    })
    .post('/simulate', ({ body }) => simulateOutcome(deps, body.sessionId, body.sessionToken, body.outcome), {
      body: simulateBody,
      detail: { summary: 'Choose the outcome of a sandbox session', tags: ['Verify UI'] },
    });
}
