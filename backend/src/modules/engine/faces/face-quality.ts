/**
 * Whether a selfie frame is good enough to decide on, and if not, what the user can fix (the retry
 * hints of protocol/src/checks.ts). Pure: takes the measurements of face-analysis.ts. The limits are
 * deliberately loose; they stop pictures the models are known to misjudge (tiny, turned or dark
 * faces), not ordinary selfies. Calibrated on the astronaut fixture and UTKFace (docs/verification.md);
 * the face's width in pixels was added for issue 19, chosen on the tuning split of docs/verification.md
 * "L1 on the London set: multi-frame rule".
 */
import type { RetryHint } from '@ageverify/protocol';
import type { FaceAnalysis } from './face-analysis';

export const FACE_QUALITY = {
  /** Face width as a share of the image width. */
  minFaceWidth: 0.12,
  /**
   * Face width in pixels of the decoded image (at most 640 px a side, never enlarged, so the capture
   * had at least as many). ageGenderNet reads a 112 px crop; below this the estimate's error and
   * the disagreement between its views grow (issue 19; measured in docs/verification.md).
   */
  minFaceWidthPx: 100,
  /** Distance of the face centre from the image centre, as a share of the image size (each axis). */
  maxCentreOffset: 0.3,
  /** Head turn and nod, degrees (from the face mesh). */
  maxYawDegrees: 30,
  maxPitchDegrees: 30,
  /** Mean luminance of the face, 0–255. */
  minBrightness: 45,
  /** Laplacian variance of the face region (image-decoding.ts); a sharp 640 px selfie scores in the hundreds. */
  minSharpness: 12,
} as const;

export function faceQualityHint(analysis: FaceAnalysis, limits = FACE_QUALITY): RetryHint | null {
  if (analysis.faceCount === 0 || !analysis.face) return 'no_face';
  if (analysis.faceCount > 1) return 'multiple_faces';
  const { box, yaw, pitch, brightness, sharpness } = analysis.face;
  const [x, y, width, height] = box;
  if (width < limits.minFaceWidth || analysis.face.widthPx < limits.minFaceWidthPx) return 'face_too_small';
  if (Math.abs(x + width / 2 - 0.5) > limits.maxCentreOffset || Math.abs(y + height / 2 - 0.5) > limits.maxCentreOffset) return 'face_not_centered';
  // A pose the mesh could not give is not taken as frontal (issue 25 item 5).
  if (yaw === null || pitch === null || Math.abs(yaw) > limits.maxYawDegrees || Math.abs(pitch) > limits.maxPitchDegrees) return 'face_not_frontal';
  if (brightness < limits.minBrightness) return 'too_dark';
  if (sharpness < limits.minSharpness) return 'too_blurry';
  return null;
}
