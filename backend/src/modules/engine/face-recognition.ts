/**
 * The face-match descriptor that judges alongside faceres (decision 0064): face-api's
 * faceRecognitionNet (a port of dlib's ResNet-34, 128-d) on the face aligned as face-api aligns it.
 * The face is the one Human found (its box): face-api's 68 landmarks are read on that crop, the
 * dlib alignment box is taken from them, and that box is described. face-api's own SSD detector is
 * not used: it cost about 0.5 s per image on two cores (bench/engine.ts), four times the rest.
 * face-api's weights ship in its npm package; it shares tfjs (and its wasm backend) with Human.
 */
import { join } from 'node:path';

// biome-ignore lint/suspicious/noExplicitAny: tfjs tensors and face-api's node-wasm build are untyped here.
type Untyped = any;

/** A face box in pixels of the image: x, y, width, height. */
export type PixelBox = readonly [number, number, number, number];

/** The descriptor of the face in `box` of an int32 image tensor [height, width, 3]. */
export type Recognise = (image: Untyped, box: PixelBox) => Promise<number[]>;

export async function loadRecognition(faceapi: Untyped, packageDir: string): Promise<Recognise> {
  const weights = join(packageDir, 'model');
  await faceapi.nets.faceLandmark68Net.loadFromDisk(weights);
  await faceapi.nets.faceRecognitionNet.loadFromDisk(weights);
  return async (image, [x, y, width, height]) => {
    const box = new faceapi.Rect(x, y, width, height);
    const [face] = await faceapi.extractFaceTensors(image, [box]);
    let landmarks: Untyped;
    try {
      landmarks = await faceapi.nets.faceLandmark68Net.detectLandmarks(face);
    } finally {
      face.dispose();
    }
    const aligned = landmarks.align(box, { useDlibAlignment: true });
    const [crop] = await faceapi.extractFaceTensors(image, [aligned]);
    try {
      return Array.from((await faceapi.nets.faceRecognitionNet.computeFaceDescriptor(crop)) as Float32Array);
    } finally {
      crop.dispose();
    }
  };
}
