import { describe, expect, test } from 'bun:test';
import { FACE_COPY_MIN_SIMILARITY, FACE_MATCH_MIN_SIMILARITY, matchFrames } from './face-match';

/** A unit vector at cosine `similarity` to [1, 0]. */
const at = (similarity: number) => [similarity, Math.sqrt(1 - similarity ** 2)];
const portrait = [1, 0];

describe('matchFrames', () => {
  test('the median frame decides: one good frame among poor ones is not a match', () => {
    expect(matchFrames(portrait, [at(0.9), at(0.3), at(0.4)])).toMatchObject({ outcome: 'mismatch' });
    expect(matchFrames(portrait, [at(0.3), at(0.8), at(0.9)])).toMatchObject({ outcome: 'match' });
  });
  test('with two frames the lower one decides', () => expect(matchFrames(portrait, [at(0.9), at(0.5)]).similarity).toBeCloseTo(0.5));
  test('the threshold is inclusive', () => expect(matchFrames(portrait, [at(FACE_MATCH_MIN_SIMILARITY)]).outcome).toBe('match'));
  test('any frame at the copy ceiling makes the selfie a copy of the portrait', () => {
    expect(matchFrames(portrait, [at(0.6), at(0.7), at(FACE_COPY_MIN_SIMILARITY)])).toMatchObject({ outcome: 'copy' });
    expect(matchFrames(portrait, [at(FACE_COPY_MIN_SIMILARITY - 0.01)])).toMatchObject({ outcome: 'match' });
  });
  test('no frame is a programming error', () => expect(() => matchFrames(portrait, [])).toThrow());
});
