import { describe, expect, test } from 'bun:test';
import { ratesAt, rocPoints, thresholdForFar } from './pair-summary';

const scores = [
  { same: true, similarity: 0.9 },
  { same: true, similarity: 0.7 },
  { same: true, similarity: 0.4 },
  { same: false, similarity: 0.6 },
  { same: false, similarity: 0.3 },
  { same: false, similarity: 0.2 },
  { same: false, similarity: 0.1 },
];

describe('pair summary', () => {
  test('a pair at the threshold matches: a stranger at it is a false accept, a genuine pair below it a false reject', () => {
    expect(ratesAt(scores, 0.6)).toEqual({ threshold: 0.6, falseAccepts: 1, different: 4, falseRejects: 1, same: 3 });
    expect(ratesAt(scores, 0.61)).toMatchObject({ falseAccepts: 0, falseRejects: 1 });
  });

  test('the threshold for a FAR target is the lowest one that meets it', () => {
    expect(thresholdForFar(scores, 0)).toMatchObject({ threshold: 0.7, falseAccepts: 0, falseRejects: 1 });
    expect(thresholdForFar(scores, 0.25)).toMatchObject({ threshold: 0.4, falseAccepts: 1, falseRejects: 0 });
  });

  test('each ROC point is what ratesAt gives at its threshold, ties included', () => {
    const tied = [...scores, { same: true, similarity: 0.6 }, { same: false, similarity: 0.9 }];
    const points = rocPoints(tied);
    expect(points.map((p) => p.threshold).slice(0, -1)).toEqual([0.1, 0.2, 0.3, 0.4, 0.6, 0.7, 0.9]);
    for (const point of points) expect(point).toEqual(ratesAt(tied, point.threshold));
  });

  test('the ROC ends where nothing matches, and no different-person pair means no threshold', () => {
    expect(rocPoints(scores).at(-1)).toMatchObject({ falseAccepts: 0, falseRejects: 3 });
    expect(thresholdForFar([{ same: true, similarity: 0.5 }], 0.001)).toBeNull();
  });
});
