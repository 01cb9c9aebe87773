/**
 * Pictures of a head turning in three dimensions, and of a flat photo moved the ways an attacker
 * would move one, both made from a single frontal photo (issue 19, Deliver 5: measuring the
 * liveness check and giving the e2e fake camera a genuine head turn).
 *
 * The head: Human's face mesh of the photo (468 points with depth) is rotated about a pivot behind
 * the face and each of its triangles is drawn from the photo (affine texture mapping, far triangles
 * first). The face's old place is painted over with a blurred copy first, so only the turned face
 * is left. Hair and ears do not turn: enough for the face models, which see the face.
 * The flat photo: the whole picture under one planar homography (moved, scaled, rotated, tilted).
 */
import { createRequire } from 'node:module';
import sharp from 'sharp';
import { loadHuman } from '../../faces/human-runtime';

export interface RawImage {
  data: Uint8Array;
  width: number;
  height: number;
}

export interface FaceMesh {
  /** 468 points: x, y in pixels, z in the mesh's depth units (larger is farther). */
  points: [number, number, number][];
  /** Triangles as point indices, three per triangle (Human's faceTriangulation). */
  triangles: readonly number[];
}

export async function readRaw(bytes: Uint8Array): Promise<RawImage> {
  const { data, info } = await sharp(bytes).rotate().removeAlpha().raw().toBuffer({ resolveWithObject: true });
  return { data: new Uint8Array(data), width: info.width, height: info.height };
}

export function toJpeg(image: RawImage, quality = 90): Promise<Buffer> {
  return sharp(image.data, { raw: { width: image.width, height: image.height, channels: 3 } })
    .jpeg({ quality })
    .toBuffer();
}

/** The mesh of the largest face, through the engine's own Human build. */
export async function faceMesh(image: RawImage): Promise<FaceMesh> {
  // Human's typed surface (human-runtime.ts) lacks faceTriangulation, set on the instance.
  const human = (await loadHuman()) as Awaited<ReturnType<typeof loadHuman>> & { faceTriangulation: number[] };
  const tf = createRequire(import.meta.url)('@tensorflow/tfjs-core');
  const tensor = tf.tensor3d(image.data, [image.height, image.width, 3], 'int32');
  try {
    const { face } = await human.detect(tensor);
    if (!face?.length) throw new Error('no face in the photo');
    const largest = face.reduce((a, b) => (a.box[2] * a.box[3] >= b.box[2] * b.box[3] ? a : b));
    if (!largest.mesh) throw new Error('no face mesh: Human runs without its mesh model');
    return { points: largest.mesh as [number, number, number][], triangles: human.faceTriangulation };
  } finally {
    tensor.dispose();
  }
}

/** Calls draw(x, y, u, v) for every pixel of triangle `to`, with its barycentric place in `from`. */
function fillTriangle(
  to: readonly [number, number][],
  from: readonly [number, number][],
  width: number,
  height: number,
  draw: (x: number, y: number, u: number, v: number) => void,
  grow = 0,
): void {
  const [d0, d1, d2] = to as [[number, number], [number, number], [number, number]];
  const [s0, s1, s2] = from as [[number, number], [number, number], [number, number]];
  const area = (d1[0] - d0[0]) * (d2[1] - d0[1]) - (d2[0] - d0[0]) * (d1[1] - d0[1]);
  if (Math.abs(area) < 1e-6) return;
  const minX = Math.max(0, Math.floor(Math.min(d0[0], d1[0], d2[0]) - grow));
  const maxX = Math.min(width - 1, Math.ceil(Math.max(d0[0], d1[0], d2[0]) + grow));
  const minY = Math.max(0, Math.floor(Math.min(d0[1], d1[1], d2[1]) - grow));
  const maxY = Math.min(height - 1, Math.ceil(Math.max(d0[1], d1[1], d2[1]) + grow));
  const slack = grow > 0 ? -0.05 : -0.01;
  for (let y = minY; y <= maxY; y++) {
    for (let x = minX; x <= maxX; x++) {
      const px = x + 0.5;
      const py = y + 0.5;
      const w1 = ((px - d0[0]) * (d2[1] - d0[1]) - (d2[0] - d0[0]) * (py - d0[1])) / area;
      const w2 = ((d1[0] - d0[0]) * (py - d0[1]) - (px - d0[0]) * (d1[1] - d0[1])) / area;
      const w0 = 1 - w1 - w2;
      if (w0 < slack || w1 < slack || w2 < slack) continue;
      draw(x, y, w0 * s0[0] + w1 * s1[0] + w2 * s2[0], w0 * s0[1] + w1 * s1[1] + w2 * s2[1]);
    }
  }
}

function copyPixel(from: RawImage, to: Uint8Array, x: number, y: number, u: number, v: number): void {
  const sx = Math.min(from.width - 1, Math.max(0, Math.round(u)));
  const sy = Math.min(from.height - 1, Math.max(0, Math.round(v)));
  const target = (y * from.width + x) * 3;
  const source = (sy * from.width + sx) * 3;
  to[target] = from.data[source]!;
  to[target + 1] = from.data[source + 1]!;
  to[target + 2] = from.data[source + 2]!;
}

/**
 * The photo with its face turned by `yawDegrees` (negative: the person's own left, as a camera sees
 * it) and `pitchDegrees` (negative: looking up). `pivotShare`: how far behind the face's mean
 * depth the head turns, as a share of the face's width (a head's centre is about half a face behind).
 */
