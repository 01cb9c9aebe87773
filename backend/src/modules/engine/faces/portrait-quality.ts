/**
 * Whether the face on a document's portrait can be judged at all (issue 21 Deliver 3): a printed
 * portrait is small and often soft, and a descriptor of a face a few dozen pixels wide or smeared
 * by motion says little about who it is. Below these limits the answer is a retake of the document
 * (or of a licence's front), never a match or a mismatch decided on a face the model cannot read.
 * Pure: takes face-analysis.ts's measurements. Limits in decision 0046-portrait-quality-gate.md.
 */
import type { FaceMeasurement } from './face-analysis';

export const PORTRAIT_QUALITY = {
  /** Face width in pixels of the decoded document image; the passport fixture's portrait is about 110. */
  minFaceWidthPx: 48,
  /** Laplacian variance of the face region (image-decoding.ts); the fixtures' sharp portraits score 300 and more. */
  minSharpness: 20,
} as const;

export function portraitReadable(face: Pick<FaceMeasurement, 'widthPx' | 'sharpness'>, limits = PORTRAIT_QUALITY): boolean {
  return face.widthPx >= limits.minFaceWidthPx && face.sharpness >= limits.minSharpness;
}
