/**
 * The one HTTP error class (STYLE.md habit 6) and the spec's error body ("Resources", Error body):
 * `statusCode`, `message` (string, or an array for validation errors), `timestamp`, `path`, `error`.
 */
import { STATUS_CODES } from 'node:http';
import type { ErrorBody } from '@ageverify/protocol';

export class HttpError extends Error {
  constructor(
    readonly statusCode: number,
    readonly messages: string | string[],
    readonly options: { code?: string; headers?: Record<string, string> } = {},
  ) {
    super(Array.isArray(messages) ? messages.join('; ') : messages);
  }
}

export const badRequest = (message: string | string[]) => new HttpError(400, message);
export const unauthorized = (message: string) => new HttpError(401, message);
export const forbidden = (message: string) => new HttpError(403, message);
export const notFound = (message: string) => new HttpError(404, message);
export const conflict = (message: string) => new HttpError(409, message);

export function statusPhrase(status: number): string {
  return STATUS_CODES[status] ?? 'Error';
}

export function errorBody(status: number, message: string | string[], path: string, now: Date, code?: string): ErrorBody {
  const body: ErrorBody = { statusCode: status, message, timestamp: now.toISOString(), path, error: statusPhrase(status) };
  if (code) body.code = code;
  return body;
}