export async function renderHeadPose(photo: RawImage, mesh: FaceMesh, yawDegrees: number, pitchDegrees: number, pivotShare = 0.45): Promise<RawImage> {
  const { points, triangles } = mesh;
  const n = points.length;
  // The mesh's depth is in the same units as its x and y (pixels), so the pivot scales with the face.
  const pivotDepth = pivotShare * (Math.max(...points.map((p) => p[0])) - Math.min(...points.map((p) => p[0])));
  const cx = points.reduce((s, p) => s + p[0], 0) / n;
  const cy = points.reduce((s, p) => s + p[1], 0) / n;
  const cz = points.reduce((s, p) => s + p[2], 0) / n + pivotDepth;
  const a = (yawDegrees * Math.PI) / 180;
  const b = (pitchDegrees * Math.PI) / 180;
  const turned = points.map(([x, y, z]): [number, number, number] => {
    const X = x - cx;
    const Y = y - cy;
    const Z = z - cz;
    const X1 = X * Math.cos(a) + Z * Math.sin(a);
    const Z1 = -X * Math.sin(a) + Z * Math.cos(a);
    const Y2 = Y * Math.cos(b) - Z1 * Math.sin(b);
    const Z2 = Y * Math.sin(b) + Z1 * Math.cos(b);
    return [X1 + cx, Y2 + cy, Z2 + cz];
  });
  const out = new Uint8Array(photo.data);
  const blurred = await sharp(photo.data, { raw: { width: photo.width, height: photo.height, channels: 3 } })
    .blur(Math.max(4, photo.width / 25))
    .raw()
    .toBuffer();
  const blurredImage: RawImage = { data: new Uint8Array(blurred), width: photo.width, height: photo.height };
  const corners = (list: readonly [number, number, number][], t: number): [number, number][] =>
    [0, 1, 2].map((k) => [list[triangles[3 * t + k]!]![0], list[triangles[3 * t + k]!]![1]]);
  const count = triangles.length / 3;
  for (let t = 0; t < count; t++) {
    const place = corners(points, t);
    fillTriangle(place, place, photo.width, photo.height, (x, y, u, v) => copyPixel(blurredImage, out, x, y, u, v), 2);
  }
  const depth = (t: number) => turned[triangles[3 * t]!]![2] + turned[triangles[3 * t + 1]!]![2] + turned[triangles[3 * t + 2]!]![2];
  const order = Array.from({ length: count }, (_, t) => t).sort((p, q) => depth(q) - depth(p));
  for (const t of order) fillTriangle(corners(turned, t), corners(points, t), photo.width, photo.height, (x, y, u, v) => copyPixel(photo, out, x, y, u, v));
  return { data: out, width: photo.width, height: photo.height };
}

/**
 * The photo under a planar homography `h` (8 numbers, h33 = 1) that maps output pixels to photo
 * pixels: a flat picture moved, scaled, rotated or tilted. Outside the photo is grey.
 */
export function warpFlat(photo: RawImage, h: readonly number[]): RawImage {
  const out = new Uint8Array(photo.data.length).fill(128);
  for (let y = 0; y < photo.height; y++) {
    for (let x = 0; x < photo.width; x++) {
      const w = h[6]! * x + h[7]! * y + 1;
      const u = (h[0]! * x + h[1]! * y + h[2]!) / w;
      const v = (h[3]! * x + h[4]! * y + h[5]!) / w;
      if (u < 0 || v < 0 || u > photo.width - 1 || v > photo.height - 1) continue;
      copyPixel(photo, out, x, y, u, v);
    }
  }
  return { data: out, width: photo.width, height: photo.height };
}

/** The homography of a flat photo moved by (dx, dy), scaled by `scale` and rotated by `degrees` about the picture's centre. */
export function similarity(photo: RawImage, dx: number, dy: number, scale: number, degrees: number): number[] {
  const cx = photo.width / 2;
  const cy = photo.height / 2;
  const a = (degrees * Math.PI) / 180;
  const c = Math.cos(a) / scale;
  const s = Math.sin(a) / scale;
  // Output → photo: undo the move, then the rotation and scale about the centre.
  return [c, s, cx - c * (cx + dx) - s * (cy + dy), -s, c, cy + s * (cx + dx) - c * (cy + dy), 0, 0];
}

/**
 * The homography of a flat photo held turned about its vertical axis (`turn`) or tilted about its
 * horizontal one (`tilt`), seen by a camera: a perspective foreshortening about the picture's
 * centre. Strengths are shares of the half-width (half-height): the picture's edges are scaled by
 * 1 ± strength, so 0.35 is a clearly turned photo and 0.6 an extreme one, whatever its size.
 */
export function heldTilt(photo: RawImage, turn: number, tilt: number): number[] {
  const cx = photo.width / 2;
  const cy = photo.height / 2;
  const kx = turn / cx;
  const ky = tilt / cy;
  // T(c) · [[1,0,0],[0,1,0],[kx,ky,1]] · T(-c), normalised so that h33 = 1: the centre stays put.
  const g = 1 - kx * cx - ky * cy;
  const m = [1 + cx * kx, cx * ky, cx * (g - 1), cy * kx, 1 + cy * ky, cy * (g - 1), kx, ky];
  return m.map((v) => v / g);
}
