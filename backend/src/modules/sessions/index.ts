/** Routes of the Sessions API (spec "Endpoints": POST /sessions/create, POST /sessions/validate). */
import { Elysia } from 'elysia';
import { authenticate } from '../../auth/api-keys';
import { createSessionBody, validateSessionBody } from './model';
import { createSession, validateSession, type SessionDeps } from './service';

export function sessionRoutes(deps: SessionDeps) {
  return (
    new Elysia({ name: 'sessions', prefix: '/api/v1/sessions' })
      // derive runs before body validation: a request without a key is 401 "API key required"
      // whatever its body, and no unauthenticated caller learns the schema.
      .derive(async ({ request }) => ({ principal: await authenticate(deps.db, request.headers) }))
      .post(
        '/create',
        async ({ principal, body, set }) => {
          const result = await createSession(deps, principal, body);
          set.status = 201;
          return result;
        },
        { body: createSessionBody, detail: { summary: 'Create a verification session', tags: ['Sessions'] } },
      )
      .post('/validate', ({ principal, body }) => validateSession(deps, principal, body.sessionId), {
        body: validateSessionBody,
        detail: { summary: 'Validate a completed session (once)', tags: ['Sessions'] },
      })
  );
}
