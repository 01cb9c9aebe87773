/**
 * The verify UI shows every refusal of its API in the page language (issue 23): it recognises the
 * server's English message (verify-ui/src/error-details.ts) and shows its own translation. This
 * test raises each error the UI can meet, as the server does, and checks that the UI recognises
 * it: a reworded message fails here instead of showing English on a German page. The messages
 * themselves are the API's and stay as they are.
 */
import { describe, expect, test } from 'bun:test';
import { KNOWN_API_ERRORS, recogniseApiError } from '../../../../verify-ui/src/error-details';
import type { AppError } from '../../errors/app-error';
import { HTTP_ERRORS } from '../../http/errors';
import { ENGINE_ERRORS } from '../engine/errors';
import { jpegComplexityProblem } from '../engine/image-decoding';
import { RATE_LIMIT_ERRORS } from '../rate-limits/errors';
import { SESSION_ERRORS } from '../sessions/errors';
import { VERIFY_ERRORS } from './errors';

/** Every error of the verify UI's routes, with the UI's key for it; null where the words vary and the UI shows its generic detail. */
const RAISED: Array<[AppError, string | null]> = [
  [VERIFY_ERRORS.SESSION_TOKEN_REQUIRED(), 'SESSION_TOKEN_REQUIRED'],
  [VERIFY_ERRORS.ONE_TOKEN_REQUIRED(), 'ONE_TOKEN_REQUIRED'],
  [VERIFY_ERRORS.HANDOFF_TOKEN_NOT_ALLOWED(), 'HANDOFF_TOKEN_NOT_ALLOWED'],
  [VERIFY_ERRORS.INVALID_SESSION_TOKEN(), 'INVALID_SESSION_TOKEN'],
  [VERIFY_ERRORS.INVALID_HANDOFF_TOKEN(), 'INVALID_HANDOFF_TOKEN'],
  [VERIFY_ERRORS.SESSION_ALREADY_COMPLETED({ status: 'verified' }), 'SESSION_ALREADY_COMPLETED'],
  [VERIFY_ERRORS.SESSION_ALREADY_COMPLETED({ status: 'cancelled' }), 'SESSION_ALREADY_COMPLETED'],
  [VERIFY_ERRORS.SESSION_ALREADY_COMPLETED({ status: null }), 'SESSION_ALREADY_COMPLETED'],
  [VERIFY_ERRORS.SIMULATE_LIVE_SESSION(), 'SIMULATE_LIVE_SESSION'],
  [VERIFY_ERRORS.SESSION_BILLING_BLOCKED(), 'SESSION_BILLING_BLOCKED'],
  [SESSION_ERRORS.SESSION_NOT_FOUND(), 'SESSION_NOT_FOUND'],
  [RATE_LIMIT_ERRORS.SESSION_RATE_LIMIT_EXCEEDED({ retryAfterSeconds: 12 }), 'SESSION_RATE_LIMIT_EXCEEDED'],
  [HTTP_ERRORS.VALIDATION_FAILED({ messages: ['sessionToken must be at most 200 characters long'] }), 'LINK_FIELD_INVALID'],
  [HTTP_ERRORS.VALIDATION_FAILED({ messages: ['sessionId must not be empty'] }), 'LINK_FIELD_INVALID'],
  [HTTP_ERRORS.VALIDATION_FAILED({ messages: ['outcome must be one of: verified, failed, cancelled'] }), null],
  [HTTP_ERRORS.BODY_TOO_LARGE({ maxBytes: 16384 }), 'BODY_TOO_LARGE'],
  [HTTP_ERRORS.ROUTE_NOT_FOUND({ method: 'POST', path: '/api/v1/verify/session' }), 'ROUTE_NOT_FOUND'],
  [HTTP_ERRORS.DATABASE_UNAVAILABLE(), 'SERVICE_UNAVAILABLE'],
  [HTTP_ERRORS.NOT_READY(), 'SERVICE_UNAVAILABLE'],
  [HTTP_ERRORS.INTERNAL_ERROR(), 'INTERNAL_ERROR'],
  [HTTP_ERRORS.MALFORMED_JSON({ reason: 'Unexpected end of JSON input' }), null],
  [ENGINE_ERRORS.NOT_MULTIPART({ path: '/api/v1/verify/checks' }), 'NOT_MULTIPART'],
  [ENGINE_ERRORS.IMAGE_TOO_LARGE({ part: 'selfie', maxBytes: 4_000_000 }), 'IMAGE_TOO_LARGE'],
  [ENGINE_ERRORS.MALFORMED_MULTIPART(), 'MALFORMED_MULTIPART'],
  [ENGINE_ERRORS.INVALID_SUBMISSION({ problems: ['sessionId is required'] }), 'LINK_FIELD_INVALID'],
  [ENGINE_ERRORS.INVALID_SUBMISSION({ problems: ['sessionToken must be 1 to 200 characters'] }), 'LINK_FIELD_INVALID'],
  [ENGINE_ERRORS.INVALID_SUBMISSION({ problems: ['check must be one of age_estimation, document'] }), null],
  [ENGINE_ERRORS.SELFIE_REQUIRED(), 'SELFIE_REQUIRED'],
  [ENGINE_ERRORS.DOCUMENT_FRONT_REQUIRED(), 'DOCUMENT_FRONT_REQUIRED'],
  [ENGINE_ERRORS.CHECK_SESSION_EXPIRED(), 'CHECK_SESSION_EXPIRED'],
  [ENGINE_ERRORS.CHECK_IN_PROGRESS(), 'CHECK_IN_PROGRESS'],
  [ENGINE_ERRORS.DOCUMENT_INSTEAD_NOT_ALLOWED(), 'DOCUMENT_INSTEAD_NOT_ALLOWED'],
  [ENGINE_ERRORS.DOCUMENT_INSTEAD_FACE_MATCH(), 'DOCUMENT_INSTEAD_FACE_MATCH'],
  [ENGINE_ERRORS.WRONG_CHECK({ expected: 'document' }), 'WRONG_CHECK'],
  [ENGINE_ERRORS.WRONG_CHECK({ expected: 'age_estimation' }), 'WRONG_CHECK'],
  [ENGINE_ERRORS.ENGINE_BUSY(), 'ENGINE_BUSY'],
  [ENGINE_ERRORS.ENGINE_TIMEOUT(), 'ENGINE_TIMEOUT'],
  [ENGINE_ERRORS.IMAGE_REFUSED({ problem: 'image took more than 3000 ms to decode' }), 'IMAGE_TOO_COMPLEX'],
  [ENGINE_ERRORS.IMAGE_REFUSED({ problem: 'image could not be decoded' }), null],
  // The liveness challenge's refusals carry their code, which the UI acts on (live-flow.ts: a new
  // challenge and a new capture, in the page language), so their words are never shown.
  [ENGINE_ERRORS.CHALLENGE_REQUIRED(), null],
  [ENGINE_ERRORS.CHALLENGE_NOT_CURRENT(), null],
  [ENGINE_ERRORS.CHALLENGE_EXPIRED(), null],
];

