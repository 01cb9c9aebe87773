import { describe, expect, test } from 'bun:test';
import { FACE_MATCH_MIN_SIMILARITY, FACE_RECOGNITION_MIN_CLOSENESS } from '../modules/engine/faces/face-match';
import { UNCROWDED } from '../modules/engine/faces/face-measurement.test-support';
import { FUSION_NORMS, pairScore } from './pair-scores';

const unit = (x: number) => [x, Math.sqrt(1 - x * x)];

describe('pair scores (issue 21)', () => {
  test('faceres is the cosine, aligned is 1 − Euclidean distance', () => {
    expect(pairScore('faceres', { faceres: [1, 0], aligned: null }, { faceres: unit(0.8), aligned: null })).toBeCloseTo(0.8);
    expect(pairScore('aligned', { faceres: null, aligned: [0, 0] }, { faceres: null, aligned: [0.3, 0.4] })).toBeCloseTo(0.5);
  });

  test("both is the engine's rule: the lowest margin over the thresholds, negative when either model refuses; without cohort statistics, no score", () => {
    const cohort = UNCROWDED;
    const a = { faceres: [1, 0], aligned: [0, 0], cohort };
    expect(
      pairScore('both', a, { faceres: unit(FACE_MATCH_MIN_SIMILARITY + 0.2), aligned: [1 - (FACE_RECOGNITION_MIN_CLOSENESS + 0.05), 0], cohort }),
    ).toBeCloseTo(0.05);
    expect(pairScore('both', a, { faceres: unit(FACE_MATCH_MIN_SIMILARITY - 0.1), aligned: [0, 0], cohort })).toBeCloseTo(-0.1);
    expect(pairScore('both', a, { faceres: unit(0.9), aligned: null, cohort })).toBeNull();
    expect(pairScore('both', a, { faceres: unit(0.9), aligned: [0, 0], cohort: null })).toBeNull();
  });

  test('fusion averages the two in units of their different-person spread; a missing descriptor gives no score', () => {
    const a = { faceres: [1, 0], aligned: [0, 0] };
    const b = {
      faceres: unit(FUSION_NORMS.faceres.mean + 2 * FUSION_NORMS.faceres.spread),
      aligned: [1 - (FUSION_NORMS.aligned.mean + 4 * FUSION_NORMS.aligned.spread), 0],
    };
    expect(pairScore('fusion', a, b)).toBeCloseTo(3, 5);
    expect(pairScore('fusion', a, { ...b, aligned: null })).toBeNull();
  });
});
