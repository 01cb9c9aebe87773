/** The summary of `bun run accuracy --liveness DIR` (accuracy.ts), pure so it is tested on its own. */
import type { MotionFailure } from '../modules/engine/liveness/motion-check';

export interface LivenessResult {
  sequence: string;
  kind: string;
  genuine: boolean;
  amplitude: number | null;
  passed: boolean;
  failure: MotionFailure | null;
}

export interface KindSummary {
  kind: string;
  passed: number;
  total: number;
  failures: Partial<Record<MotionFailure, number>>;
}

export interface LivenessSummary {
  /** Attack acceptance per kind: `passed` attacks are the false accepts. */
  attacks: KindSummary[];
  attackAccepted: number;
  attackTotal: number;
  /** Genuine rejection, overall and per peak amplitude (degrees). */
  genuineRejected: number;
  genuineTotal: number;
  genuineByAmplitude: { amplitude: number | null; rejected: number; total: number }[];
}

export function summariseLiveness(results: readonly LivenessResult[]): LivenessSummary {
  const byKind = new Map<string, KindSummary>();
  for (const r of results.filter((r) => !r.genuine)) {
    const entry = byKind.get(r.kind) ?? { kind: r.kind, passed: 0, total: 0, failures: {} };
    entry.total++;
    if (r.passed) entry.passed++;
    else if (r.failure) entry.failures[r.failure] = (entry.failures[r.failure] ?? 0) + 1;
    byKind.set(r.kind, entry);
  }
  const genuine = results.filter((r) => r.genuine);
  const amplitudes = [...new Set(genuine.map((r) => r.amplitude))].sort((a, b) => (a ?? 0) - (b ?? 0));
  const attacks = [...byKind.values()].sort((a, b) => a.kind.localeCompare(b.kind));
  return {
    attacks,
    attackAccepted: attacks.reduce((sum, k) => sum + k.passed, 0),
    attackTotal: attacks.reduce((sum, k) => sum + k.total, 0),
    genuineRejected: genuine.filter((r) => !r.passed).length,
    genuineTotal: genuine.length,
    genuineByAmplitude: amplitudes.map((amplitude) => {
      const those = genuine.filter((r) => r.amplitude === amplitude);
      return { amplitude, rejected: those.filter((r) => !r.passed).length, total: those.length };
    }),
  };
}
