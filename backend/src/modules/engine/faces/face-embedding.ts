/**
 * Face match's descriptor (issue 21, decision 0090): an ArcFace-style MobileFaceNet
 * (backend/models/face-embedding, MIT) on the face aligned to its template (face-alignment.ts),
 * 512 numbers compared by cosine similarity (face-match.ts). It replaced Human's faceres and
 * face-api's dlib port because, on news photos of people it was not chosen on, it refuses 1.7 % of
 * genuine pairs at a false-accept rate of 0.1 % where they refused 36 % and 14 %.
 *
 * onnxruntime-node runs it on the CPU. One thread per session: the engine pool already runs one
 * worker per core, and each worker one job at a time (engine-pool.ts).
 */
import { join } from 'node:path';
import { InferenceSession, Tensor } from 'onnxruntime-node';
import { brightnessAndSharpness, type DecodedImage } from '../image-decoding';
import { ALIGNED_SIDE, alignedFace, type Point } from './face-alignment';

export const FACE_EMBEDDING_MODEL = join(import.meta.dir, '..', '..', '..', '..', 'models', 'face-embedding', 'fr_feature.onnx');

/**
 * Where the sharpness of what the model reads is measured: the aligned crop's eyes, nose and mouth
 * (the template's points lie in x 38–74, y 51–93), not its corners of hair and background.
 */
const FEATURES = { x: 28, y: 40, width: 56, height: 60 } as const;

/**
 * The descriptor of the face whose mesh is `mesh` (Human's 468 points, in pixels of `image`), and
 * the sharpness (Laplacian variance) of the aligned crop the model read: a face too few pixels
 * wide is enlarged to 112 and comes out as soft as a blurred one (portrait-quality.ts).
 */
export type Embed = (image: DecodedImage, mesh: readonly Point[]) => Promise<{ embedding: number[]; alignedSharpness: number }>;

export async function loadFaceEmbedding(model = FACE_EMBEDDING_MODEL): Promise<Embed> {
  const descriptor = await loadAlignedDescriptor(model);
  return async (image, mesh) => {
    const pixels = alignedFace(image, mesh);
    const crop = { width: ALIGNED_SIDE, height: ALIGNED_SIDE, data: Uint8Array.from(pixels, Math.round) };
    return { embedding: await descriptor(pixels), alignedSharpness: brightnessAndSharpness(crop, FEATURES).sharpness };
  };
}

/**
 * The model's 512 numbers for a face already aligned (face-alignment.ts: a 112 × 112 crop, RGB
 * interleaved 0–255): what loadFaceEmbedding describes, and what scripts/faces/alignment-variants.ts
 * describes under other alignments.
 */
export async function loadAlignedDescriptor(model = FACE_EMBEDDING_MODEL): Promise<(pixels: Float32Array) => Promise<number[]>> {
  const session = await InferenceSession.create(model, { intraOpNumThreads: 1, interOpNumThreads: 1, executionMode: 'sequential' });
  const [input] = session.inputNames;
  const [output] = session.outputNames;
  if (!input || !output) throw new Error(`${model}: the model has no input or no output`);
  const plane = ALIGNED_SIDE * ALIGNED_SIDE;
  // The first run prepares the session's kernels: done at load, not in a user's check.
  const blank = new Tensor('float32', new Float32Array(3 * plane), [1, 3, ALIGNED_SIDE, ALIGNED_SIDE]);
  (await session.run({ [input]: blank }))[output]!.dispose();
  blank.dispose();
  return async (pixels) => {
    // RGB interleaved 0–255 → three planes of (x − 127.5) / 128, as the model was trained.
    const planes = new Float32Array(3 * plane);
    for (let i = 0; i < plane; i++) for (let c = 0; c < 3; c++) planes[c * plane + i] = (pixels[i * 3 + c]! - 127.5) / 128;
    const tensor = new Tensor('float32', planes, [1, 3, ALIGNED_SIDE, ALIGNED_SIDE]);
    const result = await session.run({ [input]: tensor });
    try {
      return Array.from(result[output]!.data as Float32Array);
    } finally {
      tensor.dispose();
      result[output]!.dispose();
    }
  };
}
