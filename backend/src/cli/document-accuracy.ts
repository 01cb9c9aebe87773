/**
 * The summary of `bun run accuracy --documents` (accuracy.ts), pure so it is tested on its own:
 * what was read right, what was wrongly accepted, and why the rest failed, per failure class
 * (issue 20): no MRZ or barcode found, a misread (sent back to the user as a retry, or a wrong date
 * read), a genuine document refused as `document_invalid` (a forgery verdict), or another outcome.
 */
import type { EngineDecision } from '../modules/engine/model';

export interface DocumentResult {
  documentType: string;
  /** The label: a genuine document (true) or one with an altered check digit (false). */
  genuine: boolean;
  /** A machine-readable zone or barcode was found. */
  found: boolean;
  /** Found, every check digit valid, and the date of birth equals the label. */
  readRight: boolean;
  decision: EngineDecision;
  ms: number;
  /** The labels' `layout` and `degradation` columns (scripts/documents), when the set has them. */
  layout?: string;
  degradation?: string;
}

export type FailureClass = 'not_found' | 'misread' | 'refused_invalid' | 'other';

/** Why a genuine document was not read right; null when it was. */
export function failureClass(result: DocumentResult): FailureClass | null {
  if (result.readRight) return null;
  if (!result.found) return 'not_found';
  const { decision } = result;
  if (decision.decision === 'failed' && decision.reason === 'document_invalid') return 'refused_invalid';
  if (decision.decision === 'retry' || decision.decision === 'verified') return 'misread';
  return 'other';
}

function percentile(sorted: readonly number[], p: number): number {
  return sorted.length ? sorted[Math.min(sorted.length - 1, Math.ceil(p * sorted.length) - 1)]! : 0;
}

export function summariseDocuments(results: readonly DocumentResult[]) {
  const genuine = results.filter((r) => r.genuine);
  const altered = results.filter((r) => !r.genuine);
  const failures: Record<FailureClass, number> = { not_found: 0, misread: 0, refused_invalid: 0, other: 0 };
  for (const result of genuine) {
    const cls = failureClass(result);
    if (cls) failures[cls]++;
  }
  const timesByType: Record<string, { p50Ms: number; p99Ms: number; n: number }> = {};
  for (const type of [...new Set(results.map((r) => r.documentType))].sort()) {
    const times = results
      .filter((r) => r.documentType === type)
      .map((r) => r.ms)
      .sort((a, b) => a - b);
    timesByType[type] = { p50Ms: percentile(times, 0.5), p99Ms: percentile(times, 0.99), n: times.length };
  }
  return {
    genuine: genuine.length,
    readRight: genuine.filter((r) => r.readRight).length,
    acceptedGenuine: genuine.filter((r) => r.decision.decision === 'verified').length,
    /** A verified document that is altered, or whose date of birth was not read right. */
    wronglyAccepted: results.filter((r) => r.decision.decision === 'verified' && (!r.genuine || !r.readRight)).length,
    altered: altered.length,
    alteredRefused: altered.filter((r) => r.decision.decision === 'failed' && r.decision.reason === 'document_invalid').length,
    alteredRetried: altered.filter((r) => r.decision.decision === 'retry').length,
    failures,
    timesByType,
  };
}

export interface GroupSummary {
  group: string;
  /** Documents in the group, genuine and altered. */
  total: number;
  genuine: number;
  readRight: number;
  wronglyAccepted: number;
  failures: Record<FailureClass, number>;
  p50Ms: number;
  p99Ms: number;
}

/**
 * The same counts per value of a label column (the harder set's degradation kind or layout, issue 20),
 * so a failure class can be traced to what caused it. Results without the column are left out.
 */
export function summariseGroups(results: readonly DocumentResult[], key: 'degradation' | 'layout'): GroupSummary[] {
  const groups = [...new Set(results.map((r) => r[key]).filter((g): g is string => Boolean(g)))].sort();
  return groups.map((group) => {
    const members = results.filter((r) => r[key] === group);
    const summary = summariseDocuments(members);
    const times = members.map((r) => r.ms).sort((a, b) => a - b);
    return {
      group,
      total: members.length,
      genuine: summary.genuine,
      readRight: summary.readRight,
      wronglyAccepted: summary.wronglyAccepted,
      failures: summary.failures,
      p50Ms: percentile(times, 0.5),
      p99Ms: percentile(times, 0.99),
    };
  });
}
