/**
 * Face match: is the selfie the person on the document's portrait? (issue 21, decision 0090)
 * Each face is aligned on five points of its mesh and described by an ArcFace-style MobileFaceNet
 * (face-embedding.ts); two faces are the same person when the cosine similarity of their
 * descriptors is at or above FACE_MATCH_MIN_SIMILARITY.
 *
 * The threshold was chosen on a tuning set of 400 LFW people none of the evaluation sets holds
 * (scripts/faces/lfw-tuning.ts): its false-accept rate of 0.01 % there, 0.408, rounded up. A
 * tenth of the target rate, because strangers photographed in one studio, in one light, look more
 * alike to the model than strangers in news photos (its 0.1 % point there, 0.337, accepted 0.4 %
 * of the London set's strangers and 0.9 % of ORL's). Figures in docs/verification.md "Face match".
 */
export const FACE_MATCH_MIN_SIMILARITY = 0.41;

/**
 * At or above this, the selfie is a copy of the portrait itself (the document's photo cropped and
 * uploaded or held up as the selfie), not a second photo of its holder: refused whatever the
 * liveness signals say (issue 21 Deliver 4). Measured on the same descriptor: decision 0090.
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

export type FaceMatchOutcome = { outcome: 'match' | 'mismatch' | 'copy'; similarity: number };

/**
 * The portrait against every good selfie frame (issue 21 Deliver 4): one lucky frame must not
 * decide, so the score is the median of the frames' similarities (with two frames, the lower one).
 * Any frame at the copy ceiling makes the whole selfie a copy. Pure; `selfies` are the
 * descriptors of frames that passed face-quality.ts, at least one.
 */
export function matchFrames(portrait: readonly number[], selfies: readonly (readonly number[])[]): FaceMatchOutcome {
  if (selfies.length === 0) throw new Error('matchFrames needs at least one selfie descriptor');
  const similarities = selfies.map((selfie) => cosineSimilarity(portrait, selfie)).sort((a, b) => a - b);
  const copy = similarities.at(-1)!;
  if (copy >= FACE_COPY_MIN_SIMILARITY) return { outcome: 'copy', similarity: copy };
  const median = similarities[Math.floor((similarities.length - 1) / 2)]!;
  return { outcome: median >= FACE_MATCH_MIN_SIMILARITY ? 'match' : 'mismatch', similarity: median };
}
