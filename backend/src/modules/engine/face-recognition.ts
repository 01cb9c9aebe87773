/**
 * The face-match descriptor that judges alongside faceres (decision 0064): face-api's own pipeline,
 * exactly as measured in docs/verification.md "Face match". Its SSD detector finds the face, its 68
 * landmarks give the aligned crop its faceRecognitionNet (a port of dlib's ResNet-34) expects, and
 * that net gives the 128-d descriptor. face-api's weights ship in its npm package; it shares tfjs
 * (and its wasm backend) with Human.
 */
import { join } from 'node:path';

// biome-ignore lint/suspicious/noExplicitAny: tfjs tensors and face-api's node-wasm build are untyped here.
type Untyped = any;

/** The descriptor of the most confident face in an int32 image tensor [height, width, 3], or null when face-api finds none. */
export type Recognise = (image: Untyped) => Promise<number[] | null>;

/** Minimum SSD confidence: the level the figures were measured at (cli accuracy --pairs). */
const MIN_DETECTION_CONFIDENCE = 0.3;

export async function loadRecognition(faceapi: Untyped, packageDir: string): Promise<Recognise> {
  const weights = join(packageDir, 'model');
  await faceapi.nets.ssdMobilenetv1.loadFromDisk(weights);
  await faceapi.nets.faceLandmark68Net.loadFromDisk(weights);
  await faceapi.nets.faceRecognitionNet.loadFromDisk(weights);
  return async (image) => {
    const found = await faceapi
      .detectSingleFace(image, new faceapi.SsdMobilenetv1Options({ minConfidence: MIN_DETECTION_CONFIDENCE }))
      .withFaceLandmarks()
      .withFaceDescriptor();
    return found ? Array.from(found.descriptor as Float32Array) : null;
  };
}
