import { describe, expect, test } from 'bun:test';
import { pairScore } from './pair-scores';

const unit = (x: number) => [x, Math.sqrt(1 - x * x)];

describe('pair scores (issue 21)', () => {
  test("the engine's descriptor and faceres are compared by cosine, aligned by 1 − Euclidean distance", () => {
    expect(pairScore('engine', [1, 0], unit(0.6))).toBeCloseTo(0.6);
    expect(pairScore('faceres', [2, 0], unit(0.8))).toBeCloseTo(0.8);
    expect(pairScore('aligned', [0, 0], [0.3, 0.4])).toBeCloseTo(0.5);
  });
  test("fused adds the dlib port's closeness, weighted, to the engine's cosine (decision 0097)", () => {
    const descriptor = (engine: number[], aligned: number[]) => [...engine, ...Array(512 - engine.length).fill(0), ...aligned];
    const [a, b] = [descriptor([1, 0], [0, 0]), descriptor(unit(0.6), [0.3, 0.4])];
    expect(pairScore('fused', a, b)).toBeCloseTo(0.6 + 0.94 * (0.5 - 0.195));
    // The same engine cosine with a dlib closeness below its strangers' centre scores lower.
    expect(pairScore('fused', a, descriptor(unit(0.6), [0.9, 0]))!).toBeLessThan(0.6);
  });
  test('a photo without a face gives no score', () => {
    expect(pairScore('engine', null, [1, 0])).toBeNull();
    expect(pairScore('aligned', [0, 0], null)).toBeNull();
  });
});
