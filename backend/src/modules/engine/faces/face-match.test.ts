import { describe, expect, test } from 'bun:test';
import { cosineSimilarity, FACE_COPY_MIN_SIMILARITY, FACE_MATCH_MIN_SIMILARITY, matchFrames } from './face-match';

/** A unit vector at cosine `similarity` to [1, 0], the portrait. */
const at = (similarity: number) => [similarity, Math.sqrt(1 - similarity ** 2)];
const portrait = [1, 0];

describe('cosineSimilarity', () => {
  test('is the cosine of the angle, whatever the lengths', () => expect(cosineSimilarity([2, 0], [3, 3])).toBeCloseTo(Math.SQRT1_2));
  test('a zero vector is like nothing', () => expect(cosineSimilarity([0, 0], [1, 0])).toBe(0));
  test('descriptors of different lengths are a programming error', () => expect(() => cosineSimilarity([1, 0], [1, 0, 0])).toThrow());
});

describe('matchFrames (decision 0090)', () => {
  test('the threshold is inclusive', () => {
    expect(matchFrames(portrait, [at(FACE_MATCH_MIN_SIMILARITY)]).outcome).toBe('match');
    expect(matchFrames(portrait, [at(FACE_MATCH_MIN_SIMILARITY - 0.001)]).outcome).toBe('mismatch');
  });
  test('the median frame decides: one good frame among poor ones is not a match', () => {
    expect(matchFrames(portrait, [at(0.8), at(0.2), at(0.3)])).toMatchObject({ outcome: 'mismatch', similarity: expect.closeTo(0.3) });
    expect(matchFrames(portrait, [at(0.2), at(0.7), at(0.8)])).toMatchObject({ outcome: 'match', similarity: expect.closeTo(0.7) });
  });
  test('with two frames the lower one decides', () =>
    expect(matchFrames(portrait, [at(0.9), at(FACE_MATCH_MIN_SIMILARITY - 0.05)]).similarity).toBeCloseTo(FACE_MATCH_MIN_SIMILARITY - 0.05));
  test('any frame at the copy ceiling makes the selfie a copy of the portrait, whatever the other frames say', () => {
    expect(matchFrames(portrait, [at(0.1), at(0.2), at(FACE_COPY_MIN_SIMILARITY)])).toMatchObject({ outcome: 'copy' });
    expect(matchFrames(portrait, [at(FACE_COPY_MIN_SIMILARITY - 0.01)])).toMatchObject({ outcome: 'match' });
  });
  test('no frame is a programming error', () => expect(() => matchFrames(portrait, [])).toThrow());
});
