/**
 * Whether the face on a document's portrait can be judged at all (issue 21 Deliver 3): a printed
 * portrait is small and often soft, and a descriptor of a face a few dozen pixels wide or smeared
 * says little about who it is. Below these limits the answer is a retake of the document (or of a
 * licence's front), never a match or a mismatch decided on a face the model cannot read.
 * Pure: takes face-analysis.ts's measurements.
 *
 * The limits (decision 0090) were measured on the tuning set's portraits printed smaller and
 * blurred: where face match's descriptor refuses more than about twice as many genuine pairs as
 * on a sharp portrait at full size, the portrait is retaken. Its descriptor loses a person fast:
 * at a face 48 px wide it refused 40 % of genuine pairs, at 80 px 11 %, from 110 px 6 %.
 */
import type { FaceMeasurement } from './face-analysis';

export const PORTRAIT_QUALITY = {
  /** Face width in pixels of the decoded document image (1600 px at most); the passport fixture's portrait is about 110. */
  minFaceWidthPx: 80,
  /** Laplacian variance of the aligned face the descriptor reads (face-embedding.ts); sharp portraits of 140 px and more score 130 and more. */
  minAlignedSharpness: 40,
} as const;

export function portraitReadable(face: Pick<FaceMeasurement, 'widthPx' | 'alignedSharpness'>, limits = PORTRAIT_QUALITY): boolean {
  return face.widthPx >= limits.minFaceWidthPx && (face.alignedSharpness ?? 0) >= limits.minAlignedSharpness;
}
