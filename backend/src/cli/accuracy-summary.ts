/** The summary table of `bun run accuracy --faces` (accuracy.ts), pure so it is tested on its own. */
export interface FaceResult {
  file: string;
  ageMin: number;
  ageMax: number;
  face: boolean;
  estimatedAge: number | null;
  l1: Record<string, string>;
  ms: number;
  /** Labels the set may carry (labels.csv `gender`, `group`): the fairness split of issue 19. */
  gender?: string;
  group?: string;
}

interface Share {
  passed: number;
  total: number;
}

export function summariseFaces(results: readonly FaceResult[], challengeAges: readonly number[]) {
  const exact = results.filter((r) => r.ageMin === r.ageMax && r.estimatedAge !== null);
  const mae = exact.length ? exact.reduce((sum, r) => sum + Math.abs(r.estimatedAge! - r.ageMin), 0) / exact.length : null;
  const share = (c: number, keep: (r: FaceResult) => boolean): Share => {
    const group = results.filter(keep);
    return { passed: group.filter((r) => r.l1[String(c)] === 'verified').length, total: group.length };
  };
  const times = results.map((r) => r.ms).sort((a, b) => a - b);
  return {
    found: results.filter((r) => r.face).length,
    mae,
    p50Ms: times.length ? times[Math.floor((times.length - 1) / 2)]! : 0,
    byChallenge: challengeAges.map((c) => ({
      challengeAge: c,
      minors: share(c, (r) => r.ageMax < 18),
      underChallenge: share(c, (r) => r.ageMax < c),
      atLeastChallenge: share(c, (r) => r.ageMin >= c),
    })),
  };
}

/** The same pass shares per value of a label (gender, or ethnic group / skin tone), for the labels the set has. */
export function summariseFacesBy(results: readonly FaceResult[], challengeAges: readonly number[], key: 'gender' | 'group') {
  const values = [...new Set(results.map((r) => r[key]).filter((v): v is string => !!v))].sort();
  return values.map((value) => ({
    value,
    n: results.filter((r) => r[key] === value).length,
    ...summariseFaces(
      results.filter((r) => r[key] === value),
      challengeAges,
    ),
  }));
}
