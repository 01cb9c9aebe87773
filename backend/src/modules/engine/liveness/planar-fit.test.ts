import { describe, expect, test } from 'bun:test';
import { fitHomography, planarResidual, type Point } from './planar-fit';

/** A grid of points on a plane, and the same points with depth, for a "head". */
const grid: Point[] = [];
const depth: number[] = [];
for (let i = -3; i <= 3; i++) {
  for (let j = -3; j <= 3; j++) {
    grid.push([100 + i * 10, 100 + j * 12]);
    // A bump in the middle, like a nose in front of the cheeks.
    depth.push(40 * Math.exp(-(i * i + j * j) / 4));
  }
}
const apply = (h: number[], [x, y]: Point): Point => {
  const w = h[6]! * x + h[7]! * y + 1;
  return [(h[0]! * x + h[1]! * y + h[2]!) / w, (h[3]! * x + h[4]! * y + h[5]!) / w];
};

describe('planar residual', () => {
  test('a flat picture moved, rotated, scaled and tilted in perspective maps by one homography: residual ~0', () => {
    const tilt = [0.9, 0.2, 15, -0.1, 1.05, -8, 0.0012, -0.0007];
    const moved = grid.map((p) => apply(tilt, p));
    expect(planarResidual(grid, moved)).toBeLessThan(1e-6);
    const fitted = fitHomography(grid, moved);
    for (let k = 0; k < 8; k++) expect(fitted[k]!).toBeCloseTo(tilt[k]!, 6);
  });

  test('points at different depths turned about a vertical axis do not: the residual grows with the turn', () => {
    const turned = (degrees: number) => {
      const a = (degrees * Math.PI) / 180;
      return grid.map(([x, y], i): Point => [100 + (x - 100) * Math.cos(a) - depth[i]! * Math.sin(a), y]);
    };
    const small = planarResidual(grid, turned(5));
    const large = planarResidual(grid, turned(25));
    expect(small).toBeGreaterThan(0.01);
    expect(large).toBeGreaterThan(3 * small);
  });

  test('refuses too few or mismatched points', () => {
    expect(() => planarResidual(grid.slice(0, 5), grid.slice(0, 5))).toThrow();
    expect(() => planarResidual(grid, grid.slice(1))).toThrow();
  });
});
