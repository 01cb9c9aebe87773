/**
 * One engine worker thread (engine-pool.ts starts them): holds the models, loaded once and warmed
 * with a blank frame on the first job that needs them (or at boot with ENGINE_PRELOAD), and runs one
 * job at a time, since a Human instance is stateful (docs/engine-notes.md
 * "One model instance, fresh results, small images"). It measures and reports findings; it never decides and never writes anything: the
 * image bytes arrive as transferred buffers and are dropped when the job ends (issue 10).
 */
import { parentPort } from 'node:worker_threads';
import { needsDocumentFront, type DocumentType } from '@ageverify/protocol';
import { analyseFace, loadFaceModels, type FaceAnalysis, type FaceModels } from '../faces/face-analysis';
import { decodeImage, ImageRejected, type DecodedImage } from '../image-decoding';
import { createMrzOcr, type MrzOcr } from '../documents/mrz-ocr';
import { readMrz } from '../documents/mrz-reading';
import { readPdf417 } from '../documents/pdf417-reading';
import type { DocumentFindings, EngineFindings, FrameFindings, Timings } from '../model';

export type EngineJob =
  | { kind: 'warmup' }
  /** `steps`: the liveness challenge step of each selfie (protocol selfieSteps); absent for a lone picture (the CLI). */
  | { kind: 'age_estimation'; selfies: Uint8Array[]; steps?: number[] }
  | {
      kind: 'document';
      documentType: DocumentType;
      document: Uint8Array;
      /** A licence's front, with the portrait (protocol needsDocumentFront); null otherwise. */
      documentFront: Uint8Array | null;
      selfies: Uint8Array[];
      steps?: number[];
      faceMatch: boolean;
    };

export type EngineReply =
  | { id: number; ok: true; findings: EngineFindings | null; timings: Timings }
  /** refused: the input is at fault (a 4xx); replace: the worker may still be busy, start a new one. */
  | { id: number; ok: false; error: string; refused?: boolean; replace?: boolean };

/** Selfies are downscaled to 640 px (faces), documents to 1600 px (MRZ characters stay ≥ 20 px high). */
const FACE_SIDE = 640;
const DOCUMENT_SIDE = 1600;

let faceModels: Promise<FaceModels> | null = null;
let ocr: Promise<MrzOcr> | null = null;
/** A blank frame: the first inference compiles the wasm kernels, so it is done before any real one. */
const blank = () => ({ width: 320, height: 320, data: new Uint8Array(320 * 320 * 3).fill(128) });
const faces = () =>
  (faceModels ??= loadFaceModels().then(async (models) => {
    await analyseFace(models, blank(), { descriptor: false });
    return models;
  }));
const mrzOcr = () => (ocr ??= createMrzOcr());

async function timed<T>(timings: Timings, name: string, work: () => Promise<T>): Promise<T> {
  const started = performance.now();
  try {
    return await work();
  } finally {
    timings[name] = Math.round((performance.now() - started) * 10) / 10 + (timings[name] ?? 0);
  }
}

async function decodeOrNull(bytes: Uint8Array, maxSide: number): Promise<DecodedImage | null> {
  try {
    return await decodeImage(bytes, { maxSide });
  } catch (error) {
    // Too complex is not a picture the user can retake better: the pool refuses the whole job.
    if (error instanceof ImageRejected && error.kind !== 'too_complex') return null;
    throw error;
  }
}

/**
 * Every frame is analysed for its face and mesh: the liveness challenge is judged across all of
 * them (liveness/motion-check.ts). An L1 age is decided over every view of the frames taken looking
 * at the camera (age-decision.ts), so only those get the age, its views and the passive scores
 * (which are logged); a face-match selfie's age is not asked. The descriptor (face-embedding.ts,
 * which both the liveness check's same-person test and face match compare: decision 0098) is read
 * from each frame's mesh, with no second detection: for every frame taken looking at the camera
 * while it is analysed, then for the turned frames the motion check judges (describedFrames);
 * without a challenge's steps, for every frame.
 */
async function analyseSelfies(
  selfies: Uint8Array[],
  timings: Timings,
  steps: readonly number[] | undefined,
  purpose: 'age' | 'face_match',
): Promise<FrameFindings[]> {
  const withAge = purpose === 'age';
  const models = await timed(timings, 'loadFaceModels', faces);
  const frames: FrameFindings[] = [];
  const images: (DecodedImage | null)[] = [];
  for (const [index, bytes] of selfies.entries()) {
    const image = await timed(timings, 'decode', () => decodeOrNull(bytes, FACE_SIDE));
    images.push(image);
    const facing = (steps?.[index] ?? 0) === 0;
    const age = withAge && facing;
    // Frames looking at the camera are always described, in this pass.
    const options = { descriptor: false, embedding: facing, landmarks: true, ageViews: age, age, passive: age };
    frames.push(image ? await timed(timings, 'face', () => analyseFace(models, image, options)) : { unreadable: true });
  }
  if (steps === undefined) return frames;
  for (const index of describedFrames(frames, steps)) {
    const frame = frames[index]!;
    const image = images[index];
    const face = 'face' in frame ? frame.face : null;
    if (!image || !face?.landmarks || face.embedding) continue;
    face.embedding = (await timed(timings, 'descriptor', () => models.embed(image, face.landmarks!))).embedding;
  }
  return frames;
}

