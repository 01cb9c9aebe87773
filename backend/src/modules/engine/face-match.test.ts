import { describe, expect, test } from 'bun:test';
import { FACE_COPY_MIN_SIMILARITY, FACE_MATCH_MIN_SIMILARITY, FACE_RECOGNITION_MIN_CLOSENESS, matchFrames, matchMargin } from './face-match';

/** A unit vector at cosine `similarity` to [1, 0]. */
const cosineAt = (similarity: number) => [similarity, Math.sqrt(1 - similarity ** 2)];
/** A point at closeness `value` (1 − Euclidean distance) from [0, 0]. */
const closenessAt = (value: number) => [1 - value, 0];
const portrait = { faceres: [1, 0], recognition: [0, 0] };
/** A selfie frame whose two scores against the portrait are `faceres` and `recognition`. */
const frame = (faceres: number, recognition = 0.8) => ({ faceres: cosineAt(faceres), recognition: closenessAt(recognition) });

describe('matchMargin: each model can refuse (decision 0064)', () => {
  test('both above their thresholds: the lower margin, positive', () =>
    expect(matchMargin(portrait, frame(FACE_MATCH_MIN_SIMILARITY + 0.1, FACE_RECOGNITION_MIN_CLOSENESS + 0.05))).toBeCloseTo(0.05));
  test('faceres alone says the same person: refused', () => expect(matchMargin(portrait, frame(0.95, FACE_RECOGNITION_MIN_CLOSENESS - 0.01))).toBeLessThan(0));
  test('the aligned model alone says the same person: refused', () =>
    expect(matchMargin(portrait, frame(FACE_MATCH_MIN_SIMILARITY - 0.01, 0.9))).toBeLessThan(0));
  test('both thresholds are inclusive', () => expect(matchMargin(portrait, frame(FACE_MATCH_MIN_SIMILARITY, FACE_RECOGNITION_MIN_CLOSENESS))).toBeCloseTo(0));
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
