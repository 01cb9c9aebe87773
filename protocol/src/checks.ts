/**
 * The verify UI's submission API for live checks: what the UI sends the verification engine and
 * what the engine answers. The engine decides
 * everything on the server; the browser only captures and uploads.
 *
 * One request carries everything one decision needs, so no image or biometric template ever has
 * to be kept between requests: an L1 check sends selfie frames; a document check sends the
 * document image(s) and, when the session has face match on, the selfie frames with them. A
 * driving licence with face match on needs two document images: its PDF417 barcode is on the
 * back and its portrait on the front (issue 11 deliverable 2), see `needsDocumentFront`.
 *
 * Wire format: `POST /api/v1/verify/checks`, `multipart/form-data` with the text fields of
 * `CheckSubmissionFields` and the image parts named in `CHECK_IMAGE_PARTS`.
 */
import { LIVENESS_CAPTURE } from './liveness';
import type { CallbackStatus } from './session';

export const CHECK_KINDS = ['age_estimation', 'document'] as const;
/** `age_estimation`: L1 face age estimation. `document`: L2 ID document (+ face match when on). */
export type CheckKind = (typeof CHECK_KINDS)[number];

export const DOCUMENT_TYPES = ['passport', 'id_card', 'driving_licence'] as const;
/** What the user said they hold: passports and ID cards are read from the MRZ, licences from the PDF417 barcode. */
export type DocumentType = (typeof DOCUMENT_TYPES)[number];

/** Names of the multipart image parts. */
export const CHECK_IMAGE_PARTS = {
  /** Selfie frames of one short burst, oldest first. */
  selfie: 'selfie',
  /** The MRZ page, or for a driving licence the side with the PDF417 barcode. */
  document: 'document',
  /**
   * For a driving licence when face match is on: the side with the portrait (the front). Required
   * then, refused for the other document types (their portrait is on the `document` image) and
   * ignored, like the selfie, when face match is off.
   */
  documentFront: 'documentFront',
} as const;

/**
 * Whether a document check needs the `documentFront` part: a driving licence with face match on,
 * because the barcode read for the dates is on the back and the portrait compared with the selfie
 * is on the front. Passports and ID cards carry both on the `document` image.
 */
export function needsDocumentFront(documentType: DocumentType, faceMatch: boolean): boolean {
  return documentType === 'driving_licence' && faceMatch;
}

/** Text fields of the multipart submission. Exactly one of sessionToken (desktop) or handoffToken (phone). */
export interface CheckSubmissionFields {
  sessionId: string;
  sessionToken?: string;
  handoffToken?: string;
  check: CheckKind;
  /** Required when check is `document`. */
  documentType?: DocumentType;
  /** Required with selfie parts: the liveness challenge they answer (protocol/src/liveness.ts). */
  challengeId?: string;
  /** Required with selfie parts: the challenge step of each selfie part, comma-separated ("0,0,1,1,1,2,2,2"). */
  selfieSteps?: string;
}

/** Limits of one submission; larger or more parts are refused with 413 / 400 before any decoding. */
export const CHECK_LIMITS = {
  /** Frames of one liveness challenge: the baseline and every move (protocol/src/liveness.ts). */
  maxSelfieFrames: LIVENESS_CAPTURE.baselineFrames + 2 * LIVENESS_CAPTURE.framesPerMove,
  /** Images in each document part (`document`, `documentFront`): one each, so at most two in all. */
  maxDocumentImages: 1,
  /** Bytes of one image part. */
  maxImageBytes: 4 * 1024 * 1024,
  /** Bytes of the whole multipart body. */
  maxSubmissionBytes: 12 * 1024 * 1024,
  /** Pixels of one decoded image (width × height); decompression bombs stop here. */
  maxImagePixels: 24_000_000,
  /** Image types accepted (sniffed from the bytes, not the part's declared type). */
  imageTypes: ['image/jpeg', 'image/png', 'image/webp'],
} as const;

/**
 * Quality problems the user can fix by capturing again. The UI translates the code; it never shows
 * engine internals.
 */
export const RETRY_HINTS = [
  'no_face', // "We could not see a face"
  'multiple_faces', // "Only one face, please"
  'face_too_small', // "Move closer"
  'face_not_centered', // "Centre your face in the frame"
  'face_not_frontal', // "Look straight at the camera"
  'too_dark', // "More light, please"
  'too_blurry', // "Hold still"
  'document_not_found', // "We could not find the document in the picture"
  'document_unreadable', // "We could not read the document: avoid glare, fill the frame"
  'document_front_unreadable', // licence front (documentFront): "We could not see the photo on the front of your licence"
  'image_unreadable', // "The picture could not be opened; take it again"
  'challenge_not_followed', // liveness challenge: "Turn your head as the arrow shows, then back"
  'face_changed', // liveness challenge: "Keep the same face in view for the whole capture"
] as const;
export type RetryHint = (typeof RETRY_HINTS)[number];

/**
 * The picture a `retry` is about, named by the engine (issue 25 item 1): a hint such as `too_dark`
 * can concern the selfie or the document of the same document check, so the UI must not guess.
 */
export const CAPTURE_PARTS = ['selfie', 'document', 'documentFront'] as const satisfies readonly (keyof typeof CHECK_IMAGE_PARTS)[];
export type CapturePart = (typeof CAPTURE_PARTS)[number];

/**
 * Reasons of `verification.failed` (spec gives `age_not_met`; the engine adds the rest; `cancelled`
 * is the reason of `verification.cancelled`).
 */
export const FAILURE_REASONS = [
  'age_not_met', // the face or the document shows the user below the threshold
  'document_invalid', // a check digit fails, or the document is not a valid passport / ID / licence
  'document_expired', // the document's expiry date has passed
  'face_mismatch', // the selfie is not the person on the document (face match on)
  'liveness_failed', // the selfie frames look like a photo of a photo or a screen
  'too_many_attempts', // the attempt caps of CHECK_ATTEMPT_LIMITS were reached
] as const;
export type FailureReason = (typeof FAILURE_REASONS)[number];

/** Caps per session, so nobody can try photos until one passes. */
export const CHECK_ATTEMPT_LIMITS = {
  /** Submissions answered `retry` (fixable quality problems). */
  qualityRetries: 5,
  /**
   * Submissions that reached an age or document decision. A backstop: with today's checks only
   * `step_up` leaves the session pending, and only once, so this cap does not bind.
   */
  decisions: 3,
} as const;

/** What the engine answers; the UI's next step follows from `decision`. */
export type CheckResult =
  | { decision: 'verified'; status: Extract<CallbackStatus, 'verified'>; redirectUrl: string }
  | { decision: 'failed'; status: Extract<CallbackStatus, 'failed'>; reason: FailureReason; redirectUrl: string }
  /** Capture `part` again; `attemptsLeft` counts the quality retries still allowed. */
  | { decision: 'retry'; hint: RetryHint; part: CapturePart; attemptsLeft: number }
  /** L1 was inconclusive: continue with an ID document in the same session (the tenant allows step-up). */
  | { decision: 'step_up'; next: 'document' };

export type CheckDecision = CheckResult['decision'];
