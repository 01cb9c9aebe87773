/**
 * Error codes of the request plumbing shared by every module: body parsing, routing, static
 * assets, and the bare 500 for failures nobody foresaw (docs/engineering-habits.md "Nothing internal leaks").
 */
import { defineErrors, type ErrorMessage } from '../errors/app-error';

export const HTTP_ERRORS = defineErrors({
  BODY_TOO_LARGE: { status: 413, message: (p: { maxBytes: number }) => `Request body is larger than ${p.maxBytes} bytes` },
  UNSUPPORTED_MEDIA_TYPE: { status: 415, message: (p: { problem: string; path: string }) => `${p.problem} on ${p.path}` },
  /** The bytes are not JSON text (http/json-body.ts says why). */
  MALFORMED_JSON: { status: 400, message: (p: { reason: string }) => p.reason },
  /** A value in the JSON is refused (http/json-body.ts names it); reads like a validation message. */
  REFUSED_FIELD: { status: 400, message: (p: { reason: string }) => [p.reason] },
  MALFORMED_BODY: { status: 400, message: 'Malformed request body' },
  /** The route's body schema refused the request (http/validation-messages.ts words it). */
  VALIDATION_FAILED: { status: 400, message: (p: { messages: ErrorMessage }) => p.messages },
  METHOD_NOT_ALLOWED: {
    status: 405,
    message: (p: { method: string; path: string; allowed: string[] }) => `${p.method} is not allowed on ${p.path}; use ${p.allowed.join(' or ')}`,
  },
  ROUTE_NOT_FOUND: { status: 404, message: (p: { method: string; path: string }) => `Cannot ${p.method} ${p.path}` },
  INVALID_COOKIE: { status: 400, message: 'Invalid cookie' },
  ASSET_NOT_FOUND: { status: 404, message: (p: { name: string }) => `No asset ${p.name}` },
  VERIFY_UI_NOT_BUILT: { status: 503, message: 'The verify UI is not built; run `bun run build`' },
  SDK_NOT_BUILT: { status: 503, message: 'The SDK is not built; run `bun run build`' },
  DASHBOARD_NOT_BUILT: { status: 503, message: 'The dashboard is not built; run `bun run build`' },
  // Issue 15: while the database is down every request answers this at once, with Retry-After.
  DATABASE_UNAVAILABLE: { status: 503, message: 'Service temporarily unavailable: the database cannot be reached; retry later' },
  NOT_READY: { status: 503, message: 'The database cannot be reached; retry later' },
  INTERNAL_ERROR: { status: 500, message: 'Internal server error' },
});
