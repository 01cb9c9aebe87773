/**
 * The SDK's two calls to the service. Every outcome is returned, never thrown.
 *  - POST {base_url}/sessions/create with the publishable key (spec "POST /sessions/create"); the
 *    caller turns failures into `onError` + `{ ok: false }`.
 *  - POST {base_url}/verify/cancel with the session's sessionToken, when a new-tab window closed
 *    before completion (spec "States and transitions": verification.cancelled).
 */
import type { CancelRequest, CreateSessionRequest, CreateSessionResult, ErrorBody } from '@ageverify/protocol';
import type { Environment, RequestInitLike, ResponseLike } from './environment';
import { AgeVerifyError } from './errors';
import { checkUrl } from './url';

/** A create call that hears nothing back within this time fails with NETWORK_ERROR. */
export const CREATE_TIMEOUT_MS = 30_000;
/**
 * The cancel report is fire-and-forget, but its answer (the server's callback URL, or "already
 * completed") is worth a short wait: the user has just closed the window and waits for the page.
 */
export const CANCEL_TIMEOUT_MS = 3_000;

export type CreateSessionOutcome = { ok: true; session: CreateSessionResult } | { ok: false; error: AgeVerifyError };

export interface CreateSessionCall {
  baseUrl: string;
  apiKey: string;
  body: CreateSessionRequest;
}

export async function createSession(env: Pick<Environment, 'fetch' | 'setTimeout' | 'clearTimeout'>, call: CreateSessionCall): Promise<CreateSessionOutcome> {
  const endpoint = `${call.baseUrl}/sessions/create`;
  let response: ResponseLike;
  let text: string;
  try {
    ({ response, text } = await withTimeout(env, endpoint, CREATE_TIMEOUT_MS, {
      method: 'POST',
      headers: {
        Accept: 'application/json',
        'Content-Type': 'application/json',
        // Spec "Authentication" 1.
        Authorization: `Bearer ${call.apiKey}`,
      },
      body: JSON.stringify(call.body),
      // The endpoint needs no cookies: it answers any origin, without credentials.
      credentials: 'omit',
      mode: 'cors',
    }));
  } catch (cause) {
    return failure(
      'NETWORK_ERROR',
      `Could not reach the verification service at ${endpoint}: ${errorText(cause)}. Check the network connection and the baseUrl option.`,
    );
  }

  if (!response.ok) return { ok: false, error: apiError(response, text) };

  const session = parseJson(text);
  if (!isRecord(session) || typeof session.sessionId !== 'string' || session.sessionId === '' || typeof session.verifyUrl !== 'string') {
    return failure('INVALID_RESPONSE', `Expected the service to answer with a sessionId and a verifyUrl, got HTTP ${response.status} without them instead.`);
  }
  try {
    // The browser is about to be sent there: hold the service's answer to the same URL rules.
    checkUrl(session.verifyUrl, 'verifyUrl');
  } catch (error) {
    return failure('INVALID_RESPONSE', `The service returned an unusable verifyUrl. ${errorText(error)}`);
  }
  return { ok: true, session: session as unknown as CreateSessionResult };
}

/**
 * What the service said about a window closed before completion:
 *  - `cancelled`: the session is now cancelled; `redirectUrl` is the server's callback URL
 *    (cancelUrl, else returnUrl, with status=cancelled, sessionId, timestamp) when it sent one.
 *  - `already-completed`: HTTP 409, the session ended first (a completion whose message may still
 *    be on its way, or expiry).
 *  - `unconfirmed`: no usable answer (network, timeout, another status, no sessionToken to send).
 */
export type CancelReport = { kind: 'cancelled'; redirectUrl?: string } | { kind: 'already-completed' } | { kind: 'unconfirmed' };

export interface CancelCall extends CancelRequest {
  baseUrl: string;
}

