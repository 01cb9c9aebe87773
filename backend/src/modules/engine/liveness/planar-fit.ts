/**
 * How far the movement of face landmarks between two frames is from that of a flat picture. A flat
 * photo moved, scaled, rotated or tilted in front of a camera maps onto itself by one planar
 * homography, whatever the motion; a head turning in three dimensions does not, because the nose
 * moves against the cheeks and the outline (parallax). The residual of the best homography, in
 * units of the landmarks' own spread, measures that (issue 19, Deliver 1).
 *
 * The fit is the direct linear transform on Hartley-normalised points (zero mean, mean distance √2),
 * solved by least squares with ml-matrix; the residual is the RMS transfer error.
 */
import { Matrix, solve } from 'ml-matrix';

export type Point = readonly [number, number];

function normalise(points: readonly Point[]): Point[] {
  const n = points.length;
  const mx = points.reduce((sum, p) => sum + p[0], 0) / n;
  const my = points.reduce((sum, p) => sum + p[1], 0) / n;
  const spread = points.reduce((sum, p) => sum + Math.hypot(p[0] - mx, p[1] - my), 0) / n;
  const scale = spread > 0 ? Math.SQRT2 / spread : 1;
  return points.map((p) => [(p[0] - mx) * scale, (p[1] - my) * scale]);
}

/** The homography (h33 = 1) that best maps `from` onto `to`, in least squares. */
export function fitHomography(from: readonly Point[], to: readonly Point[]): number[] {
  const rows: number[][] = [];
  const rhs: number[] = [];
  from.forEach(([x, y], i) => {
    const [u, v] = to[i]!;
    rows.push([x, y, 1, 0, 0, 0, -u * x, -u * y], [0, 0, 0, x, y, 1, -v * x, -v * y]);
    rhs.push(u, v);
  });
  return solve(new Matrix(rows), Matrix.columnVector(rhs), true).to1DArray();
}

/**
 * RMS distance between `to` and `from` mapped by their best homography, both normalised first, so
 * the figure does not depend on the face's size in pixels. About 0.01 for the same picture
 * re-detected; flat pictures moved in any way stay low; a head turn gives several times more
 * (figures in docs/verification.md).
 */
export function planarResidual(from: readonly Point[], to: readonly Point[]): number {
  if (from.length !== to.length || from.length < 8) throw new Error('planarResidual needs the same 8 or more landmarks in both frames');
  const a = normalise(from);
  const b = normalise(to);
  const h = fitHomography(a, b);
  let sum = 0;
  a.forEach(([x, y], i) => {
    const w = h[6]! * x + h[7]! * y + 1;
    const u = (h[0]! * x + h[1]! * y + h[2]!) / w;
    const v = (h[3]! * x + h[4]! * y + h[5]!) / w;
    sum += (u - b[i]![0]) ** 2 + (v - b[i]![1]) ** 2;
  });
  return Math.sqrt(sum / a.length);
}
