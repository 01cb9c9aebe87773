import type { ErrorBody, ValidateSessionResult } from '@ageverify/protocol';

export interface ClientOptions {
  /** The service's API base, e.g. https://verify.example.com/api/v1 */
  baseUrl: string;
  /** A secret key (sk_…). Never ship it to a browser. */
  secretKey: string;
  /** Injected for tests; defaults to the global fetch. */
  fetch?: typeof fetch;
  /** Per-request timeout. Default 10 s. */
  timeoutMs?: number;
}

/** A refusal by the service, carrying the spec's error body. */
export class AgeVerifyApiError extends Error {
  constructor(
    readonly status: number,
    readonly body: ErrorBody | null,
  ) {
    super(body ? `${status} ${Array.isArray(body.message) ? body.message.join('; ') : body.message}` : `HTTP ${status}`);
  }
}

/**
 * Expected outcomes are returned, not thrown (docs/engineering-habits.md "Expected outcomes are returned"): a merchant branches on
 * `ok` and `reason`. Only network failures and unexpected statuses throw.
 */
export type ValidateOutcome =
  | { ok: true; result: ValidateSessionResult }
  | { ok: false; reason: 'already-used' | 'expired' | 'not-found' | 'other-tenant'; error: AgeVerifyApiError };

export interface AgeVerifyClient {
  validateSession(sessionId: string): Promise<ValidateOutcome>;
}

export function createClient(options: ClientOptions): AgeVerifyClient {
  if (typeof options.secretKey !== 'string' || !options.secretKey.startsWith('sk_')) {
    throw new TypeError(`Expected a secret key starting with "sk_", got ${describeKey(options.secretKey)} instead.`);
  }
  let base: URL;
  try {
    base = new URL(`${options.baseUrl.replace(/\/+$/, '')}/`);
  } catch {
    throw new TypeError(`Expected baseUrl to be an absolute URL such as https://verify.example.com/api/v1, got "${options.baseUrl}" instead.`);
  }
  const doFetch = options.fetch ?? fetch;

  return {
    async validateSession(sessionId) {
      if (typeof sessionId !== 'string' || sessionId.length === 0) {
        throw new TypeError(`Expected sessionId to be a non-empty string, got ${JSON.stringify(sessionId)} instead.`);
      }
      const response = await doFetch(new URL('sessions/validate', base), {
        method: 'POST',
        headers: { authorization: `Bearer ${options.secretKey}`, 'content-type': 'application/json' },
        body: JSON.stringify({ sessionId }),
        signal: AbortSignal.timeout(options.timeoutMs ?? 10_000),
      });
      if (response.ok) return { ok: true, result: (await response.json()) as ValidateSessionResult };
      const body = (await response.json().catch(() => null)) as ErrorBody | null;
      const error = new AgeVerifyApiError(response.status, body);
      if (response.status === 409) return { ok: false, reason: 'already-used', error };
      if (response.status === 404) return { ok: false, reason: 'not-found', error };
      if (response.status === 403 && body?.message === 'Session does not belong to this tenant') return { ok: false, reason: 'other-tenant', error };
      if (response.status === 400 && body?.message === 'Session has expired') return { ok: false, reason: 'expired', error };
      throw error;
    },
  };
}

function describeKey(value: unknown): string {
  if (typeof value !== 'string') return `a value of type ${typeof value}`;
  return value.length > 8 ? `"${value.slice(0, 8)}…"` : JSON.stringify(value);
}