export async function reportCancel(env: Pick<Environment, 'fetch' | 'setTimeout' | 'clearTimeout'>, call: CancelCall): Promise<CancelReport> {
  const body: CancelRequest = { sessionId: call.sessionId, sessionToken: call.sessionToken };
  let response: ResponseLike;
  let text: string;
  try {
    ({ response, text } = await withTimeout(env, `${call.baseUrl}/verify/cancel`, CANCEL_TIMEOUT_MS, {
      method: 'POST',
      // No API key: the sessionToken in the body is the credential. The endpoint answers CORS from
      // any origin without credentials.
      headers: { Accept: 'application/json', 'Content-Type': 'application/json' },
      body: JSON.stringify(body),
      credentials: 'omit',
      mode: 'cors',
    }));
  } catch {
    return { kind: 'unconfirmed' };
  }
  if (response.status === 409) return { kind: 'already-completed' };
  if (!response.ok) return { kind: 'unconfirmed' };
  const answer = parseJson(text);
  const redirectUrl = isRecord(answer) && typeof answer.redirectUrl === 'string' ? answer.redirectUrl : undefined;
  return redirectUrl === undefined ? { kind: 'cancelled' } : { kind: 'cancelled', redirectUrl };
}

/** fetch + read the body, raced against a timer (AbortController is missing in Chrome 60 and Safari 12). */
function withTimeout(
  env: Pick<Environment, 'fetch' | 'setTimeout' | 'clearTimeout'>,
  url: string,
  timeoutMs: number,
  init: RequestInitLike,
): Promise<{ response: ResponseLike; text: string }> {
  const controller = typeof AbortController === 'function' ? new AbortController() : undefined;
  if (controller) init.signal = controller.signal;
  return new Promise((resolve, reject) => {
    const timer = env.setTimeout(() => {
      if (controller) controller.abort();
      reject(new Error(`no answer within ${timeoutMs / 1000} s`));
    }, timeoutMs);
    env
      .fetch(url, init)
      .then((response) => response.text().then((text) => ({ response, text })))
      .then(
        (result) => {
          env.clearTimeout(timer);
          resolve(result);
        },
        (error: unknown) => {
          env.clearTimeout(timer);
          reject(error);
        },
      );
  });
}

/** Turns a non-2xx answer into an error that carries the server's own message (spec "Error body"). */
function apiError(response: ResponseLike, text: string): AgeVerifyError {
  const body = parseJson(text);
  const errorBody = isRecord(body) ? (body as Partial<ErrorBody>) : {};
  const serverMessage = Array.isArray(errorBody.message) ? errorBody.message.join('; ') : typeof errorBody.message === 'string' ? errorBody.message : undefined;
  const serverCode = typeof errorBody.code === 'string' ? errorBody.code : undefined;
  const status = response.status;
  const said = (serverMessage || response.statusText || 'no message').replace(/\.$/, '');
  const details = { status, serverMessage, serverCode };

  if (status === 429) {
    // Spec "Limits": X-RateLimit-Retry-After (seconds) is present on 429.
    const seconds = Number(response.headers.get('X-RateLimit-Retry-After') || response.headers.get('Retry-After'));
    const known = Number.isFinite(seconds) && seconds > 0;
    return new AgeVerifyError(
      'RATE_LIMITED',
      `Rate limit exceeded on the verification service (HTTP 429): ${said}.${known ? ` Try again in ${Math.ceil(seconds)} s.` : ''}`,
      known ? { ...details, retryAfterMs: Math.ceil(seconds) * 1000 } : details,
    );
  }
  return new AgeVerifyError(
    'API_ERROR',
    `Could not create a verification session (HTTP ${status}${serverCode ? ` ${serverCode}` : ''}): ${said}.${hint(status)}`,
    details,
  );
}

/** What the merchant can do about the statuses the spec lists for POST /sessions/create. */
function hint(status: number): string {
  if (status === 400) return ' Check the options and that the returnUrl domain is on the allowed-domain list in the dashboard.';
  if (status === 401) return ' Check that apiKey is an active publishable key.';
  if (status === 403) return ' The key is not allowed to create sessions.';
  if (status === 503) return ' The account setup is incomplete; see the dashboard.';
  return '';
}

function failure(code: 'NETWORK_ERROR' | 'INVALID_RESPONSE', message: string): CreateSessionOutcome {
  return { ok: false, error: new AgeVerifyError(code, message) };
}

function parseJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function errorText(error: unknown): string {
  return error instanceof Error ? error.message.replace(/\.$/, '') : String(error);
}
