/**
 * Global request plumbing: request ids, the JSON body parser with its size limit, and the mapping of
 * every failure to the spec's error body (spec "Error body"). Nothing here knows about sessions.
 */
import { Elysia } from 'elysia';
import type { Clock } from '../clock';
import { describeError, type Logger } from '../log';
import { DATABASE_RETRY_AFTER_SECONDS, databaseUnavailable } from '../db/database-unavailable';
import { randomBase62 } from '../ids';
import { AppError } from '../errors/app-error';
import { errorBody } from './error-body';
import { HTTP_ERRORS } from './errors';
import { validationMessages } from './validation-messages';
import { jsonBodyMediaTypeProblem } from './media-type';
import { JsonBodyError, parseJsonBody } from './json-body';
import { loggedPath } from './logged-path';

const REQUEST_ID = /^[A-Za-z0-9._-]{1,64}$/;
const startedAt = new WeakMap<Request, number>();

export interface ErrorHandlingDeps {
  clock: Clock;
  logger: Logger;
  maxBodyBytes: number;
  /** Methods the app has for a path (empty: the path is unknown); turns a wrong method into 405. */
  allowedMethods?: (path: string) => string[];
  /**
   * Paths whose route reads its own body (the multipart check submission, modules/engine): the JSON
   * parser leaves them alone, the route enforces its own media type and size limits.
   */
  ownBodyPaths?: ReadonlySet<string>;
}

export function errorHandling(deps: ErrorHandlingDeps) {
  const { clock, logger, maxBodyBytes, allowedMethods = () => [], ownBodyPaths = new Set<string>() } = deps;

  return (
    new Elysia({ name: 'error-handling' })
      // onRequest is the first hook, so even a request that fails in parsing has its id and start time.
      .onRequest(({ request, set }) => {
        const incoming = request.headers.get('x-request-id');
        // A caller-supplied id is kept when it is harmless, so a merchant can correlate its own logs.
        set.headers['x-request-id'] = incoming && REQUEST_ID.test(incoming) ? incoming : `req_${randomBase62(16)}`;
        startedAt.set(request, performance.now());
      })
      .onParse({ as: 'global' }, async ({ request, path }) => {
        if (request.method === 'GET' || request.method === 'HEAD') return;
        if (ownBodyPaths.has(path)) return;
        const declared = Number(request.headers.get('content-length') ?? '0');
        if (declared > maxBodyBytes) throw HTTP_ERRORS.BODY_TOO_LARGE({ maxBytes: maxBodyBytes });
        const bytes = await readLimited(request, maxBodyBytes);
        if (bytes.byteLength === 0) return {};
        // The raw header: Elysia's `contentType` has its parameters (charset) cut off.
        const mediaTypeProblem = jsonBodyMediaTypeProblem(request.headers.get('content-type'));
        if (mediaTypeProblem) throw HTTP_ERRORS.UNSUPPORTED_MEDIA_TYPE({ problem: mediaTypeProblem, path });
        try {
          return parseJsonBody(bytes);
        } catch (error) {
          // Refused fields read like validation messages (an array); unreadable JSON is one message.
          if (error instanceof JsonBodyError)
            throw error.kind === 'field' ? HTTP_ERRORS.REFUSED_FIELD({ reason: error.message }) : HTTP_ERRORS.MALFORMED_JSON({ reason: error.message });
          throw error;
        }
      })
      .onError({ as: 'global' }, ({ code, error, path, request, set, body }) => {
        const requestId = String(set.headers['x-request-id']);
        let failure = asAppError(code, error, request.method, path, body, allowedMethods);
        // The database is down or restarting: the request may succeed later, so 503 and when to
        // retry rather than a 500 (issue 15, item 2). Logged by codes only (describeError).
        if (!failure && databaseUnavailable(error)) {
          logger.warn('database unavailable', { requestId, path: loggedPath(request.url), method: request.method, ...describeError(error) });
          failure = HTTP_ERRORS.DATABASE_UNAVAILABLE({ headers: { 'retry-after': String(DATABASE_RETRY_AFTER_SECONDS) } });
        }
        // A failure nobody foresaw (or an AppError raised without a status) is a bug: logged with
        // context, and the client gets a bare 500 with nothing internal in it (docs/engineering-habits.md "Nothing internal leaks").
        if (!failure || failure.status === 500) {
          logger.error('unhandled error', { requestId, path: loggedPath(request.url), method: request.method, code: String(code), ...describeError(error) });
          failure = HTTP_ERRORS.INTERNAL_ERROR();
        }
        set.status = failure.status; // for the access log
        // Headers set before the failure (rate-limit, CORS) stay on the error response.
        const carried: Record<string, string> = {};
        for (const [name, value] of Object.entries(set.headers)) if (typeof value === 'string') carried[name] = value;
        return new Response(JSON.stringify(errorBody(failure, path, clock.now())), {
          status: failure.status,
          headers: { ...carried, ...failure.headers, 'content-type': 'application/json; charset=utf-8', 'x-request-id': requestId },
        });
      })
      .onAfterResponse({ as: 'global' }, ({ request, set }) => {
        const started = startedAt.get(request);
        logger.info('request', {
          requestId: set.headers['x-request-id'],
          method: request.method,
          // Credentials in the path or query never reach the log (issue 22, finding 7).
          path: loggedPath(request.url),
          status: typeof set.status === 'number' ? set.status : 200,
          ms: started === undefined ? undefined : Math.round((performance.now() - started) * 10) / 10,
        });
      })
  );
}

/**
 * Every failure as an AppError: ours as thrown (body-parser errors arrive wrapped in Elysia's
 * ParseError), Elysia's own (schema validation, unknown route, wrong method) under our codes;
 * null for anything else.
 */
function asAppError(code: unknown, error: unknown, method: string, path: string, body: unknown, allowedMethods: (path: string) => string[]): AppError | null {
  const cause = code === 'PARSE' ? (error as { cause?: unknown }).cause : error;
  if (cause instanceof AppError) return cause;
  switch (code) {
    case 'VALIDATION': {
      const all = (error as { all?: { path: string; message: string; value?: unknown; schema?: Record<string, unknown> }[] }).all ?? [];
      return HTTP_ERRORS.VALIDATION_FAILED({ messages: validationMessages(all, body) });
    }
    case 'PARSE':
      return HTTP_ERRORS.MALFORMED_BODY();
    case 'NOT_FOUND': {
      const allowed = allowedMethods(path);
      if (allowed.length > 0 && !allowed.includes(method)) {
        return HTTP_ERRORS.METHOD_NOT_ALLOWED({ method, path, allowed }, { headers: { allow: allowed.join(', ') } });
      }
      return HTTP_ERRORS.ROUTE_NOT_FOUND({ method, path });
    }
    case 'INVALID_COOKIE_SIGNATURE':
      return HTTP_ERRORS.INVALID_COOKIE();
    default:
      return null;
  }
}

/** Reads the body but stops at the limit, so a chunked upload without Content-Length cannot fill memory. */
export async function readLimited(request: Request, limit: number): Promise<Uint8Array> {
  if (!request.body) return new Uint8Array(0);
  const chunks: Uint8Array[] = [];
  let size = 0;
  const reader = request.body.getReader();
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    size += value.byteLength;
    if (size > limit) {
      await reader.cancel();
      throw HTTP_ERRORS.BODY_TOO_LARGE({ maxBytes: limit });
    }
    chunks.push(value);
  }
  const bytes = new Uint8Array(size);
  let offset = 0;
  for (const chunk of chunks) {
    bytes.set(chunk, offset);
    offset += chunk.byteLength;
  }
  return bytes;
}