/**
 * The frames whose descriptors the decisions compare: every frame taken looking at the camera (the
 * motion check's baseline is the most frontal of them; face match compares them with the
 * portrait), and in each move's step the frame turned farthest from them, which is the one the
 * motion check judges when the turn was made (it judges only described frames).
 */
export function describedFrames(frames: readonly FrameFindings[], steps: readonly number[]): number[] {
  const yawOf = (index: number) => {
    const frame = frames[index];
    return frame && 'face' in frame && frame.face ? frame.face.yaw : null;
  };
  const baseline = steps.flatMap((step, index) => (step === 0 ? [index] : []));
  const baseYaw = baseline.map(yawOf).find((yaw) => yaw !== null) ?? 0;
  const farthest = new Map<number, number>();
  for (const [index, step] of steps.entries()) {
    const yaw = yawOf(index);
    if (step === 0 || yaw === null) continue;
    const best = farthest.get(step);
    if (best === undefined || Math.abs(yaw - baseYaw) > Math.abs(yawOf(best)! - baseYaw)) farthest.set(step, index);
  }
  return [...baseline, ...farthest.values()];
}

export async function runJob(job: EngineJob, timings: Timings = {}): Promise<EngineFindings | null> {
  switch (job.kind) {
    case 'warmup': {
      await timed(timings, 'loadFaceModels', faces);
      await timed(timings, 'loadOcr', mrzOcr);
      return null;
    }
    case 'age_estimation':
      return { kind: 'age_estimation', frames: await analyseSelfies(job.selfies, timings, job.steps, 'age') };
    case 'document': {
      const findings: DocumentFindings = { kind: 'document', documentType: job.documentType, reading: null, portrait: null, frames: [] };
      const image = await timed(timings, 'decode', () => decodeOrNull(job.document, DOCUMENT_SIDE));
      if (!image) return findings;
      // With face match, the faces are analysed while the document is read: tesseract reads on
      // threads of its own (mrz-ocr.ts), one while the first band is read, so on two cores the
      // check takes about the longer of the two rather than their sum (issue 21: p50 ≤ 1.5 s). They count only for a valid reading, as before; for any other
      // the work is wasted, and awaited all the same, so it never runs into the worker's next job.
      const matching = job.faceMatch ? settled(matchFaces(job, image, timings)) : null;
      try {
        if (job.documentType === 'driving_licence') {
          findings.reading = { source: 'pdf417', ...(await timed(timings, 'pdf417', () => readPdf417(image))) };
        } else {
          const engine = await timed(timings, 'loadOcr', mrzOcr);
          findings.reading = { source: 'mrz', ...(await timed(timings, 'mrz', () => readMrz(engine, image))) };
        }
      } finally {
        await matching;
      }
      if (matching && findings.reading.found && findings.reading.valid) {
        const outcome = await matching;
        if (!outcome.ok) throw outcome.error;
        findings.portrait = outcome.value.portrait;
        findings.frames = outcome.value.frames;
      }
      return findings;
    }
  }
}

/**
 * The portrait and the selfies of a face-match check. A licence's portrait is on its front, a
 * separate image (the barcode is on the back); passports and ID cards show it beside the MRZ. An
 * undecodable front leaves the portrait null, which document-decision.ts answers with a retry for
 * the front.
 */
async function matchFaces(
  job: Extract<EngineJob, { kind: 'document' }>,
  document: DecodedImage,
  timings: Timings,
): Promise<{ portrait: FaceAnalysis | null; frames: FrameFindings[] }> {
  const models = await timed(timings, 'loadFaceModels', faces);
  const portraitImage = needsDocumentFront(job.documentType, job.faceMatch)
    ? job.documentFront && (await timed(timings, 'decode', () => decodeOrNull(job.documentFront!, DOCUMENT_SIDE)))
    : document;
  const portrait = portraitImage
    ? await timed(timings, 'portrait', () => analyseFace(models, portraitImage, { descriptor: false, embedding: true, age: false, passive: false }))
    : null;
  return { portrait, frames: await analyseSelfies(job.selfies, timings, job.steps, 'face_match') };
}

/** A promise that never rejects: its outcome is read later, and only when it is wanted. */
async function settled<T>(promise: Promise<T>): Promise<{ ok: true; value: T } | { ok: false; error: unknown }> {
  try {
    return { ok: true, value: await promise };
  } catch (error) {
    return { ok: false, error };
  }
}

// As a worker thread: one message is one job; replies carry the job's id.
if (parentPort) {
  const port = parentPort;
  port.on('message', async ({ id, job }: { id: number; job: EngineJob }) => {
    const timings: Timings = {};
    try {
      const findings = await runJob(job, timings);
      port.postMessage({ id, ok: true, findings, timings } satisfies EngineReply);
    } catch (error) {
      // Only the message: never the input, which may hold image bytes.
      const message = error instanceof Error ? error.message : String(error);
      // An image over its decode budget may still occupy sharp's threads: the pool replaces this worker.
      const refused = error instanceof ImageRejected && error.kind === 'too_complex';
      port.postMessage({ id, ok: false, error: message, ...(refused ? { refused, replace: true } : {}) } satisfies EngineReply);
    }
  });
}
