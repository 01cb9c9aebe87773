/**
 * Error codes of the live-check submission API (modules/engine). Refusals shared with the rest of
 * the verify UI's API (billing block, completed session, rate limit) use those modules' codes.
 */
import type { CheckKind } from '@ageverify/protocol';
import { defineErrors } from '../../errors/app-error';

export const ENGINE_ERRORS = defineErrors({
  NOT_MULTIPART: { status: 415, message: (p: { path: string }) => `Content-Type must be multipart/form-data on ${p.path}` },
  IMAGE_TOO_LARGE: { status: 413, message: (p: { part: string; maxBytes: number }) => `Image part ${p.part} is larger than ${p.maxBytes} bytes` },
  MALFORMED_MULTIPART: { status: 400, message: 'Malformed multipart body' },
  // Field problems read like validation messages (an array), as the JSON routes' do.
  INVALID_SUBMISSION: { status: 400, message: (p: { problems: string[] }) => p.problems },
  SELFIE_REQUIRED: { status: 400, message: ['at least one selfie part is required: this session has face match on'] },
  DOCUMENT_FRONT_REQUIRED: {
    status: 400,
    message: ['a documentFront part is required: this session has face match on, and a driving licence shows its portrait on the front'],
  },
  CHECK_SESSION_EXPIRED: { status: 409, message: 'Session has expired' },
  // One check at a time per session (check-claim.ts): the second of two parallel submissions.
  CHECK_IN_PROGRESS: { status: 409, message: 'A check is already running on this session; wait for its answer before sending another' },
  WRONG_CHECK: { status: 409, message: (p: { expected: CheckKind }) => `This session expects ${/^[aeiou]/.test(p.expected) ? 'an' : 'a'} ${p.expected} check` },
  ENGINE_BUSY: { status: 503, message: 'The verification engine is busy; retry shortly' },
  // Issue 22, finding 3: a job past its time limit (engine-pool.ts) is never a 500.
  ENGINE_TIMEOUT: { status: 503, message: 'The verification engine did not finish in time; retry shortly' },
  IMAGE_REFUSED: { status: 400, message: (p: { problem: string }) => [p.problem] },
  // The liveness challenge (decision 0062): the code is in the body because the verify UI acts on
  // it (protocol CHALLENGE_ERROR_CODES): it asks for a new challenge and captures again.
  CHALLENGE_REQUIRED: {
    status: 400,
    message: ['challengeId and selfieSteps are required with selfie parts: ask POST /api/v1/verify/challenges for a liveness challenge first'],
    exposeCode: true,
  },
  CHALLENGE_NOT_CURRENT: {
    status: 409,
    message: "This liveness challenge is not the session's current one (it was used, replaced or never issued); ask for a new one",
    exposeCode: true,
  },
  CHALLENGE_EXPIRED: { status: 409, message: 'This liveness challenge has expired; ask for a new one', exposeCode: true },
  // A user without a camera continues an L1 session with a document (document-instead.ts,
  // decision 0063): only where the check it leaves out could have been left out anyway.
  DOCUMENT_INSTEAD_NOT_ALLOWED: {
    status: 403,
    message: 'This session cannot continue with a document instead of the face check: its account does not allow step-up',
  },
  DOCUMENT_INSTEAD_FACE_MATCH: {
    status: 403,
    message: 'This session has face match on, which needs a selfie from a live camera: continue on a device with a camera',
  },
});
