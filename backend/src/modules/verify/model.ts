/** Schemas of the verify UI's own API (protocol/src/verify.ts). */
import { t } from 'elysia';

const token = t.String({ minLength: 1, maxLength: 200 });
const sessionId = t.String({ minLength: 1, maxLength: 64 });

/** Desktop (sessionToken) or phone (handoffToken); the service checks that exactly one is sent. */
const credentials = { sessionId, sessionToken: t.Optional(token), handoffToken: t.Optional(token) };

export const loadSessionBody = t.Object(credentials, { additionalProperties: false });

export const simulateBody = t.Object(
  { ...credentials, outcome: t.Union([t.Literal('verified'), t.Literal('failed'), t.Literal('cancelled')]) },
  { additionalProperties: false },
);

/** Status polling and cancel are for the sessionToken holder only. */
export const sessionTokenBody = t.Object({ sessionId, sessionToken: token }, { additionalProperties: false });
