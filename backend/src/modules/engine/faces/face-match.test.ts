import { describe, expect, test } from 'bun:test';
import {
  FACE_COPY_MIN_SIMILARITY,
  FACE_MATCH_MIN_NORMALISED,
  FACE_MATCH_MIN_SIMILARITY,
  FACE_RECOGNITION_MIN_CLOSENESS,
  matchFrames,
  matchMargin,
} from './face-match';

/** A unit vector at cosine `similarity` to [1, 0]. */
const cosineAt = (similarity: number) => [similarity, Math.sqrt(1 - similarity ** 2)];
/** A point at closeness `value` (1 − Euclidean distance) from [0, 0]. */
const closenessAt = (value: number) => [1 - value, 0];
/** Cohort statistics under which every score here is far above strangers' (the normalised thresholds never bind). */
const distinct = { faceres: { mean: 0, spread: 0.01 }, recognition: { mean: -1, spread: 0.01 } };
const portrait = { faceres: [1, 0], recognition: [0, 0], cohort: distinct };
/** A selfie frame whose two scores against the portrait are `faceres` and `recognition`. */
const frame = (faceres: number, recognition = 0.8, cohort = distinct) => ({ faceres: cosineAt(faceres), recognition: closenessAt(recognition), cohort });

describe('matchMargin: each model can refuse (decision 0064)', () => {
  test('both above their thresholds: the lower margin, positive', () =>
    expect(matchMargin(portrait, frame(FACE_MATCH_MIN_SIMILARITY + 0.1, FACE_RECOGNITION_MIN_CLOSENESS + 0.05))).toBeCloseTo(0.05));
  test('faceres alone says the same person: refused', () => expect(matchMargin(portrait, frame(0.95, FACE_RECOGNITION_MIN_CLOSENESS - 0.01))).toBeLessThan(0));
  test('the aligned model alone says the same person: refused', () =>
    expect(matchMargin(portrait, frame(FACE_MATCH_MIN_SIMILARITY - 0.01, 0.9))).toBeLessThan(0));
  test('both thresholds are inclusive', () => expect(matchMargin(portrait, frame(FACE_MATCH_MIN_SIMILARITY, FACE_RECOGNITION_MIN_CLOSENESS))).toBeCloseTo(0));
});

describe('matchMargin: scores normalised against the cohort can refuse too (decision 0068)', () => {
  // Faces whose strangers score 0.6 (faceres) and 0.3 (aligned) on average, spread 0.02 and 0.05.
  const crowded = { faceres: { mean: 0.6, spread: 0.02 }, recognition: { mean: 0.3, spread: 0.05 } };
  const inCrowd = { ...portrait, cohort: crowded };
  test('both raw thresholds met by a pair barely more alike than strangers are to these faces: refused', () =>
    // faceres: (0.65 − 0.6) / 0.02 = 2.5 spreads, under FACE_MATCH_MIN_NORMALISED.faceres.
    expect(matchMargin(inCrowd, frame(0.65, 0.9, crowded))).toBeCloseTo(2.5 - FACE_MATCH_MIN_NORMALISED.faceres));
  test('the same raw scores for faces strangers do not resemble: accepted', () => expect(matchMargin(portrait, frame(0.65, 0.9))).toBeGreaterThan(0));
  test('each model is normalised by both faces, each by its own spread (the mean of the two z-scores)', () => {
    const other = { faceres: { mean: 0.5, spread: 0.05 }, recognition: crowded.recognition };
    // faceres: ((0.7 − 0.6) / 0.02 + (0.7 − 0.5) / 0.05) / 2 = 4.5 spreads; aligned: (0.6 − 0.3) / 0.05 = 6.
    const margin = matchMargin(inCrowd, frame(0.7, 0.6, other));
    expect(margin).toBeCloseTo(
      Math.min(
        0.7 - FACE_MATCH_MIN_SIMILARITY,
        0.6 - FACE_RECOGNITION_MIN_CLOSENESS,
        4.5 - FACE_MATCH_MIN_NORMALISED.faceres,
        6 - FACE_MATCH_MIN_NORMALISED.recognition,
      ),
    );
  });
  test('the aligned model normalised refuses alone', () =>
    // aligned: (0.55 − 0.3) / 0.05 = 5 spreads would pass; with mean 0.4, (0.55 − 0.4) / 0.05 = 3 does not.
    expect(
      matchMargin(
        { ...portrait, cohort: { ...distinct, recognition: { mean: 0.4, spread: 0.05 } } },
        frame(0.9, 0.55, { ...distinct, recognition: { mean: 0.4, spread: 0.05 } }),
      ),
    ).toBeCloseTo(3 - FACE_MATCH_MIN_NORMALISED.recognition));
});

describe('matchFrames', () => {
  test('the median frame decides: one good frame among poor ones is not a match', () => {
    expect(matchFrames(portrait, [frame(0.9), frame(0.3), frame(0.4)])).toMatchObject({ outcome: 'mismatch' });
    expect(matchFrames(portrait, [frame(0.3), frame(0.8), frame(0.9)])).toMatchObject({ outcome: 'match' });
  });
  test('with two frames the lower one decides', () =>
    expect(matchFrames(portrait, [frame(0.9), frame(FACE_MATCH_MIN_SIMILARITY - 0.05)]).margin).toBeCloseTo(-0.05));
  test('a frame at both thresholds matches', () =>
    expect(matchFrames(portrait, [frame(FACE_MATCH_MIN_SIMILARITY, FACE_RECOGNITION_MIN_CLOSENESS)]).outcome).toBe('match'));
  test('any frame at the copy ceiling makes the selfie a copy of the portrait, whatever the other model says', () => {
    expect(matchFrames(portrait, [frame(0.6), frame(0.7), frame(FACE_COPY_MIN_SIMILARITY, 0.1)])).toMatchObject({ outcome: 'copy' });
    expect(matchFrames(portrait, [frame(FACE_COPY_MIN_SIMILARITY - 0.01)])).toMatchObject({ outcome: 'match' });
  });
  test('no frame is a programming error', () => expect(() => matchFrames(portrait, [])).toThrow());
});
