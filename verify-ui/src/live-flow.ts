import {
  CHALLENGE_ERROR_CODES,
  needsDocumentFront,
  type CapturePart,
  type CheckKind,
  type CheckResult,
  type DocumentType,
  type RetryHint,
  type VerifySessionView,
} from '@ageverify/protocol';
import type { ApiFailure } from './api';
import type { ChallengeFrames } from './liveness-capture';

/**
 * The steps of a live check inside <age-verify-live> (the app's `check` state of a live session).
 * Pure: every function takes the current step and context and returns the next ones; the element
 * applies them. The engine decides everything (protocol/src/checks.ts); the page only captures and
 * uploads, and keeps the captured images in memory until one submission has carried them.
 *
 *   L1:  camera-intro(selfie) ─Allow─> camera(selfie) ─challenge─> uploading ─┬─ verified / failed ──> finish
 *                                                                             ├─ retry(hint) ─Take again─> camera(…)
 *                                                                             └─ step_up ──> step-up ──> choose-document
 *   L2 (or nextCheck=document after a reload):
 *        choose-document ──> camera-intro(document) ──> camera(document) ──> [front] ─┬─ face match on ─> camera-intro(selfie) ─> camera(selfie) ─> uploading
 *                                                                                     └─ otherwise ─> uploading
 *        [front]: a driving licence with face match on (protocol needsDocumentFront) has its barcode on
 *        the back, pictured first as `document`, and its portrait on the front:
 *        camera-intro(documentFront) ──> camera(documentFront); other documents skip it.
 *   camera(selfie): the server's liveness challenge (liveness-capture.ts); no challenge could be had ──> challenge-failed ─Try again─> camera(selfie)
 *   uploading ─409 with a challenge code (replayed, superseded, late)─> challenge-renewed ─> camera(selfie): a new challenge, no attempt counted
 *   camera refused or missing ──> camera-blocked: how to allow it; a document by photo upload; a selfie
 *        never (issue 19 Deliver 2: only the live camera): the desktop's QR panel, or another device;
 *        on an L1 face check whose session allows it (documentInstead), an ID document instead:
 *        camera-blocked(selfie) ─Continue with an ID document─> choose-document (documents by upload)
 *   upload failed (network, 5xx) ──> send-failed ─Send again─> uploading (same images)
 *
 * Selfie frames answer one challenge, which the server consumes when it claims the check (decision
 * 0062). So every answer of the engine drops them: a retry of the document, or a step-up with face
 * match on, asks for a new selfie (with a new challenge) after the document.
 */
/** `document`: the MRZ page, or a licence's back (barcode). `documentFront`: a licence's front (portrait), for face match. */
export type CapturePurpose = CapturePart;
/** The pictures that can also come from a photo upload: documents, never the selfie. */
export type DocumentPurpose = Exclude<CapturePurpose, 'selfie'>;

export type LiveStep =
  | { kind: 'camera-intro'; purpose: CapturePurpose }
  | { kind: 'choose-document' }
  | { kind: 'camera'; purpose: CapturePurpose }
  | { kind: 'camera-blocked'; purpose: CapturePurpose; reason: CameraProblem }
  | { kind: 'uploading'; progress: number }
  | { kind: 'retry'; purpose: CapturePurpose; hint: RetryHint; attemptsLeft: number }
  | { kind: 'step-up' }
  | { kind: 'send-failed'; failure: ApiFailure }
  /** The selfie's challenge could not be had (network, 5xx, a refusal): "Try again" opens the camera. */
  | { kind: 'challenge-failed'; failure: ApiFailure }
  /** The server refused the selfie's challenge (CHALLENGE_ERROR_CODES): say so, then a new capture. */
  | { kind: 'challenge-renewed' };

export const CameraProblem = {
  /** The user or the browser's settings refused access (NotAllowedError, SecurityError). */
  denied: 'denied',
  /** No camera, the camera is busy, or this browser has no getUserMedia. */
  unavailable: 'unavailable',
} as const;
export type CameraProblem = (typeof CameraProblem)[keyof typeof CameraProblem];

export interface LiveContext {
  check: CheckKind;
  faceMatch: boolean;
  documentType: DocumentType | null;
  /** The frames of the current challenge; null until taken, and again once a submission used them. */
  selfie: ChallengeFrames | null;
  document: Blob | null;
  /** A licence's front, when face match needs it (protocol needsDocumentFront). */
  documentFront: Blob | null;
  /** Once the camera failed, "take again" goes to the camera-blocked screen (documents by upload), not to the camera. */
  cameraUnusable: boolean;
}

/** A finished check, handed to the app, which takes the user back (merchant-return.ts). */
export type FinishedCheck = Extract<CheckResult, { decision: 'verified' | 'failed' }>;

export type LiveTransition =
  | { kind: 'step'; step: LiveStep; context: LiveContext }
  | { kind: 'submit'; context: LiveContext }
  | { kind: 'finish'; result: FinishedCheck };

/** Where a live check starts: the check the server expects next (`nextCheck`), so a reload after a step-up resumes at the document. */
export function startLive(session: Pick<VerifySessionView, 'nextCheck' | 'verificationMode' | 'faceMatchEnabled'>): { step: LiveStep; context: LiveContext } {
  const check: CheckKind = session.nextCheck ?? (session.verificationMode === 'L2' ? 'document' : 'age_estimation');
  const context: LiveContext = {
    check,
    faceMatch: session.faceMatchEnabled,
    documentType: null,
    selfie: null,
    document: null,
    documentFront: null,
    cameraUnusable: false,
  };
  return { step: check === 'document' ? { kind: 'choose-document' } : { kind: 'camera-intro', purpose: 'selfie' }, context };
}

