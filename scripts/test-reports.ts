/** Test counts from the two machine-readable reports scripts/test.ts collects. */

export interface Counts {
  passed: number;
  failed: number;
  skipped: number;
}

/** Totals from the root <testsuites tests= failures= skipped=> element of bun's junit report. */
export function junitCounts(xml: string): Counts | null {
  const root = /<testsuites\b([^>]*)>/.exec(xml)?.[1];
  if (root === undefined) return null;
  const attribute = (name: string) => Number(new RegExp(`\\b${name}="(\\d+)"`).exec(root)?.[1] ?? 0);
  const tests = attribute('tests');
  const failed = attribute('failures') + attribute('errors');
  const skipped = attribute('skipped');
  return { passed: Math.max(0, tests - failed - skipped), failed, skipped };
}

/** From the JSON reporter's stats; errors outside tests (global setup, a spec that fails to load) count as failures. */
export function playwrightCounts(json: string): Counts | null {
  try {
    const report = JSON.parse(json) as { stats?: Record<string, number>; errors?: unknown[] };
    if (!report.stats) return null;
    const { expected = 0, unexpected = 0, flaky = 0, skipped = 0 } = report.stats;
    return { passed: expected + flaky, failed: unexpected + (report.errors?.length ?? 0), skipped };
  } catch {
    return null;
  }
}
