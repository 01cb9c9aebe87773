/** A face measurement every quality limit passes (face-quality.ts), for tests to change one field of. */
import type { FaceMeasurement } from './face-analysis';

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