/** The step that takes a picture for `purpose`: the camera, or the camera-blocked screen once the camera failed. */
export function captureStep(context: LiveContext, purpose: CapturePurpose): LiveStep {
  return context.cameraUnusable ? { kind: 'camera-blocked', purpose, reason: CameraProblem.unavailable } : { kind: 'camera', purpose };
}

export function afterDocumentChosen(context: LiveContext, documentType: DocumentType): LiveTransition {
  return {
    kind: 'step',
    step: context.cameraUnusable ? captureStep(context, 'document') : { kind: 'camera-intro', purpose: 'document' },
    // Another document type than before: a licence front taken for it no longer belongs.
    context: { ...context, documentType, documentFront: documentType === context.documentType ? context.documentFront : null },
  };
}

/** The step that asks for a second picture: its explanation first, or straight to the upload fallback once the camera failed. */
function introOrCapture(context: LiveContext, purpose: CapturePurpose): LiveStep {
  return context.cameraUnusable ? captureStep(context, purpose) : { kind: 'camera-intro', purpose };
}

/** A document picture taken (by the camera or the upload fallback): ask for what is still missing, else submit. */
export function afterCapture(context: LiveContext, purpose: DocumentPurpose, images: readonly Blob[]): LiveTransition {
  if (images.length === 0) throw new Error(`Expected at least one image for ${purpose}, got none`);
  return nextAfterPicture(purpose === 'document' ? { ...context, document: images[0] ?? null } : { ...context, documentFront: images[0] ?? null });
}

/** The frames of a liveness challenge, from the live camera only (issue 19 Deliver 2). */
export function afterSelfie(context: LiveContext, selfie: ChallengeFrames): LiveTransition {
  if (selfie.frames.length === 0) throw new Error('Expected at least one selfie frame, got none');
  return nextAfterPicture({ ...context, selfie });
}

function nextAfterPicture(next: LiveContext): LiveTransition {
  if (next.check === 'age_estimation') return { kind: 'submit', context: next };
  if (!next.documentType) return { kind: 'step', step: { kind: 'choose-document' }, context: next };
  if (!next.document) return { kind: 'step', step: captureStep(next, 'document'), context: next };
  if (needsDocumentFront(next.documentType, next.faceMatch) && !next.documentFront) {
    return { kind: 'step', step: introOrCapture(next, 'documentFront'), context: next };
  }
  if (next.faceMatch && !next.selfie) return { kind: 'step', step: introOrCapture(next, 'selfie'), context: next };
  return { kind: 'submit', context: next };
}

/** The camera could not be opened: explain; documents come by upload from now on, a selfie not at all (camera-blocked says what to do). */
export function afterCameraProblem(context: LiveContext, purpose: CapturePurpose, reason: CameraProblem): LiveTransition {
  return { kind: 'step', step: { kind: 'camera-blocked', purpose, reason }, context: { ...context, cameraUnusable: true } };
}

/**
 * The server moved the session from its face check to the document (POST /verify/document-instead,
 * decision 0063): the user has no camera, so the documents come by photo upload.
 */
export function afterDocumentInstead(context: LiveContext): LiveTransition {
  return { kind: 'step', step: { kind: 'choose-document' }, context: { ...atDocumentStage(context), cameraUnusable: true } };
}

/**
 * The same session, now a document check, with nothing of the face check kept: its frames answered
 * a challenge the server consumed, so face match asks for a new selfie after the document (decision 0062).
 */
function atDocumentStage(context: LiveContext): LiveContext {
  return { ...context, check: 'document', documentType: null, document: null, documentFront: null, selfie: null };
}

/** The engine's answer (protocol/src/checks.ts CheckResult). */
export function afterResult(context: LiveContext, result: CheckResult): LiveTransition {
  switch (result.decision) {
    case 'verified':
    case 'failed':
      return { kind: 'finish', result };
    case 'retry': {
      // The engine names the picture (issue 25 item 1): a dark selfie in a document check is the selfie's problem.
      const purpose = result.part;
      // The picture named is dropped, and the selfie too: its challenge was used (decision 0062); a document is still good.
      const used: LiveContext = { ...context, selfie: null };
      const next: LiveContext = purpose === 'document' ? { ...used, document: null } : purpose === 'documentFront' ? { ...used, documentFront: null } : used;
      return { kind: 'step', step: { kind: 'retry', purpose, hint: result.hint, attemptsLeft: result.attemptsLeft }, context: next };
    }
    case 'step_up':
      return { kind: 'step', step: { kind: 'step-up' }, context: atDocumentStage(context) };
  }
}

/** Whether a refused submission is the server refusing the selfie's challenge (protocol/src/liveness.ts): take it again, no attempt lost. */
export function isChallengeRefusal(failure: ApiFailure): boolean {
  return failure.kind === 'http' && failure.status === 409 && (CHALLENGE_ERROR_CODES as readonly string[]).includes(failure.code ?? '');
}

/**
 * A submission that got no decision: a refused challenge means a new selfie (the frames are dropped,
 * the document kept); anything else offers "Send again" with the same pictures.
 */
export function afterSubmitFailed(context: LiveContext, failure: ApiFailure): LiveTransition {
  if (isChallengeRefusal(failure)) return { kind: 'step', step: { kind: 'challenge-renewed' }, context: { ...context, selfie: null } };
  return { kind: 'step', step: { kind: 'send-failed', failure }, context };
}
