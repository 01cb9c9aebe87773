/**
 * What the engine's workers report (measurements, no decisions) and what a decision is. Shared by
 * the worker, the pure decision functions and the check service. No image bytes are ever part of
 * these: findings are numbers and dates (issue 10: images are never stored).
 */
import type { CapturePart, DocumentType, FailureReason, RetryHint } from '@ageverify/protocol';
import type { FaceAnalysis } from './faces/face-analysis';
import type { MrzReading } from './documents/mrz-reading';
import type { Pdf417Reading } from './documents/pdf417-reading';

/** A frame that could not be decoded is a finding too (image_unreadable), not an exception. */
export type FrameFindings = FaceAnalysis | { unreadable: true };

export interface AgeFindings {
  kind: 'age_estimation';
  frames: FrameFindings[];
}

export interface DocumentFindings {
  kind: 'document';
  documentType: DocumentType;
  /** null: the document image could not be decoded. */
  reading: ({ source: 'mrz' } & MrzReading) | ({ source: 'pdf417' } & Pdf417Reading) | null;
  /** The face on the document, when face match is on. */
  portrait: FaceAnalysis | null;
  /** Selfie frames, with descriptors, when face match is on. */
  frames: FrameFindings[];
}

export type EngineFindings = AgeFindings | DocumentFindings;

/** Milliseconds spent per step inside the worker. */
export type Timings = Record<string, number>;

export type EngineDecision =
  | { decision: 'verified' }
  | { decision: 'failed'; reason: FailureReason }
  /** `part`: the picture to take again (protocol CapturePart). */
  | { decision: 'retry'; hint: RetryHint; part: CapturePart }
  | { decision: 'step_up' };

/** The session's stored policy plus the tenant settings a decision needs (docs/decisions-on-open-points.md). */
export interface DecisionPolicy {
  challengeAge: number;
  /** Years the L1 estimate must clear challengeAge by (config L1_AGE_MARGIN, decision 0031). */
  l1Margin: number;
  stepUpAllowed: boolean;
  legalMinimumAge: number;
  faceMatchEnabled: boolean;
}
