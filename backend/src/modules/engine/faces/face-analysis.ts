/**
 * What the face models see in one image (decision 0030-face-models.md): Human finds faces and gives
 * pose (mesh), passive anti-spoof and liveness scores, and (only when asked) its faceres 1024-d
 * embedding; face-api's ageGenderNet estimates the age on Human's face crop; face match's own
 * descriptor (face-embedding.ts) describes the face aligned on Human's mesh, when asked.
 * This file only measures; what the measurements mean is decided in face-quality.ts,
 * age-decision.ts and face-match.ts. Runs inside an engine worker (engine-worker.ts), one image at
 * a time: a Human instance is stateful (docs/engine-notes.md "One model instance, fresh results, small images").
 */
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { brightnessAndSharpness, type DecodedImage } from '../image-decoding';
import { type Embed, loadFaceEmbedding } from './face-embedding';
import { type HumanInstance, type HumanOptions, loadHuman, packageDir } from './human-runtime';

const require = createRequire(import.meta.url);

export interface FaceMeasurement {
  /** Face box as a share of the image: x, y, width, height in 0–1. */
  box: [number, number, number, number];
  /** Face width in pixels of the decoded image (the document portrait's quality gate, portrait-quality.ts). */
  widthPx: number;
  detectorScore: number;
  /** Degrees, from the face mesh; null when Human gives no head rotation (the pose is unknown, not frontal: issue 25 item 5). */
  yaw: number | null;
  pitch: number | null;
  roll: number | null;
  /** Mean luminance 0–255 and Laplacian variance of the face region. */
  brightness: number;
  sharpness: number;
  /** Absent when not asked (AnalysisOptions.age). */
  estimatedAge?: number;
  /**
   * Age estimates of augmented views of the face (only when asked: the live L1 check, not document
   * portraits): Human's box, its mirror image, a square 1.15× the box around its centre, and that
   * square's mirror image (the four views measured in docs/verification.md "L1 on the London set").
   * age-decision.ts requires them to agree (issue 19).
   */
  ageViews?: number[];
  /** Passive signals (soft): Human antispoof (real) and liveness, 0–1. */
  antispoof: number | null;
  liveness: number | null;
  /** Human's faceres 1024-d embedding (only when asked: `bun run accuracy --pairs --descriptor faceres`; the engine no longer decides on it, decision 0098). */
  descriptor?: number[];
  /** Face match's 512-d descriptor of the face aligned on its mesh (only when asked: face-embedding.ts, decision 0090). */
  embedding?: number[];
  /** Laplacian variance of the aligned crop that descriptor was read from (with it; the portrait's quality gate, portrait-quality.ts). */
  alignedSharpness?: number;
  /** The face mesh's 468 points in pixels of the decoded image (only when asked): the liveness motion check (liveness/motion-check.ts). */
  landmarks?: [number, number][];
}

export interface FaceAnalysis {
  faceCount: number;
  /** The largest face (the one a decision is about). */
  face: FaceMeasurement | null;
}

interface FaceApiNets {
  ageGenderNet: { loadFromDisk(dir: string): Promise<void>; predictAgeAndGender(input: unknown): Promise<{ age: number }> };
}

export interface FaceModels {
  human: HumanInstance;
  faceApi: FaceApiNets;
  /** Face match's descriptor (face-embedding.ts). */
  embed: Embed;
  // biome-ignore lint/suspicious/noExplicitAny: tfjs is loaded from its node-wasm build by path, without types.
  tf: any;
}

export async function loadFaceModels(options: HumanOptions = {}): Promise<FaceModels> {
  const human = await loadHuman(options);
  const faceApiDir = packageDir('@vladmandic/face-api');
  // The package's `exports` has no node-wasm entry; the build shares the one tfjs-core (and its wasm backend) with Human.
  const faceApiModule = require(join(faceApiDir, 'dist', 'face-api.node-wasm.js'));
  const faceApi = faceApiModule.nets as FaceApiNets;
  await faceApi.ageGenderNet.loadFromDisk(join(faceApiDir, 'model'));
  const tf = require('@tensorflow/tfjs-core');
  return { human, faceApi, embed: await loadFaceEmbedding(), tf };
}

/** Margin around Human's box for the face-api crop. 0 measured best on UTKFace (MAE 6.0 vs 7.9 at 0.25; docs/verification.md). */
const CROP_MARGIN = 0;
/** Side of the square view as a multiple of the box's longer side (the research note's "1.15× square"). */
const SQUARE_VIEW_SCALE = 1.15;

// biome-ignore lint/suspicious/noExplicitAny: tfjs tensors are untyped here (see FaceModels.tf).
type Tensor = any;

