/**
 * Face match: is the selfie the person on the document's portrait? Two models judge each pair and
 * each can refuse it (decision 0064):
 * - Human's faceres embedding (1024-d) on its face box, by cosine similarity, at or above
 *   FACE_MATCH_MIN_SIMILARITY (chosen on ORL people s1–s20, checked on s21–s40; decision 0045);
 * - face-api's faceRecognitionNet (dlib's ResNet, 128-d) on dlib's face chip (face-chip.ts,
 *   decision 0065), as 1 − Euclidean distance, at or above FACE_RECOGNITION_MIN_CLOSENESS (chosen on
 *   the same ORL people for a false-accept rate of 0.1 %: 0.5045, rounded up).
 * faceres alone accepted 1.6 % of strangers on the colour London set (48 % of pairs of two Black
 * people), which neither model was chosen on; figures in docs/verification.md "Face match".
 */
export const FACE_MATCH_MIN_SIMILARITY = 0.62;
export const FACE_RECOGNITION_MIN_CLOSENESS = 0.505;

/**
 * At or above this, the selfie is a copy of the portrait itself (the document's photo cropped and
 * uploaded or held up as the selfie), not a second photo of its holder: refused whatever the
 * liveness signals say (issue 21). Crops of the passport fixture's portrait, re-encoded, blurred or
 * rotated, score 0.93–1.0; the fixtures' selfie against that portrait (printed from another
 * scan of the same photo) 0.87. Crops of the licence front's smaller portrait (0.88–0.90) are NOT
 * caught: that is the liveness challenge's job (decision 0045-face-match-frames-and-copies.md).
 */
export const FACE_COPY_MIN_SIMILARITY = 0.93;

export function cosineSimilarity(a: ArrayLike<number>, b: ArrayLike<number>): number {
  if (a.length !== b.length || a.length === 0) throw new Error(`descriptor lengths differ or are empty: ${a.length} and ${b.length}`);
  let dot = 0;
  let normA = 0;
  let normB = 0;
  for (let i = 0; i < a.length; i++) {
    dot += a[i]! * b[i]!;
    normA += a[i]! ** 2;
    normB += b[i]! ** 2;
  }
  return normA === 0 || normB === 0 ? 0 : dot / Math.sqrt(normA * normB);
}

/** face-api's own measure for its descriptor: 1 − Euclidean distance (higher is more alike). */
export function closeness(a: ArrayLike<number>, b: ArrayLike<number>): number {
  if (a.length !== b.length || a.length === 0) throw new Error(`descriptor lengths differ or are empty: ${a.length} and ${b.length}`);
  let sum = 0;
  for (let i = 0; i < a.length; i++) sum += (a[i]! - b[i]!) ** 2;
  return 1 - Math.sqrt(sum);
}

/**
 * The least a pair's score must clear in units of both faces' spreads against the cohort
 * (face-cohort.ts, decision 0068), per model: chosen on ORL people s1–s20 with the cohort, as the
 * thresholds for a false-accept rate of 0.1 % lowered by as much as keeps the whole rule's
 * false-reject rate at or under the issue's 3 %.
 */
export const FACE_MATCH_MIN_NORMALISED = { faceres: 3.81, recognition: 3.4 } as const;

/** Mean and spread of one face's scores against the cohort, per model (face-cohort.ts). */
export interface CohortStats {
  faceres: { mean: number; spread: number };
  recognition: { mean: number; spread: number };
}

/** A face's two descriptors (Human's faceres, face-api's aligned recognition descriptor) and its cohort statistics. */
export interface MatchDescriptors {
  faceres: readonly number[];
  recognition: readonly number[];
  cohort: CohortStats;
}

/** A pair's score in units of both faces' cohort spreads: the mean of its two z-scores (symmetric normalisation). */
export function normalisedScore(score: number, a: { mean: number; spread: number }, b: { mean: number; spread: number }): number {
  return ((score - a.mean) / a.spread + (score - b.mean) / b.spread) / 2;
}

/**
 * How far a pair clears every threshold: the lower of the margins. At or above 0 both models say
 * "the same person", by their raw scores and by their scores normalised against the cohort; below
 * 0 at least one refuses.
 */
export function matchMargin(a: MatchDescriptors, b: MatchDescriptors): number {
  const faceres = cosineSimilarity(a.faceres, b.faceres);
  const recognition = closeness(a.recognition, b.recognition);
  return Math.min(
    faceres - FACE_MATCH_MIN_SIMILARITY,
    recognition - FACE_RECOGNITION_MIN_CLOSENESS,
    normalisedScore(faceres, a.cohort.faceres, b.cohort.faceres) - FACE_MATCH_MIN_NORMALISED.faceres,
    normalisedScore(recognition, a.cohort.recognition, b.cohort.recognition) - FACE_MATCH_MIN_NORMALISED.recognition,
  );
}

export type FaceMatchOutcome = { outcome: 'match' | 'mismatch' | 'copy'; margin: number };

/**
 * The portrait against every good selfie frame (issue 21 Deliver 4): one lucky frame must not
 * decide, so the score is the median of the frames' margins (with two frames, the lower one).
 * Any frame whose faceres similarity reaches the copy ceiling makes the whole selfie a copy. Pure;
 * `selfies` are descriptors of frames that passed face-quality.ts, at least one.
 */
export function matchFrames(portrait: MatchDescriptors, selfies: readonly MatchDescriptors[]): FaceMatchOutcome {
  if (selfies.length === 0) throw new Error('matchFrames needs at least one selfie descriptor');
  const copy = selfies.map((selfie) => cosineSimilarity(selfie.faceres, portrait.faceres)).find((similarity) => similarity >= FACE_COPY_MIN_SIMILARITY);
  if (copy !== undefined) return { outcome: 'copy', margin: copy - FACE_MATCH_MIN_SIMILARITY };
  const margins = selfies.map((selfie) => matchMargin(portrait, selfie)).sort((a, b) => a - b);
  const median = margins[Math.floor((margins.length - 1) / 2)]!;
  return { outcome: median >= 0 ? 'match' : 'mismatch', margin: median };
}
