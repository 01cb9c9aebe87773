/**
 * The spec's error body ("Resources", Error body): `statusCode`, `message` (string, or an array for
 * validation errors), `timestamp`, `path`, `error`, and `code` only where the spec names one.
 * http/error-handling.ts turns every AppError into it.
 */
import { STATUS_CODES } from 'node:http';
import type { ErrorBody } from '@ageverify/protocol';
import type { AppError } from '../errors/app-error';

export function statusPhrase(status: number): string {
  return STATUS_CODES[status] ?? 'Error';
}

export function errorBody(error: AppError, path: string, now: Date): ErrorBody {
  const body: ErrorBody = { statusCode: error.status, message: error.messages, timestamp: now.toISOString(), path, error: statusPhrase(error.status) };
  if (error.exposeCode) body.code = error.code;
  return body;
}