/** The views whose ages ageViews reports, in this order: box, mirrored box, 1.15× square, mirrored square. */
async function ageViews(
  models: FaceModels,
  image: Tensor,
  box: { x: number; y: number; w: number; h: number; age: number },
  width: number,
  height: number,
): Promise<number[]> {
  const { faceApi, tf } = models;
  const side = Math.max(box.w, box.h) * SQUARE_VIEW_SCALE;
  const cx = box.x + box.w / 2;
  const cy = box.y + box.h / 2;
  const regions = [
    { x0: box.x, y0: box.y, x1: box.x + box.w, y1: box.y + box.h },
    { x0: cx - side / 2, y0: cy - side / 2, x1: cx + side / 2, y1: cy + side / 2 },
  ];
  // The box itself is the crop estimatedAge came from (CROP_MARGIN 0): its age is not estimated twice.
  const ages: number[] = [];
  for (const [index, region] of regions.entries()) {
    const x0 = Math.max(0, Math.round(region.x0));
    const y0 = Math.max(0, Math.round(region.y0));
    const x1 = Math.min(width, Math.round(region.x1));
    const y1 = Math.min(height, Math.round(region.y1));
    const crop = tf.slice(image, [y0, x0, 0], [y1 - y0, x1 - x0, 3]);
    // Mirrored along the width axis: a face and its mirror image are the same age.
    const mirrored = tf.reverse(crop, 1);
    try {
      for (const view of [crop, mirrored]) {
        const age = index === 0 && view === crop ? box.age : (await faceApi.ageGenderNet.predictAgeAndGender(view)).age;
        ages.push(Math.round(age * 10) / 10);
      }
    } finally {
      crop.dispose();
      mirrored.dispose();
    }
  }
  return ages;
}

export interface AnalysisOptions {
  /** Human's faceres embedding (for comparisons in `bun run accuracy`; the engine decides on `embedding`). */
  descriptor: boolean;
  /** The face mesh's points (the liveness motion check). */
  landmarks?: boolean;
  /** Face match's descriptor of the aligned face (face-embedding.ts). */
  embedding?: boolean;
  /** The age of the face crop's views (the L1 rule); implies the age. */
  ageViews?: boolean;
  /**
   * The age estimate (default true) and the passive anti-spoof and liveness scores (default true).
   * A challenge's turned frames and a face-match selfie need neither, and each costs an inference
   * per frame (bench/engine.ts).
   */
  age?: boolean;
  passive?: boolean;
}

export async function analyseFace(models: FaceModels, image: DecodedImage, options: AnalysisOptions): Promise<FaceAnalysis> {
  const { human, faceApi, tf } = models;
  const { age: withAge = true, passive = true } = options;
  const tensor = tf.tensor3d(image.data, [image.height, image.width, 3], 'int32');
  try {
    // Set on every call: Human merges a call's config into its own, so it must never carry over.
    const { face: faces } = await human.detect(tensor, {
      face: { description: { enabled: options.descriptor }, antispoof: { enabled: passive }, liveness: { enabled: passive } },
    });
    if (faces.length === 0) return { faceCount: 0, face: null };
    const largest = faces.reduce((a, b) => (a.box[2] * a.box[3] >= b.box[2] * b.box[3] ? a : b));
    const [x, y, w, h] = largest.box;
    const x0 = Math.max(0, Math.round(x - w * CROP_MARGIN));
    const y0 = Math.max(0, Math.round(y - h * CROP_MARGIN));
    const x1 = Math.min(image.width, Math.round(x + w * (1 + CROP_MARGIN)));
    const y1 = Math.min(image.height, Math.round(y + h * (1 + CROP_MARGIN)));
    const crop = tf.slice(tensor, [y0, x0, 0], [y1 - y0, x1 - x0, 3]);
    try {
      const age = withAge ? (await faceApi.ageGenderNet.predictAgeAndGender(crop)).age : null;
      const descriptor = options.descriptor && largest.embedding?.length ? Array.from(largest.embedding) : undefined;
      const angle = largest.rotation?.angle;
      const degrees = (radians: number | undefined) => (radians === undefined ? null : (radians * 180) / Math.PI);
      const mesh = largest.mesh?.map((point): [number, number] => [point[0]!, point[1]!]);
      return {
        faceCount: faces.length,
        face: {
          box: [x / image.width, y / image.height, w / image.width, h / image.height],
          widthPx: Math.round(w),
          detectorScore: largest.boxScore ?? largest.score,
          yaw: degrees(angle?.yaw),
          pitch: degrees(angle?.pitch),
          roll: degrees(angle?.roll),
          ...brightnessAndSharpness(image, { x, y, width: w, height: h }),
          estimatedAge: age === null ? undefined : Math.round(age * 10) / 10,
          ageViews: options.ageViews && age !== null ? await ageViews(models, tensor, { x, y, w, h, age }, image.width, image.height) : undefined,
          antispoof: largest.real ?? null,
          liveness: largest.live ?? null,
          descriptor,
          ...(options.embedding && mesh?.length ? await models.embed(image, mesh) : {}),
          landmarks: options.landmarks ? mesh : undefined,
        },
      };
    } finally {
      crop.dispose();
    }
  } finally {
    tensor.dispose();
  }
}
