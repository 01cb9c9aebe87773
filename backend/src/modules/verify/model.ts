/** Schemas of the verify UI's own API (protocol/src/verify.ts). */
import { t } from 'elysia';
import { SIMULATED_OUTCOMES } from '@ageverify/protocol';
import { literalUnion } from '../../http/literal-union';

const token = t.String({ minLength: 1, maxLength: 200 });
const sessionId = t.String({ minLength: 1, maxLength: 64 });

/** Desktop (sessionToken) or phone (handoffToken); the service checks that exactly one is sent. */
const credentials = { sessionId, sessionToken: t.Optional(token), handoffToken: t.Optional(token) };

export const loadSessionBody = t.Object(credentials, { additionalProperties: false });

export const simulateBody = t.Object(
  { ...credentials, outcome: literalUnion(SIMULATED_OUTCOMES) },
  { additionalProperties: false },
);

/** Status polling and cancel are for the sessionToken holder only. */
export const sessionTokenBody = t.Object({ sessionId, sessionToken: token }, { additionalProperties: false });
