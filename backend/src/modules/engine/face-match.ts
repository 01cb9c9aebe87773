/**
 * Face match: is the selfie the person on the document's portrait? Human's faceres embeddings
 * (1024-d) compared by cosine similarity; the same person is at or above the threshold. face-api's
 * 128-d recogniser was measured too and separated badly on Human's unaligned crops (decision
 * 0032-l2-and-face-match-thresholds.md, figures in docs/verification.md).
 */
export const FACE_MATCH_MIN_SIMILARITY = 0.55;

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
