/**
 * The face-match summary of `bun run accuracy --pairs` (accuracy.ts), pure so it is tested on its
 * own: FAR and FRR at a threshold, the lowest threshold whose FAR is at most a target (0.1 %,
 * issue 21), and the ROC points (one per distinct similarity) behind both.
 */
export interface PairScore {
  same: boolean;
  similarity: number;
}

export interface Rates {
  threshold: number;
  falseAccepts: number;
  different: number;
  falseRejects: number;
  same: number;
}

/** A pair matches when its score is at or above the threshold (for `both`, the engine's rule: a margin of 0, face-match.ts `matchMargin`). */
export function ratesAt(scores: readonly PairScore[], threshold: number): Rates {
  const rates: Rates = { threshold, falseAccepts: 0, different: 0, falseRejects: 0, same: 0 };
  for (const { same, similarity } of scores) {
    if (same) {
      rates.same++;
      if (similarity < threshold) rates.falseRejects++;
    } else {
      rates.different++;
      if (similarity >= threshold) rates.falseAccepts++;
    }
  }
  return rates;
}

/**
 * Every threshold worth trying: each distinct similarity, plus one above the highest (nothing
 * matches). One pass over the sorted scores, not ratesAt per threshold: a set of 200,000 pairs has
 * about as many thresholds.
 */
export function rocPoints(scores: readonly PairScore[]): Rates[] {
  const sorted = [...scores].sort((a, b) => a.similarity - b.similarity);
  const same = sorted.filter((s) => s.same).length;
  const different = sorted.length - same;
  const points: Rates[] = [];
  // Below the threshold so far: genuine pairs refused, and strangers no longer accepted.
  let sameBelow = 0;
  let differentBelow = 0;
  for (let i = 0; i < sorted.length; ) {
    const threshold = sorted[i]!.similarity;
    points.push({ threshold, falseAccepts: different - differentBelow, different, falseRejects: sameBelow, same });
    for (; i < sorted.length && sorted[i]!.similarity === threshold; i++) sorted[i]!.same ? sameBelow++ : differentBelow++;
  }
  if (sorted.length) points.push({ threshold: sorted.at(-1)!.similarity + 1e-6, falseAccepts: 0, different, falseRejects: same, same });
  return points;
}

/** The lowest threshold whose false-accept rate is at most `maxFar` (so the fewest genuine pairs are refused). */
export function thresholdForFar(scores: readonly PairScore[], maxFar: number): Rates | null {
  for (const point of rocPoints(scores)) {
    if (point.different > 0 && point.falseAccepts / point.different <= maxFar) return point;
  }
  return null;
}
