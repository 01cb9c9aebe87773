/**
 * `bun scripts/faces/alignment-variants.ts PAIRS.csv --landmark-model FILE [--selfie-gate]`: face
 * match's descriptor (fr_feature, decision 0090) on the same pairs under several ways of aligning
 * the face (issue 21 Deliver 1, decision 0093), and the false-reject rate each gives at the set's
 * own false-accept rates of 0.01 % and 0.1 %. Evaluation only: the engine aligns as `shipped` does.
 *
 * - shipped: Human's mesh, eye centres as the mean of each eye's two corners, nose tip, outer mouth
 *   corners; the least-squares similarity onto the InsightFace template (face-alignment.ts);
 * - ring: each eye's centre as the mean of its 16 contour points;
 * - mouth: each mouth corner as the mean of the outer and inner lip corners (the package's own);
 * - landmarks68: the five points from the 68-point model of the package the descriptor comes from
 *   (`fr_landmark.onnx` of `faceplugin-face-recognition-js` 0.0.1, MIT: `npm pack
 *   faceplugin-face-recognition-js@0.0.1`, then `package/model/fr_landmark.onnx`), on Human's box;
 * - affine3: the package's own warp, the exact affine map of the eyes and nose tip (no mouth);
 * - mirror: the shipped face and its mirror image, descriptors averaged;
 * - shipped+landmarks68: the two alignments' descriptors averaged.
 */
import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { InferenceSession, Tensor } from 'onnxruntime-node';
import { readLabelsCsv } from '../../backend/src/cli/labels-csv';
import { type PairScore, thresholdForFar } from '../../backend/src/cli/pair-summary';
import {
  ALIGNED_SIDE,
  ARCFACE_TEMPLATE,
  type Affine,
  fivePoints,
  type Point,
  similarityAffine,
  warpedFace,
} from '../../backend/src/modules/engine/faces/face-alignment';
import { analyseFace, loadFaceModels } from '../../backend/src/modules/engine/faces/face-analysis';
import { loadAlignedDescriptor } from '../../backend/src/modules/engine/faces/face-embedding';
import { cosineSimilarity } from '../../backend/src/modules/engine/faces/face-match';
import { faceQualityHint } from '../../backend/src/modules/engine/faces/face-quality';
import { type DecodedImage, decodeImage } from '../../backend/src/modules/engine/image-decoding';

const USAGE = 'usage: bun scripts/faces/alignment-variants.ts PAIRS.csv --landmark-model FILE [--selfie-gate]';
const pairsFile = process.argv[2];
const modelAt = process.argv.indexOf('--landmark-model');
const landmarkModel = modelAt === -1 ? undefined : process.argv[modelAt + 1];
if (!pairsFile || pairsFile.startsWith('--') || !landmarkModel) {
  console.error(USAGE);
  process.exit(2);
}
const selfieGate = process.argv.includes('--selfie-gate');

/** The affine map that takes the first three points exactly onto the template's eyes and nose (Cramer's rule). */
function affineOfThree(points: readonly Point[]): Affine {
  const [p, q, r] = points as [Point, Point, Point];
  const det = p[0] * (q[1] - r[1]) - p[1] * (q[0] - r[0]) + (q[0] * r[1] - r[0] * q[1]);
  const row = (t0: number, t1: number, t2: number): [number, number, number] => [
    (t0 * (q[1] - r[1]) - p[1] * (t1 - t2) + (t1 * r[1] - t2 * q[1])) / det,
    (p[0] * (t1 - t2) - t0 * (q[0] - r[0]) + (q[0] * t2 - r[0] * t1)) / det,
    (p[0] * (q[1] * t2 - r[1] * t1) - p[1] * (q[0] * t2 - r[0] * t1) + t0 * (q[0] * r[1] - r[0] * q[1])) / det,
  ];
  const [t0, t1, t2] = ARCFACE_TEMPLATE as [Point, Point, Point];
  return [...row(t0[0], t1[0], t2[0]), ...row(t0[1], t1[1], t2[1])];
}

