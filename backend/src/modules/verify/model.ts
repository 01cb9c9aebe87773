/** Schemas of the verify UI's own API (protocol/src/verify.ts). */
import { t } from 'elysia';

const token = t.String({ minLength: 1, maxLength: 200 });
const sessionId = t.String({ minLength: 1, maxLength: 64 });

export const loadSessionBody = t.Object({ sessionId, sessionToken: token }, { additionalProperties: false });

export const simulateBody = t.Object(
  { sessionId, sessionToken: token, outcome: t.Union([t.Literal('verified'), t.Literal('failed'), t.Literal('cancelled')]) },
  { additionalProperties: false },
);
