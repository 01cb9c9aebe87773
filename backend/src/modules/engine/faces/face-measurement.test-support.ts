/** A face measurement every quality limit passes (face-quality.ts), for tests to change one field of. */
import type { FaceMeasurement } from './face-analysis';
import type { CohortStats } from './face-match';

export const GOOD_FACE: FaceMeasurement = {
  box: [0.3, 0.25, 0.4, 0.5],
  widthPx: 256,
  detectorScore: 0.9,
  yaw: 3,
  pitch: -4,
  roll: 1,
  brightness: 120,
  sharpness: 200,
  estimatedAge: 40,
  antispoof: 0.7,
  liveness: 0.9,
};

/** Cohort statistics under which any pair that clears the raw thresholds is far above strangers (face-cohort.ts). */
export const UNCROWDED: CohortStats = { faceres: { mean: 0, spread: 0.01 }, recognition: { mean: -1, spread: 0.01 } };