/** The crop flipped left to right. */
function mirrored(crop: Float32Array): Float32Array {
  const out = new Float32Array(crop.length);
  for (let v = 0; v < ALIGNED_SIDE; v++)
    for (let u = 0; u < ALIGNED_SIDE; u++)
      for (let channel = 0; channel < 3; channel++) out[(v * ALIGNED_SIDE + u) * 3 + channel] = crop[(v * ALIGNED_SIDE + ALIGNED_SIDE - 1 - u) * 3 + channel]!;
  return out;
}

const unit = (vector: readonly number[]) => {
  const norm = Math.hypot(...vector);
  return vector.map((x) => x / norm);
};
const sum = (a: readonly number[], b: readonly number[]) => unit(a.map((x, i) => x + b[i]!));
const mean = (points: readonly Point[]): Point => [points.reduce((s, p) => s + p[0], 0) / points.length, points.reduce((s, p) => s + p[1], 0) / points.length];
const leftFirst = (a: Point, b: Point): [Point, Point] => (a[0] <= b[0] ? [a, b] : [b, a]);
/** MediaPipe's eye contours, 16 points each. */
const EYE_RINGS = [
  [33, 7, 163, 144, 145, 153, 154, 155, 133, 173, 157, 158, 159, 160, 161, 246],
  [263, 249, 390, 373, 374, 380, 381, 382, 362, 398, 384, 385, 386, 387, 388, 466],
] as const;

const models = await loadFaceModels({});
const fromAligned = await loadAlignedDescriptor();
const descriptorOf = async (crop: Float32Array) => unit(await fromAligned(crop));
const landmarks = await InferenceSession.create(landmarkModel, { intraOpNumThreads: 1, interOpNumThreads: 1 });

/** The package's 68 points: its box resized to 64 × 64 grey, 0–1, points out as fractions of the box. */
async function sixtyEight(image: DecodedImage, [bx, by, bw, bh]: readonly number[]): Promise<Point[]> {
  const [x0, y0] = [Math.max(0, Math.round(bx!)), Math.max(0, Math.round(by!))];
  const [w, h] = [Math.min(image.width - 1 - x0, Math.round(bw!)), Math.min(image.height - 1 - y0, Math.round(bh!))];
  const grey = new Float32Array(64 * 64);
  for (let v = 0; v < 64; v++)
    for (let u = 0; u < 64; u++) {
      const i = (Math.round(y0 + ((v + 0.5) * h) / 64 - 0.5) * image.width + Math.round(x0 + ((u + 0.5) * w) / 64 - 0.5)) * 3;
      // The package reads an RGBA canvas and converts it as BGR: red weighted as blue.
      grey[v * 64 + u] = (0.114 * image.data[i]! + 0.587 * image.data[i + 1]! + 0.299 * image.data[i + 2]!) / 256;
    }
  const out = (await landmarks.run({ input: new Tensor('float32', grey, [1, 1, 64, 64]) })).output!.data as Float32Array;
  return Array.from({ length: 68 }, (_, i): Point => [out[2 * i]! * w + x0, out[2 * i + 1]! * h + y0]);
}

/** The package's five points of its 68: eye centres from four lid points, nose tip, mouth corners between outer and inner lip. */
const fiveOfSixtyEight = (l: readonly Point[]): Point[] => [
  mean([37, 38, 40, 41].map((i) => l[i]!)),
  mean([43, 44, 46, 47].map((i) => l[i]!)),
  l[30]!,
  mean([l[48]!, l[60]!]),
  mean([l[54]!, l[64]!]),
];

