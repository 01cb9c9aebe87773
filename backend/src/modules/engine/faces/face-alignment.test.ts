import { describe, expect, test } from 'bun:test';
import { ARCFACE_TEMPLATE, alignedFace, fivePoints, similarityTransform } from './face-alignment';

describe('the face aligned to the ArcFace template (issue 21, Deliver 1)', () => {
  test('the similarity transform recovers a known rotation, scale and shift', () => {
    const angle = 0.3;
    const scale = 2.5;
    const from = ARCFACE_TEMPLATE.map(([x, y]): [number, number] => [
      scale * (Math.cos(angle) * x - Math.sin(angle) * y) + 40,
      scale * (Math.sin(angle) * x + Math.cos(angle) * y) - 7,
    ]);
    const { a, b, tx, ty } = similarityTransform(from, ARCFACE_TEMPLATE);
    for (const [i, [x, y]] of from.entries()) {
      expect(a * x - b * y + tx).toBeCloseTo(ARCFACE_TEMPLATE[i]![0], 6);
      expect(b * x + a * y + ty).toBeCloseTo(ARCFACE_TEMPLATE[i]![1], 6);
    }
  });

  test("the five points come from the mesh in the template's order, eyes and mouth corners left to right", () => {
    const mesh = Array.from({ length: 468 }, (): [number, number] => [0, 0]);
    mesh[33] = [70, 50];
    mesh[133] = [60, 50];
    mesh[362] = [40, 50];
    mesh[263] = [30, 50];
    mesh[1] = [50, 70];
    mesh[61] = [62, 90];
    mesh[291] = [38, 90];
    expect(fivePoints(mesh)).toEqual([
      [35, 50],
      [65, 50],
      [50, 70],
      [38, 90],
      [62, 90],
    ]);
  });

  test('a face already on the template is sampled unchanged', () => {
    const width = 112;
    const data = new Uint8Array(width * width * 3).map((_, i) => Math.floor(i / 3) % 251);
    const mesh = Array.from({ length: 468 }, (): [number, number] => [0, 0]);
    const at = (i: number): [number, number] => [ARCFACE_TEMPLATE[i]![0], ARCFACE_TEMPLATE[i]![1]];
    mesh[33] = at(0);
    mesh[133] = at(0);
    mesh[362] = at(1);
    mesh[263] = at(1);
    mesh[1] = at(2);
    mesh[61] = at(3);
    mesh[291] = at(4);
    const out = alignedFace({ data, width, height: width }, mesh);
    for (const i of [0, 3 * 500, 3 * 6000 + 1, out.length - 1]) expect(out[i]!).toBeCloseTo(data[i]!, 3);
  });
});