describe("the verify UI recognises its API's refusals (verify-ui/src/error-details.ts)", () => {
  for (const [error, key] of RAISED) {
    test(`${error.code}: ${JSON.stringify(error.message)} -> ${key ?? 'the generic detail'}`, () => {
      const recognised = recogniseApiError(error.message);
      expect(recognised?.key ?? null).toBe(key);
      if (key) expect(KNOWN_API_ERRORS.find((known) => known.key === key)?.codes).toContain(error.code);
    });
  }

  test('a progressive JPEG refused at submission (engine/image-decoding.ts words it) reads as a picture too complex', () => {
    // More scans (SOS markers) than image-decoding.ts allows, as a progressive JPEG can carry.
    const problem = jpegComplexityProblem(progressiveJpeg(), 'part selfie');
    expect(problem).not.toBeNull();
    expect(recogniseApiError(ENGINE_ERRORS.INVALID_SUBMISSION({ problems: [problem!] }).message)?.key).toBe('IMAGE_TOO_COMPLEX');
  });

  test('every code of the verify and engine modules is raised above: a new one needs a decision here', () => {
    const raised = new Set(RAISED.map(([error]) => error.code));
    expect(Object.keys(VERIFY_ERRORS).filter((code) => !raised.has(code))).toEqual([]);
    expect(Object.keys(ENGINE_ERRORS).filter((code) => !raised.has(code))).toEqual([]);
  });

  test("the UI's table names only codes the backend has", () => {
    const codes = new Set([
      ...Object.keys(VERIFY_ERRORS),
      ...Object.keys(ENGINE_ERRORS),
      ...Object.keys(SESSION_ERRORS),
      ...Object.keys(RATE_LIMIT_ERRORS),
      ...Object.keys(HTTP_ERRORS),
    ]);
    expect(KNOWN_API_ERRORS.flatMap((known) => known.codes).filter((code) => !codes.has(code))).toEqual([]);
  });
});

/** A JPEG with many scans: SOI, then SOS segments (each FF DA with a 2-byte length) and EOI. */
function progressiveJpeg(): Uint8Array {
  const bytes: number[] = [0xff, 0xd8];
  for (let scan = 0; scan < 500; scan++) bytes.push(0xff, 0xda, 0x00, 0x02, 0x00);
  bytes.push(0xff, 0xd9);
  return new Uint8Array(bytes);
}
