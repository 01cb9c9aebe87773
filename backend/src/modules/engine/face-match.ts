/**
 * Face match: is the selfie the person on the document's portrait? face-api's 128-d descriptors
 * (a port of dlib's recogniser) compared by Euclidean distance; the same person is below the
 * threshold. 0.6 is dlib's published operating point; our measurements are in docs/verification.md
 * and decision 0032-face-match-threshold.md.
 */
export const FACE_MATCH_MAX_DISTANCE = 0.6;

export function descriptorDistance(a: readonly number[], b: readonly number[]): number {
  if (a.length !== b.length) throw new Error(`descriptor lengths differ: ${a.length} and ${b.length}`);
  let sum = 0;
  for (let i = 0; i < a.length; i++) sum += (a[i]! - b[i]!) ** 2;
  return Math.sqrt(sum);
}

export function isSamePerson(distance: number, threshold = FACE_MATCH_MAX_DISTANCE): boolean {
  return distance < threshold;
}
