/**
 * The refusals of the verify UI's API this page can meet, recognised by their message (issue 23).
 *
 * The error body (spec "Error body") carries the server's English `message` and, outside the one
 * code the spec names, no machine-readable code; the messages are part of the API and never change
 * for the UI's sake. So the page recognises them here and shows a translation (`apiErrors.<key>` in
 * locales/errors-xx.ts, loaded when a refusal is shown), never the English words on a page in
 * another language. A message it does not know gets a translated generic detail.
 *
 * `codes` names the backend error codes each entry stands for (each backend module's errors.ts,
 * and http/errors.ts); backend/src/modules/verify/ui-error-details.test.ts raises every one of
 * them and checks that its message is recognised here, so a reworded message cannot slip through.
 */
export interface KnownApiError {
  /** Key under `apiErrors` in locales/errors-xx.ts. */
  readonly key: string;
  readonly codes: readonly string[];
  /** Matches the whole `message` (an array's messages joined with "; ", as api.ts does). */
  readonly message: RegExp;
  /** Names of the values the message carries, in the order of the pattern's groups. */
  readonly values?: readonly string[];
}

export const KNOWN_API_ERRORS: readonly KnownApiError[] = [
  // POST /verify/session, /simulate, /status, /cancel and the credential part of /verify/checks.
  { key: 'SESSION_TOKEN_REQUIRED', codes: ['SESSION_TOKEN_REQUIRED'], message: /^sessionToken is required$/ },
  { key: 'ONE_TOKEN_REQUIRED', codes: ['ONE_TOKEN_REQUIRED'], message: /^send exactly one of sessionToken or handoffToken$/ },
  { key: 'HANDOFF_TOKEN_NOT_ALLOWED', codes: ['HANDOFF_TOKEN_NOT_ALLOWED'], message: /^property handoffToken should not exist$/ },
  { key: 'INVALID_SESSION_TOKEN', codes: ['INVALID_SESSION_TOKEN'], message: /^Invalid session token$/ },
  { key: 'INVALID_HANDOFF_TOKEN', codes: ['INVALID_HANDOFF_TOKEN'], message: /^Invalid handoff token$/ },
  // A tampered link: the schema refuses a credential field (http/validation-messages.ts, engine/checks/check-submission.ts).
  {
    key: 'LINK_FIELD_INVALID',

    codes: ['VALIDATION_FAILED', 'INVALID_SUBMISSION'],
    message: /^(?:sessionId|sessionToken|handoffToken) (?:must|is required|has an invalid format)[^;]*$/,
  },
  { key: 'SESSION_NOT_FOUND', codes: ['SESSION_NOT_FOUND'], message: /^Session not found$/ },
  { key: 'SESSION_ALREADY_COMPLETED', codes: ['SESSION_ALREADY_COMPLETED'], message: /^Session is already completed \(status \w+\)$/ },
  { key: 'SIMULATE_LIVE_SESSION', codes: ['SIMULATE_LIVE_SESSION'], message: /^Outcomes can only be simulated for sandbox sessions$/ },
  { key: 'SESSION_BILLING_BLOCKED', codes: ['SESSION_BILLING_BLOCKED'], message: /^This session is blocked by billing; no check can start$/ },
  {
    key: 'SESSION_RATE_LIMIT_EXCEEDED',

    codes: ['SESSION_RATE_LIMIT_EXCEEDED'],
    message: /^Rate limit exceeded for this session; retry in (\d+) s$/,
    values: ['seconds'],
  },
  { key: 'BODY_TOO_LARGE', codes: ['BODY_TOO_LARGE'], message: /^Request body is larger than \d+ bytes$/ },
  // The page's API address leads elsewhere (the ageverify-api-base meta of a page served from a CDN).
  { key: 'ROUTE_NOT_FOUND', codes: ['ROUTE_NOT_FOUND'], message: /^Cannot [A-Z]+ \S+$/ },
  {
    key: 'SERVICE_UNAVAILABLE',

    codes: ['DATABASE_UNAVAILABLE', 'NOT_READY'],
    message: /^(?:Service temporarily unavailable: )?the database cannot be reached; retry later$/i,
  },
  { key: 'INTERNAL_ERROR', codes: ['INTERNAL_ERROR'], message: /^Internal server error$/ },
  // POST /verify/checks (the live check's submission; modules/engine/errors.ts).
  { key: 'NOT_MULTIPART', codes: ['NOT_MULTIPART'], message: /^Content-Type must be multipart\/form-data on \S+$/ },
  { key: 'MALFORMED_MULTIPART', codes: ['MALFORMED_MULTIPART'], message: /^Malformed multipart body$/ },
  { key: 'IMAGE_TOO_LARGE', codes: ['IMAGE_TOO_LARGE'], message: /^Image part \S+ is larger than \d+ bytes$/ },
  {
    key: 'IMAGE_TOO_COMPLEX',

    codes: ['IMAGE_REFUSED', 'INVALID_SUBMISSION'],
    message: /^(?:image took more than \d+ ms to decode|\S+(?: \S+)? is a JPEG with more than \d+ scans; send a baseline JPEG, PNG or WebP)$/,
  },
  { key: 'SELFIE_REQUIRED', codes: ['SELFIE_REQUIRED'], message: /^at least one selfie part is required: / },
  { key: 'DOCUMENT_FRONT_REQUIRED', codes: ['DOCUMENT_FRONT_REQUIRED'], message: /^a documentFront part is required: / },
  { key: 'CHECK_SESSION_EXPIRED', codes: ['CHECK_SESSION_EXPIRED'], message: /^Session has expired$/ },
  { key: 'CHECK_IN_PROGRESS', codes: ['CHECK_IN_PROGRESS'], message: /^A check is already running on this session/ },
  // POST /verify/document-instead (modules/engine/checks/document-instead.ts).
  {
    key: 'DOCUMENT_INSTEAD_NOT_ALLOWED',
    codes: ['DOCUMENT_INSTEAD_NOT_ALLOWED'],
    message: /^This session cannot continue with a document instead of the face check: /,
  },
  {
    key: 'DOCUMENT_INSTEAD_FACE_MATCH',
    codes: ['DOCUMENT_INSTEAD_FACE_MATCH'],
    message: /^This session has face match on, which needs a selfie from a live camera: /,
  },
  { key: 'WRONG_CHECK', codes: ['WRONG_CHECK'], message: /^This session expects an? \w+ check$/ },
  { key: 'ENGINE_BUSY', codes: ['ENGINE_BUSY'], message: /^The verification engine is busy; retry shortly$/ },
  { key: 'ENGINE_TIMEOUT', codes: ['ENGINE_TIMEOUT'], message: /^The verification engine did not finish in time; retry shortly$/ },
];

export interface RecognisedApiError {
  key: string;
  values: Record<string, string>;
}

/** The entry whose pattern matches the server's message, with the values read from it; null for a message this page does not know. */
export function recogniseApiError(message: string): RecognisedApiError | null {
  for (const known of KNOWN_API_ERRORS) {
    const match = known.message.exec(message);
    if (!match) continue;
    const values: Record<string, string> = {};
    for (const [index, name] of (known.values ?? []).entries()) values[name] = match[index + 1] ?? '';
    return { key: known.key, values };
  }
  return null;
}
