import { describe, expect, test } from 'bun:test';
import { pairScore } from './pair-scores';

const unit = (x: number) => [x, Math.sqrt(1 - x * x)];

describe('pair scores (issue 21)', () => {
  test("the engine's descriptor and faceres are compared by cosine, aligned by 1 − Euclidean distance", () => {
    expect(pairScore('engine', [1, 0], unit(0.6))).toBeCloseTo(0.6);
    expect(pairScore('faceres', [2, 0], unit(0.8))).toBeCloseTo(0.8);
    expect(pairScore('aligned', [0, 0], [0.3, 0.4])).toBeCloseTo(0.5);
  });
  test('a photo without a face gives no score', () => {
    expect(pairScore('engine', null, [1, 0])).toBeNull();
    expect(pairScore('aligned', [0, 0], null)).toBeNull();
  });
});
