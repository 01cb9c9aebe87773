/**
 * Server-side session validation: the one call a merchant must make before granting access.
 *
 * The redirect back to the shop carries `sessionId`, `status` and `timestamp`, but every one of
 * those is untrusted (spec "End-user redirect and callback"): anybody can type
 * `/return?status=verified` into the address bar. Only `POST /sessions/validate`, called with the
 * secret key from the server, says whether the user passed. A session can be validated once.
 *
 * The call goes through the merchant-side helper `@ageverify/server` (server-sdk/).
 */

import { AgeVerifyApiError, createClient, type ValidateSessionResult } from '@ageverify/server';

export type { ValidateSessionResult as ValidationResult } from '@ageverify/server';

/**
 * Expected outcomes are returned, not thrown: a rejected validation (already used, expired,
 * unknown session, service down) is a normal answer the page has to render.
 * `httpStatus` is null when the service could not be reached at all.
 */
export type ValidationOutcome = { ok: true; result: ValidateSessionResult } | { ok: false; httpStatus: number | null; message: string };

export interface ValidateSessionOptions {
  /** Origin of the age verification service, for example `http://127.0.0.1:3000`. */
  serviceUrl: string;
  /** The `sk_` key. Server-side only: it must never reach a browser. */
  secretKey: string;
  sessionId: string;
  /** How long to wait for the service before giving up. */
  timeoutMs?: number;
}

export async function validateSession(options: ValidateSessionOptions): Promise<ValidationOutcome> {
  // The merchant helper (server-sdk/) sends `{ sessionId }` only — never the sessionToken.
  const client = createClient({ baseUrl: new URL('/api/v1', options.serviceUrl).toString(), secretKey: options.secretKey, timeoutMs: options.timeoutMs });
  try {
    const outcome = await client.validateSession(options.sessionId);
    if (outcome.ok) return { ok: true, result: outcome.result };
    return { ok: false, httpStatus: outcome.error.status, message: messageOf(outcome.error) };
  } catch (error) {
    if (error instanceof AgeVerifyApiError) return { ok: false, httpStatus: error.status, message: messageOf(error) };
    return { ok: false, httpStatus: null, message: `Could not reach the age verification service: ${error instanceof Error ? error.message : String(error)}` };
  }
}

/** Spec "Error body": `message` is a string, or an array of strings for validation errors. */
function messageOf(error: AgeVerifyApiError): string {
  const message = error.body?.message;
  if (typeof message === 'string') return message;
  if (Array.isArray(message)) return message.join('; ');
  return `HTTP ${error.status}`;
}
