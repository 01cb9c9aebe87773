import { describe, expect, test } from 'bun:test';
import { CHIP_PADDING, CHIP_SIZE, chipPoint, chipTransform, type Point } from './face-chip';

/** 68 landmarks placed where dlib's chip puts them, then moved by a known similarity into an image. */
function landmarksSeen(scale: number, degrees: number, shift: Point): Point[] {
  const angle = (degrees * Math.PI) / 180;
  const move = ([x, y]: Point): Point => [
    scale * (Math.cos(angle) * x - Math.sin(angle) * y) + shift[0],
    scale * (Math.sin(angle) * x + Math.cos(angle) * y) + shift[1],
  ];
  // Landmarks 0–16 (the jaw) are not aligned on; any value shows that they are ignored.
  return Array.from({ length: 68 }, (_, i): Point => (i < 17 ? [1e6, -1e6] : move(chipPoint(i))));
}

const sample = (t: number[], [x, y]: Point): Point => [t[0]! * x + t[1]! * y + t[2]!, t[3]! * x + t[4]! * y + t[5]!];

describe('face chip (decision 0065)', () => {
  test('dlib geometry: 150 px with a quarter of the face as padding; the eyes sit level and the nose tip on the centre line', () => {
    expect([CHIP_SIZE, CHIP_PADDING]).toEqual([150, 0.25]);
    const [outerRight, outerLeft] = [chipPoint(36), chipPoint(45)];
    expect(outerRight[1]).toBeCloseTo(outerLeft[1], 9);
    expect(chipPoint(30)[0]).toBeCloseTo((outerRight[0] + outerLeft[0]) / 2, 1);
    // The mean shape spans the unit square less the padding: 0.25 / 1.5 of the side on each side.
    expect(chipPoint(17)[0]).toBeCloseTo((0.25 + 0.000213256) * 100, 6);
  });

  test.each([
    ['upright, same size', 1, 0, [0, 0]],
    ['twice as large, moved', 2, 0, [240, 95]],
    ['head tilted 20°', 1.4, 20, [300, 120]],
    ['head tilted −35°, small', 0.6, -35, [80, 60]],
  ] as const)('%s: every chip pixel samples where the face is in the image', (_, scale, degrees, shift) => {
    const seen = landmarksSeen(scale, degrees, shift);
    const transform = chipTransform(seen);
    expect(transform.slice(6)).toEqual([0, 0]);
    for (const i of [27, 30, 36, 45, 48, 54, 62]) {
      const [x, y] = sample(transform, chipPoint(i));
      expect(x).toBeCloseTo(seen[i]![0], 6);
      expect(y).toBeCloseTo(seen[i]![1], 6);
    }
  });

  test('the eyebrows, the lower lip and the jaw do not move the chip: a raised brow or an open mouth is the same face', () => {
    const still = landmarksSeen(1.2, 10, [100, 50]);
    const expressive = still.map(([x, y], i): Point => ((i >= 17 && i <= 26) || (i >= 55 && i <= 59) || i >= 65 ? [x + 7, y - 9] : [x, y]));
    expect(chipTransform(expressive)).toEqual(chipTransform(still));
  });

  test('a shape that is not the 68 points is refused rather than read wrongly', () => {
    expect(() => chipTransform(landmarksSeen(1, 0, [0, 0]).slice(0, 67))).toThrow('68 landmarks');
  });
});
