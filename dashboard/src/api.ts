/**
 * The dashboard API as the browser calls it: same origin, cookies sent by the browser, JSON both ways.
 * Every state-changing request carries `content-type: application/json` and a JSON body (`{}` when
 * there is nothing to send): the backend's CSRF rule refuses anything else (dashboard contract,
 * "CSRF"), and the browser adds the Origin header itself.
 */
import { DASHBOARD_API_BASE, TWO_FACTOR_ERROR_CODES } from '@ageverify/protocol';
import { Superseded } from './latest-call';

/** A refusal of the API, with the message of its error body (shown to the user as it is: it says what is wrong). */
export class ApiError extends Error {
  constructor(
    readonly status: number,
    message: string,
    readonly code: string | null,
    /** Seconds, from Retry-After (sign-in rate limit). */
    readonly retryAfter: number | null,
  ) {
    super(message);
    this.name = 'ApiError';
  }
}

type Method = 'GET' | 'POST' | 'PATCH' | 'DELETE';

/**
 * Dispatched on `window` when a tenant route answers 403 TWO_FACTOR_REQUIRED (issue 23): the tenant
 * now requires two-factor sign-in of this member, and the app sends them to the enrolment.
 */
export const TWO_FACTOR_REQUIRED_EVENT = 'dash-two-factor-required';

/** Reads the message of an error body: ours (`message`, a string or a list) or better-auth's (`message`). */
function messageOf(body: unknown, fallback: string): { message: string; code: string | null } {
  if (typeof body === 'object' && body !== null) {
    const record = body as Record<string, unknown>;
    const raw = record.message;
    const message = Array.isArray(raw) ? raw.filter((part) => typeof part === 'string').join('; ') : typeof raw === 'string' ? raw : '';
    const code = typeof record.code === 'string' ? record.code : null;
    return { message: message || fallback, code };
  }
  return { message: fallback, code: null };
}

/**
 * `signal`: the call this request belongs to (latest-call.ts). Once it is aborted the request
 * rejects with Superseded, whatever the answer. A read is aborted on the wire too; a change is
 * not (it may already be done on the server), only its answer is dropped.
 */
export async function request<T>(method: Method, path: string, body?: unknown, signal?: AbortSignal): Promise<T> {
  if (signal?.aborted) throw new Superseded();
  const init: RequestInit = { method, credentials: 'same-origin', headers: { accept: 'application/json' } };
  if (method === 'GET' && signal) init.signal = signal;
  if (method !== 'GET') {
    init.headers = { accept: 'application/json', 'content-type': 'application/json' };
    init.body = JSON.stringify(body ?? {});
  }
  let response: Response;
  try {
    response = await fetch(`${DASHBOARD_API_BASE}${path}`, init);
  } catch {
    if (signal?.aborted) throw new Superseded();
    throw new ApiError(0, 'The service cannot be reached. Check your connection and try again.', null, null);
  }
  const text = await response.text().catch(() => '');
  if (signal?.aborted) throw new Superseded();
  let parsed: unknown = null;
  try {
    parsed = text ? JSON.parse(text) : null;
  } catch {
    parsed = null;
  }
  if (!response.ok) {
    const { message, code } = messageOf(parsed, `HTTP ${response.status}`);
    if (response.status === 403 && code === TWO_FACTOR_ERROR_CODES.required) globalThis.dispatchEvent?.(new Event(TWO_FACTOR_REQUIRED_EVENT));
    const retryAfter = Number(response.headers.get('retry-after'));
    throw new ApiError(response.status, message, code, Number.isFinite(retryAfter) && retryAfter > 0 ? retryAfter : null);
  }
  return parsed as T;
}

/** The routes under `/tenants/:tenantId`. */
export function tenantPath(tenantId: string, path: string): string {
  return `/tenants/${encodeURIComponent(tenantId)}${path}`;
}