const rows = readLabelsCsv(pairsFile, ['a', 'b', 'same']);
const photos = [...new Set(rows.flatMap((row) => [row.a!, row.b!]))];
const described = new Map<string, { gated: boolean; variants: Record<string, number[]> } | null>();
const eyeShifts: number[] = [];
for (const path of photos) {
  const image = await decodeImage(readFileSync(join(dirname(pairsFile), path)), {
    maxSide: path.startsWith('documents/') ? 1600 : 640,
    maxBytes: Number.POSITIVE_INFINITY,
  });
  const analysis = await analyseFace(models, image, { descriptor: false, landmarks: true, age: false, passive: false });
  const mesh = analysis.face?.landmarks as Point[] | undefined;
  if (!analysis.face || !mesh) {
    described.set(path, null);
    continue;
  }
  const shipped = fivePoints(mesh);
  const ring = leftFirst(mean(EYE_RINGS[0].map((i) => mesh[i]!)), mean(EYE_RINGS[1].map((i) => mesh[i]!)));
  const mouth = leftFirst(mean([mesh[61]!, mesh[78]!]), mean([mesh[291]!, mesh[308]!]));
  const [x, y, w, h] = analysis.face.box;
  const package68 = fiveOfSixtyEight(await sixtyEight(image, [x * image.width, y * image.height, w * image.width, h * image.height]));
  const eyes = Math.hypot(shipped[1]![0] - shipped[0]![0], shipped[1]![1] - shipped[0]![1]);
  eyeShifts.push(
    (Math.hypot(package68[0]![0] - shipped[0]![0], package68[0]![1] - shipped[0]![1]) +
      Math.hypot(package68[1]![0] - shipped[1]![0], package68[1]![1] - shipped[1]![1])) /
      2 /
      eyes,
  );
  const variants: Record<string, number[]> = {
    shipped: await descriptorOf(warpedFace(image, similarityAffine(shipped))),
    ring: await descriptorOf(warpedFace(image, similarityAffine([...ring, ...shipped.slice(2)]))),
    mouth: await descriptorOf(warpedFace(image, similarityAffine([...shipped.slice(0, 3), ...mouth]))),
    landmarks68: await descriptorOf(warpedFace(image, similarityAffine(package68))),
    affine3: await descriptorOf(warpedFace(image, affineOfThree(shipped))),
  };
  variants.mirror = sum(variants.shipped!, await descriptorOf(mirrored(warpedFace(image, similarityAffine(shipped)))));
  variants['shipped+landmarks68'] = sum(variants.shipped!, variants.landmarks68!);
  described.set(path, { gated: faceQualityHint(analysis) !== null, variants });
}

eyeShifts.sort((a, b) => a - b);
console.log(
  `${pairsFile}: the 68-point model's eye centres lie ${eyeShifts[Math.floor(eyeShifts.length / 2)]?.toFixed(3)} (median) and ${eyeShifts[Math.floor(eyeShifts.length * 0.9)]?.toFixed(3)} (p90) eye distances from the mesh's`,
);
for (const variant of ['shipped', 'ring', 'mouth', 'landmarks68', 'affine3', 'mirror', 'shipped+landmarks68']) {
  const scores: PairScore[] = [];
  for (const row of rows) {
    const [a, b] = [described.get(row.a!), described.get(row.b!)];
    if (!a || !b || (selfieGate && (a.gated || b.gated))) continue;
    scores.push({ same: row.same === 'true', similarity: cosineSimilarity(a.variants[variant]!, b.variants[variant]!) });
  }
  // The lowest threshold whose FAR is at most the target, as `bun run accuracy --pairs` chooses it (pair-summary.ts).
  const at = (far: number) => {
    const point = thresholdForFar(scores, far);
    if (!point) return `FAR ${far * 100} %: no different-person pairs`;
    return `FAR ${far * 100} %: threshold ${point.threshold.toFixed(3)}, FRR ${((100 * point.falseRejects) / point.same).toFixed(1)} % (${point.falseRejects}/${point.same})`;
  };
  const different = scores.filter((score) => !score.same).length;
  console.log(`  ${variant.padEnd(20)} ${at(0.0001)}   ${at(0.001)}   (${different} different-person pairs)`);
}
process.exit(0);
