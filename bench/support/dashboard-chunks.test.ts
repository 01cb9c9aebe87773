/**
 * Issue 23: the dashboard's first-load JavaScript stays at most 80 KB gzip and the charts' library
 * loads on demand. The walk is checked on a made-up build; the budget on the real one in
 * dashboard/dist (skipped until `bun run build` has run; `bun run test` builds first).
 */
import { describe, expect, test } from 'bun:test';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DASHBOARD_FIRST_LOAD_BUDGET, dashboardChunks, gzipBytes } from './dashboard-chunks';

test('first load is the page’s scripts and their static imports; a dynamic import starts the on-demand part', () => {
  const dist = mkdtempSync(join(tmpdir(), 'dashboard-chunks-'));
  try {
    mkdirSync(join(dist, 'assets'));
    const write = (name: string, code: string) => writeFileSync(join(dist, 'assets', name), code);
    writeFileSync(join(dist, 'index.html'), '<script type="module" src="/dashboard/assets/entry.js"></script>');
    write('entry.js', 'import{a}from"./shared.js";export*from"./more.js";const c=()=>import("./charts.js");');
    write('shared.js', 'export const a=1;');
    write('more.js', 'export const m=2;');
    // The lazy chunk imports the entry back (rollup does this for shared code): not counted twice.
    write('charts.js', 'import{a}from"./entry.js";import"./charts-lib.js";');
    write('charts-lib.js', 'export const lib=3;');
    const chunks = dashboardChunks(dist)!;
    const names = (files: string[]) => files.map((file) => file.slice(dist.length + 1));
    expect(names(chunks.firstLoad)).toEqual(['assets/entry.js', 'assets/shared.js', 'assets/more.js']);
    expect(names(chunks.onDemand)).toEqual(['assets/charts.js', 'assets/charts-lib.js']);
    expect(dashboardChunks(join(dist, 'nothing-here'))).toBeNull();
  } finally {
    rmSync(dist, { recursive: true, force: true });
  }
});

const dist = join(import.meta.dir, '../../dashboard/dist');

describe.skipIf(!existsSync(join(dist, 'index.html')))('the built dashboard', () => {
  test('first-load JavaScript is at most 80 KB gzip, and Chart.js is not part of it', () => {
    const chunks = dashboardChunks(dist)!;
    const firstLoad = chunks.firstLoad.reduce((sum, file) => sum + gzipBytes(file), 0);
    expect(firstLoad).toBeGreaterThan(0);
    expect(firstLoad).toBeLessThanOrEqual(DASHBOARD_FIRST_LOAD_BUDGET);
    // Chart.js's colour helper keeps its licence banner in the minified output.
    const hasChartJs = (file: string) => readFileSync(file, 'utf8').includes('@kurkle/color');
    expect(chunks.firstLoad.filter(hasChartJs)).toEqual([]);
    expect(chunks.onDemand.filter(hasChartJs)).toHaveLength(1);
  });
});
