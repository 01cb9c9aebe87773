/**
 * Server-side session validation: the one call a merchant must make before granting access.
 *
 * The redirect back to the shop carries `sessionId`, `status` and `timestamp`, but every one of
 * those is untrusted (spec "End-user redirect and callback"): anybody can type
 * `/return?status=verified` into the address bar. Only `POST /sessions/validate`, called with the
 * secret key from the server, says whether the user passed. A session can be validated once.
 *
 * A merchant-side helper package is planned; until then this is a plain `fetch`.
 */

/** Spec "Validation result", the fields this example uses and shows. */
export interface ValidationResult {
  sessionId: string;
  merchantId: string;
  verified: boolean;
  /** Server-derived access decision: the only field an access decision may rest on. */
  accessGranted: boolean;
  status: 'verified' | 'failed' | 'cancelled' | 'pending';
  verificationMode: 'L1' | 'L2';
  challengeAge: number;
  faceMatchEnabled: boolean;
  externalUserId: string | null;
  timestamp: string;
  expiresAt: string;
}

/**
 * Expected outcomes are returned, not thrown: a rejected validation (already used, expired,
 * unknown session, service down) is a normal answer the page has to render.
 * `httpStatus` is null when the service could not be reached at all.
 */
export type ValidationOutcome =
  | { ok: true; result: ValidationResult }
  | { ok: false; httpStatus: number | null; message: string };

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
  const url = new URL('/api/v1/sessions/validate', options.serviceUrl);
  let response: Response;
  try {
    response = await fetch(url, {
      method: 'POST',
      headers: { authorization: `Bearer ${options.secretKey}`, 'content-type': 'application/json' },
      // `sessionId` is the only allowed property; never send the sessionToken here.
      body: JSON.stringify({ sessionId: options.sessionId }),
      signal: AbortSignal.timeout(options.timeoutMs ?? 10_000),
    });
  } catch (error) {
    return { ok: false, httpStatus: null, message: `Could not reach the age verification service: ${describe(error)}` };
  }

  const body: unknown = await response.json().catch(() => null);
  if (!response.ok) {
    return { ok: false, httpStatus: response.status, message: errorMessage(body) ?? `HTTP ${response.status}` };
  }
  if (!isValidationResult(body)) {
    return { ok: false, httpStatus: response.status, message: 'The service answered with an unexpected validation result' };
  }
  return { ok: true, result: body };
}

/** Spec "Error body": `message` is a string, or an array of strings for validation errors. */
function errorMessage(body: unknown): string | null {
  if (typeof body !== 'object' || body === null || !('message' in body)) return null;
  const { message } = body;
  if (typeof message === 'string') return message;
  if (Array.isArray(message)) return message.map(String).join('; ');
  return null;
}

function isValidationResult(body: unknown): body is ValidationResult {
  if (typeof body !== 'object' || body === null) return false;
  const candidate = body as Record<string, unknown>;
  return typeof candidate.sessionId === 'string' && typeof candidate.accessGranted === 'boolean' && typeof candidate.status === 'string';
}

function describe(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
