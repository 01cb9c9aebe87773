/**
 * The HTTP schemas of `POST /api/v1/verify/checks` (protocol/src/checks.ts): what the OpenAPI
 * document shows and what responses are checked against. The multipart body itself is read by
 * check-submission.ts, so the request body is described here rather than validated by Elysia.
 */
import { t } from 'elysia';
import {
  CAPTURE_PARTS,
  CHALLENGE_MOVES,
  CHECK_IMAGE_PARTS,
  CHECK_KINDS,
  CHECK_LIMITS,
  DOCUMENT_TYPES,
  FAILURE_REASONS,
  LIVENESS_CAPTURE,
  RETRY_HINTS,
} from '@ageverify/protocol';
import { literalUnion } from '../../http/literal-union';

const redirectUrl = t.String({ description: 'The returnUrl with sessionId, status and timestamp appended: where the UI sends the user.' });

/** CheckResult: the UI's next step follows from `decision`. */
export const checkResult = t.Union(
  [
    t.Object({
      decision: t.Literal('verified', { description: 'The check passed; the session is VERIFIED.' }),
      status: t.Literal('verified', { description: 'The callback status the merchant receives.' }),
      redirectUrl,
    }),
    t.Object({
      decision: t.Literal('failed', { description: 'The check failed; the session is FAILED (verification.failed).' }),
      status: t.Literal('failed', { description: 'The callback status the merchant receives.' }),
      reason: literalUnion(FAILURE_REASONS, { description: 'Why the session failed.' }),
      redirectUrl,
    }),
    t.Object({
      decision: t.Literal('retry', { description: 'A quality problem the user can fix: capture again.' }),
      hint: literalUnion(RETRY_HINTS, { description: 'What to tell the user, as a code the UI translates.' }),
      part: literalUnion(CAPTURE_PARTS, { description: 'The picture to take again: the selfie, the document, or the front of a driving licence.' }),
      attemptsLeft: t.Number({ description: 'Quality retries still allowed in this session.' }),
    }),
    t.Object({
      decision: t.Literal('step_up', { description: 'The face estimate was inconclusive: continue with an ID document in the same session.' }),
      next: t.Literal('document', { description: 'The check the session expects next.' }),
    }),
  ],
  { description: 'What the engine decided.', examples: [{ decision: 'retry', hint: 'face_too_small', part: 'selfie', attemptsLeft: 4 }] },
);

const binary = (description: string) => ({ type: 'string', format: 'binary', description });

/** The multipart request body as the OpenAPI document shows it. */
export const checkRequestBody = {
  required: true,
  description: `Captured images and the session's credentials. At most ${CHECK_LIMITS.maxDocumentImages} image per document part, ${CHECK_LIMITS.maxSelfieFrames} selfie frames, and ${CHECK_LIMITS.maxSubmissionBytes} bytes in all, ${CHECK_LIMITS.maxImageBytes} per image, ${CHECK_LIMITS.maxImagePixels} pixels per decoded image; JPEG, PNG or WebP.`,
  content: {
    'multipart/form-data': {
      schema: {
        type: 'object',
        required: ['sessionId', 'check'],
        properties: {
          sessionId: { type: 'string', maxLength: 64, description: 'The session, as returned by /sessions/create.' },
          sessionToken: { type: 'string', maxLength: 200, description: 'The desktop credential. Send it or handoffToken, not both.' },
          handoffToken: { type: 'string', maxLength: 200, description: 'The phone credential from the QR code. Send it or sessionToken, not both.' },
          check: {
            type: 'string',
            enum: [...CHECK_KINDS],
            description: 'age_estimation (L1 face) or document (L2 ID document, with face match when the session has it on).',
          },
          documentType: { type: 'string', enum: [...DOCUMENT_TYPES], description: 'Required when check is document.' },
          challengeId: {
            type: 'string',
            maxLength: 64,
            description: 'The liveness challenge the selfie frames answer (POST /api/v1/verify/challenges). Required with selfies the engine looks at.',
          },
          selfieSteps: {
            type: 'string',
            pattern: '^\\d{1,2}(,\\d{1,2})*$',
            description: `The challenge step of each selfie part, comma-separated, in the parts' order: 0 while looking at the camera, k while making the challenge's k-th move (for example "0,0,1,1,1,2,2,2"). Required with challengeId.`,
          },
          [CHECK_IMAGE_PARTS.selfie]: {
            type: 'array',
            maxItems: CHECK_LIMITS.maxSelfieFrames,
            items: binary('One frame of the liveness challenge, in capture order.'),
            description: 'Required for age_estimation, and for document when face match is on.',
          },
          [CHECK_IMAGE_PARTS.document]: binary(
            'The MRZ page of a passport or ID card, or the PDF417 side (the back) of a driving licence. Required for document.',
          ),
          [CHECK_IMAGE_PARTS.documentFront]: binary(
            'For a driving licence when face match is on: the side with the portrait (the front), compared with the selfie. ' +
              'Required then; refused with any other documentType; not looked at when face match is off.',
          ),
        },
      },
    },
  },
};

/** protocol LivenessChallenge. */
export const challengeResult = t.Object(
  {
    challengeId: t.String({ description: 'Send it with the selfie frames that answer this challenge; it is used once.' }),
    moves: t.Array(literalUnion(CHALLENGE_MOVES, { description: "A turn of the head, in the user's own terms." }), {
      description: 'The moves after looking at the camera, in order.',
    }),
    expiresAt: t.String({ format: 'date-time', description: `The check must be submitted before this (${LIVENESS_CAPTURE.ttlSeconds} s after issue).` }),
  },
  {
    description: 'A liveness challenge bound to the session.',
    examples: [{ challengeId: '6f1c2a4e-1b7d-4c1e-9a39-2a3e0c9f5d10', moves: ['right', 'left'], expiresAt: '2026-11-25T10:01:30.000Z' }],
  },
);
