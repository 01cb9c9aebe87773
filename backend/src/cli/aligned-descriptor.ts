/**
 * face-api's own pipeline for the `aligned` descriptor of `bun run accuracy --pairs` (issue 21,
 * Deliver 1): its SSD detector, its 68 landmarks, the face warped to the pose and size its
 * faceRecognitionNet expects, then the 128-d descriptor. Evaluation only: the engine does not load
 * these models. Shares tfjs (and its wasm backend) with the engine's models.
 */
import { createRequire } from 'node:module';
import { join } from 'node:path';
import type { FaceModels } from '../modules/engine/face-analysis';
import { packageDir } from '../modules/engine/human-runtime';
import type { DecodedImage } from '../modules/engine/image-decoding';

const require = createRequire(import.meta.url);

export async function loadAlignedDescriptor(models: FaceModels): Promise<(image: DecodedImage) => Promise<number[] | null>> {
  const dir = packageDir('@vladmandic/face-api');
  // biome-ignore lint/suspicious/noExplicitAny: face-api's node-wasm build is loaded by path, without types.
  const faceapi = require(join(dir, 'dist', 'face-api.node-wasm.js')) as any;
  const weights = join(dir, 'model');
  await faceapi.nets.ssdMobilenetv1.loadFromDisk(weights);
  await faceapi.nets.faceLandmark68Net.loadFromDisk(weights);
  await faceapi.nets.faceRecognitionNet.loadFromDisk(weights);
  return async (image) => {
    const tensor = models.tf.tensor3d(image.data, [image.height, image.width, 3], 'int32');
    try {
      const found = await faceapi
        .detectSingleFace(tensor, new faceapi.SsdMobilenetv1Options({ minConfidence: 0.3 }))
        .withFaceLandmarks()
        .withFaceDescriptor();
      return found ? Array.from(found.descriptor as Float32Array) : null;
    } finally {
      tensor.dispose();
    }
  };
}
