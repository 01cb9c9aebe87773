/**
 * The face as ArcFace-style descriptors expect it (decision 0090; first written for the
 * human-models candidates, decision 0064): five points of Human's face mesh (eye centres, nose tip,
 * mouth corners) mapped by the least-squares similarity (rotation, uniform scale, shift) onto the
 * InsightFace template of a 112 × 112 crop, which turns a tilted head upright and brings every face
 * to the size and place the model was trained on. Pure.
 */
import type { DecodedImage } from '../image-decoding';

/** The ArcFace / InsightFace five-point template for 112 × 112 crops, in image order: eye, eye, nose, mouth corner, mouth corner. */
export const ARCFACE_TEMPLATE: readonly (readonly [number, number])[] = [
  [38.2946, 51.6963],
  [73.5318, 51.5014],
  [56.0252, 71.7366],
  [41.5493, 92.3655],
  [70.7299, 92.2041],
];
/** The side of the aligned crop, in pixels. */
export const ALIGNED_SIDE = 112;

/** Face-mesh indices (MediaPipe's 468-point mesh, as Human returns it). */
const MESH = { eyeA: [33, 133], eyeB: [362, 263], noseTip: 1, mouthA: 61, mouthB: 291 } as const;

export type Point = readonly [number, number];

/** The five points of the template's order from the mesh: eyes and mouth corners sorted left to right in the image. */
export function fivePoints(mesh: readonly Point[]): Point[] {
  const mean = (indices: readonly number[]): Point => [
    indices.reduce((sum, i) => sum + mesh[i]![0], 0) / indices.length,
    indices.reduce((sum, i) => sum + mesh[i]![1], 0) / indices.length,
  ];
  const byX = (a: Point, b: Point): Point[] => (a[0] <= b[0] ? [a, b] : [b, a]);
  const [eyeLeft, eyeRight] = byX(mean(MESH.eyeA), mean(MESH.eyeB));
  const [mouthLeft, mouthRight] = byX(mesh[MESH.mouthA]!, mesh[MESH.mouthB]!);
  return [eyeLeft!, eyeRight!, mesh[MESH.noseTip]!, mouthLeft!, mouthRight!];
}

/**
 * The similarity transform (rotation, uniform scale, translation) that maps `from` onto `to` with
 * the least squared error (Umeyama's closed form in two dimensions): to ≈ [[a, −b], [b, a]] · from + t.
 */
export function similarityTransform(from: readonly Point[], to: readonly Point[]): { a: number; b: number; tx: number; ty: number } {
  const n = from.length;
  const centre = (points: readonly Point[]): Point => [points.reduce((s, p) => s + p[0], 0) / n, points.reduce((s, p) => s + p[1], 0) / n];
  const [fx, fy] = centre(from);
  const [gx, gy] = centre(to);
  let dot = 0;
  let cross = 0;
  let norm = 0;
  for (let i = 0; i < n; i++) {
    const x = from[i]![0] - fx;
    const y = from[i]![1] - fy;
    const u = to[i]![0] - gx;
    const v = to[i]![1] - gy;
    dot += x * u + y * v;
    cross += x * v - y * u;
    norm += x * x + y * y;
  }
  const a = dot / norm;
  const b = cross / norm;
  return { a, b, tx: gx - (a * fx - b * fy), ty: gy - (b * fx + a * fy) };
}

/**
 * A map of image pixels onto the aligned crop, u = a·x + b·y + c and v = d·x + e·y + f, as
 * [a, b, c, d, e, f]: a similarity (alignedFace) or any affine map (scripts/faces/alignment-variants.ts).
 */
export type Affine = readonly [number, number, number, number, number, number];

/** The similarity onto the template (similarityTransform) as an affine map. */
export function similarityAffine(points: readonly Point[]): Affine {
  const { a, b, tx, ty } = similarityTransform(points, ARCFACE_TEMPLATE);
  return [a, -b, tx, b, a, ty];
}

/** The 112 × 112 aligned face, RGB 0–255 as floats, sampled bilinearly through the inverse transform. */
export function alignedFace(image: DecodedImage, mesh: readonly Point[]): Float32Array {
  return warpedFace(image, similarityAffine(fivePoints(mesh)));
}

/** The 112 × 112 crop that `affine` maps `image` onto, RGB 0–255 as floats, sampled bilinearly through its inverse. */
export function warpedFace(image: DecodedImage, [a, b, c, d, e, f]: Affine): Float32Array {
  const det = a * e - b * d;
  const out = new Float32Array(ALIGNED_SIDE * ALIGNED_SIDE * 3);
  for (let v = 0; v < ALIGNED_SIDE; v++)
    for (let u = 0; u < ALIGNED_SIDE; u++) {
      const du = u - c;
      const dv = v - f;
      const x = Math.min(image.width - 1, Math.max(0, (e * du - b * dv) / det));
      const y = Math.min(image.height - 1, Math.max(0, (-d * du + a * dv) / det));
      const x0 = Math.floor(x);
      const y0 = Math.floor(y);
      const x1 = Math.min(image.width - 1, x0 + 1);
      const y1 = Math.min(image.height - 1, y0 + 1);
      const fx = x - x0;
      const fy = y - y0;
      for (let channel = 0; channel < 3; channel++) {
        const at = (px: number, py: number) => image.data[(py * image.width + px) * 3 + channel]!;
        const top = at(x0, y0) * (1 - fx) + at(x1, y0) * fx;
        const bottom = at(x0, y1) * (1 - fx) + at(x1, y1) * fx;
        out[(v * ALIGNED_SIDE + u) * 3 + channel] = top * (1 - fy) + bottom * fy;
      }
    }
  return out;
}
