/**
 * Face match: is the selfie the person on the document's portrait? Human's faceres embeddings
 * (1024-d) compared by cosine similarity; the same person is at or above the threshold. face-api's
 * 128-d recogniser was measured too and separated badly on Human's unaligned crops (decision
 * 0032-l2-and-face-match-thresholds.md). The threshold gives FAR 0.1 % on the 20 ORL people it was
 * chosen on and was then checked on 20 others (decision 0045-face-match-frames-and-copies.md,
 * figures in docs/verification.md); 0.55 before accepted 1.4–1.8 % of strangers there.
 */
export const FACE_MATCH_MIN_SIMILARITY = 0.62;

/**
 * At or above this, the selfie is a copy of the portrait itself (the document's photo cropped and
 * uploaded or held up as the selfie), not a second photo of its holder: refused whatever the
 * liveness signals say (issue 21). Crops of the passport fixture's portrait, re-encoded, blurred or
 * rotated, score 0.93–1.0; the fixtures' selfie against that portrait (printed from another
 * scan of the same photo) 0.87. Crops of the licence front's smaller portrait (0.88–0.90) are NOT
 * caught: that is the liveness challenge's job (decision 0045-face-match-frames-and-copies.md).
 */
export const FACE_COPY_MIN_SIMILARITY = 0.93;

export function cosineSimilarity(a: readonly number[], b: readonly number[]): number {
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

export function isSamePerson(similarity: number, threshold = FACE_MATCH_MIN_SIMILARITY): boolean {
  return similarity >= threshold;
}

export type FaceMatchOutcome = { outcome: 'match' | 'mismatch' | 'copy'; similarity: number };

/**
 * The portrait against every good selfie frame (issue 21 Deliver 4): one lucky frame must not
 * decide, so the score is the median of the frames' similarities (with two frames, the lower one).
 * Any frame at the copy ceiling makes the whole selfie a copy. Pure; `selfies` are descriptors of
 * frames that passed face-quality.ts, at least one.
 */
export function matchFrames(portrait: readonly number[], selfies: readonly (readonly number[])[]): FaceMatchOutcome {
  if (selfies.length === 0) throw new Error('matchFrames needs at least one selfie descriptor');
  const similarities = selfies.map((selfie) => cosineSimilarity(selfie, portrait)).sort((a, b) => a - b);
  const highest = similarities.at(-1)!;
  if (highest >= FACE_COPY_MIN_SIMILARITY) return { outcome: 'copy', similarity: highest };
  const median = similarities[Math.floor((similarities.length - 1) / 2)]!;
  return { outcome: isSamePerson(median) ? 'match' : 'mismatch', similarity: median };
}
