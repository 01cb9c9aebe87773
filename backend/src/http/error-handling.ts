/**
 * Global request plumbing: request ids, the JSON body parser with its size limit, and the mapping of
 * every failure to the spec's error body (spec "Error body"). Nothing here knows about sessions.
 */
import { Elysia } from 'elysia';
import type { Clock } from '../clock';
import { describeError, type Logger } from '../log';
import { databaseUnavailable } from '../db/database-unavailable';
import { randomBase62 } from '../ids';
import { HttpError, errorBody } from './http-error';
import { validationMessages } from './validation-messages';
import { jsonBodyMediaTypeProblem } from './media-type';
import { JsonBodyError, parseJsonBody } from './json-body';

const REQUEST_ID = /^[A-Za-z0-9._-]{1,64}$/;
const startedAt = new WeakMap<Request, number>();

export interface ErrorHandlingDeps {
  clock: Clock;
  logger: Logger;
  maxBodyBytes: number;
  /** Methods the app has for a path (empty: the path is unknown); turns a wrong method into 405. */
  allowedMethods?: (path: string) => string[];
}

export function errorHandling(deps: ErrorHandlingDeps) {
  const { clock, logger, maxBodyBytes, allowedMethods = () => [] } = deps;
  const jsonError = (status: number, message: string | string[], path: string, requestId: string, code?: string, headers: Record<string, string> = {}) =>
    new Response(JSON.stringify(errorBody(status, message, path, clock.now(), code)), {
      status,
      headers: { ...headers, 'content-type': 'application/json; charset=utf-8', 'x-request-id': requestId },
    });

  return new Elysia({ name: 'error-handling' })
    // onRequest is the first hook, so even a request that fails in parsing has its id and start time.
    .onRequest(({ request, set }) => {
      const incoming = request.headers.get('x-request-id');
      // A caller-supplied id is kept when it is harmless, so a merchant can correlate its own logs.
      set.headers['x-request-id'] = incoming && REQUEST_ID.test(incoming) ? incoming : `req_${randomBase62(16)}`;
      startedAt.set(request, performance.now());
    })
    .onParse({ as: 'global' }, async ({ request, path }) => {
      if (request.method === 'GET' || request.method === 'HEAD') return;
      const declared = Number(request.headers.get('content-length') ?? '0');
      if (declared > maxBodyBytes) throw new HttpError(413, `Request body is larger than ${maxBodyBytes} bytes`);
      const bytes = await readLimited(request, maxBodyBytes);
      if (bytes.byteLength === 0) return {};
      // The raw header: Elysia's `contentType` has its parameters (charset) cut off.
      const mediaTypeProblem = jsonBodyMediaTypeProblem(request.headers.get('content-type'));
      if (mediaTypeProblem) throw new HttpError(415, `${mediaTypeProblem} on ${path}`);
      try {
        return parseJsonBody(bytes);
      } catch (error) {
        // Refused fields read like validation messages (an array); unreadable JSON is one message.
        if (error instanceof JsonBodyError) throw new HttpError(400, error.kind === 'field' ? [error.message] : error.message);
        throw error;
      }
    })
    .onError({ as: 'global' }, ({ code, error, path, request, set, body }) => {
      const requestId = String(set.headers['x-request-id']);
      // Headers set before the failure (rate-limit, CORS) stay on the error response.
      const carried: Record<string, string> = {};
      for (const [name, value] of Object.entries(set.headers)) if (typeof value === 'string') carried[name] = value;
      const json = (status: number, message: string | string[], p: string, id: string, errorCode?: string, extra: Record<string, string> = {}) => {
        set.status = status; // for the access log
        return jsonError(status, message, p, id, errorCode, { ...carried, ...extra });
      };
      // Errors thrown by the body parser reach here wrapped in Elysia's ParseError.
      const cause = code === 'PARSE' ? (error as { cause?: unknown }).cause : error;
      if (cause instanceof HttpError) {
        return json(cause.statusCode, cause.messages, path, requestId, cause.options.code, cause.options.headers);
      }
      switch (code) {
        case 'VALIDATION': {
          const all = (error as { all?: { path: string; message: string; value?: unknown; schema?: Record<string, unknown> }[] }).all ?? [];
          return json(400, validationMessages(all, body), path, requestId);
        }
        case 'PARSE':
          return json(400, 'Malformed request body', path, requestId);
        case 'NOT_FOUND': {
          const methods = allowedMethods(path);
          if (methods.length > 0 && !methods.includes(request.method)) {
            return json(405, `${request.method} is not allowed on ${path}; use ${methods.join(' or ')}`, path, requestId, undefined, { allow: methods.join(', ') });
          }
          return json(404, `Cannot ${request.method} ${path}`, path, requestId);
        }
        case 'INVALID_COOKIE_SIGNATURE':
          return json(400, 'Invalid cookie', path, requestId);
        default: {
          // The database is down or restarting: the request may succeed later, so 503 and when to
          // retry rather than a 500 (issue 15, item 2). Logged by codes only (describeError).
          if (databaseUnavailable(error)) {
            logger.warn('database unavailable', { requestId, path, method: request.method, ...describeError(error) });
            return json(503, 'Service temporarily unavailable: the database cannot be reached; retry later', path, requestId, undefined, { 'retry-after': '2' });
          }
          // Internal errors are logged with context; clients get a bare 500 (STYLE.md, svix).
          logger.error('unhandled error', { requestId, path, method: request.method, code: String(code), ...describeError(error) });
          return json(500, 'Internal server error', path, requestId);
        }
      }
    })
    .onAfterResponse({ as: 'global' }, ({ request, path, set }) => {
      const started = startedAt.get(request);
      logger.info('request', {
        requestId: set.headers['x-request-id'],
        method: request.method,
        path,
        status: typeof set.status === 'number' ? set.status : 200,
        ms: started === undefined ? undefined : Math.round((performance.now() - started) * 10) / 10,
      });
    });
}

/** Reads the body but stops at the limit, so a chunked upload without Content-Length cannot fill memory. */
async function readLimited(request: Request, limit: number): Promise<Uint8Array> {
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
      throw new HttpError(413, `Request body is larger than ${limit} bytes`);
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
