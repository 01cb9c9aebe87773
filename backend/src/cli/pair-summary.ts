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

/** Every threshold worth trying: each distinct similarity, plus one above the highest (nothing matches). */
export function rocPoints(scores: readonly PairScore[]): Rates[] {
  const thresholds = [...new Set(scores.map((s) => s.similarity))].sort((a, b) => a - b);
  if (thresholds.length) thresholds.push(thresholds.at(-1)! + 1e-6);
  return thresholds.map((t) => ratesAt(scores, t));
}

/** The lowest threshold whose false-accept rate is at most `maxFar` (so the fewest genuine pairs are refused). */
export function thresholdForFar(scores: readonly PairScore[], maxFar: number): Rates | null {
  for (const point of rocPoints(scores)) {
    if (point.different > 0 && point.falseAccepts / point.different <= maxFar) return point;
  }
  return null;
}
