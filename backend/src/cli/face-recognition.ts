/**
 * face-api's faceRecognitionNet (a port of dlib's ResNet-34, 128-d) on the face cut as dlib cut its
 * training faces (face-chip.ts, decision 0065), for `bun run accuracy --pairs --descriptor aligned`.
 * Evaluation only: the engine judged with it beside faceres from 2026.11.6 to 2026.12.3 (decision
 * 0064) and describes faces with face-embedding.ts since (decision 0090). The face is the one Human
 * found (its box): face-api's 68 landmarks are read on that crop, the chip is sampled from the image
 * by the similarity they give, and the descriptor is the mean of the chip's and its mirror's.
 * face-api's weights ship in its npm package; it shares tfjs (and its wasm backend) with Human.
 */
import { createRequire } from 'node:module';
import { join } from 'node:path';
import type { FaceModels } from '../modules/engine/faces/face-analysis';
import { packageDir } from '../modules/engine/faces/human-runtime';
import type { DecodedImage } from '../modules/engine/image-decoding';
import { CHIP_SIZE, chipTransform, type Point } from './face-chip';

// biome-ignore lint/suspicious/noExplicitAny: tfjs tensors and face-api's node-wasm build are untyped here.
type Untyped = any;

/** A face box in pixels of the image: x, y, width, height. */
export type PixelBox = readonly [number, number, number, number];

/** The descriptor of the face in `box` of an int32 image tensor [height, width, 3]. */
export type Recognise = (image: Untyped, box: PixelBox) => Promise<number[]>;

export async function loadRecognition(faceapi: Untyped, tf: Untyped, packageDir: string): Promise<Recognise> {
  const weights = join(packageDir, 'model');
  await faceapi.nets.faceLandmark68Net.loadFromDisk(weights);
  await faceapi.nets.faceRecognitionNet.loadFromDisk(weights);
  const describe = async (chip: Untyped) => (await faceapi.nets.faceRecognitionNet.computeFaceDescriptor(chip)) as Float32Array;
  return async (image, [x, y, width, height]) => {
    const box = new faceapi.Rect(x, y, width, height);
    const [face] = await faceapi.extractFaceTensors(image, [box]);
    let landmarks: Untyped;
    try {
      landmarks = await faceapi.nets.faceLandmark68Net.detectLandmarks(face);
    } finally {
      face.dispose();
    }
    const points: Point[] = landmarks.shiftBy(x, y).positions.map((p: { x: number; y: number }): Point => [p.x, p.y]);
    const chips = tf.tidy(() => {
      const batch = tf.expandDims(tf.cast(image, 'float32'), 0);
      const chip = tf.image.transform(batch, tf.tensor2d([chipTransform(points)]), 'bilinear', 'nearest', 0, [CHIP_SIZE, CHIP_SIZE]);
      // The mirror image is the same face; averaging both descriptors steadies the one the model gives.
      return [tf.squeeze(chip, [0]), tf.squeeze(tf.reverse(chip, 2), [0])];
    });
    try {
      const [straight, mirrored] = [await describe(chips[0]), await describe(chips[1])];
      return Array.from(straight, (value, i) => (value + mirrored[i]!) / 2);
    } finally {
      for (const chip of chips) chip.dispose();
    }
  };
}

/** face-api's own measure for its descriptor: 1 − Euclidean distance (higher is more alike). */
export function closeness(a: ArrayLike<number>, b: ArrayLike<number>): number {
  if (a.length !== b.length || a.length === 0) throw new Error(`descriptor lengths differ or are empty: ${a.length} and ${b.length}`);
  let sum = 0;
  for (let i = 0; i < a.length; i++) sum += (a[i]! - b[i]!) ** 2;
  return 1 - Math.sqrt(sum);
}

/**
 * The descriptor of the face in a pixel box of a decoded image, with face-api's node-wasm build
 * sharing Human's tfjs (as face-analysis.ts loads face-api for its age model).
 */
export async function loadFaceApiRecognition(models: FaceModels): Promise<(image: DecodedImage, box: PixelBox) => Promise<number[]>> {
  const dir = packageDir('@vladmandic/face-api');
  const faceapi = createRequire(import.meta.url)(join(dir, 'dist', 'face-api.node-wasm.js'));
  const recognise = await loadRecognition(faceapi, models.tf, dir);
  return async (image, box) => {
    const tensor = models.tf.tensor3d(image.data, [image.height, image.width, 3], 'int32');
    try {
      return await recognise(tensor, box);
    } finally {
      tensor.dispose();
    }
  };
}
