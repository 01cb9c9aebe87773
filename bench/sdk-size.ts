/**
 * Prints the browser SDK's sizes (minified and minified+gzip) for the ES module and the IIFE, the
 * verify UI bundle, and the dashboard's first-load JavaScript against its budget with the chunks it
 * loads on demand apart. Run after `bun run build`: `bun run bench`.
 * A size budget is a figure to watch here, not a test that fails; the dashboard's first-load budget
 * is also a test (bench/support/dashboard-chunks.test.ts, on the built files).
 */
import { existsSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { gzipSync } from 'node:zlib';
import { createHash } from 'node:crypto';
import { DASHBOARD_FIRST_LOAD_BUDGET, dashboardChunks, gzipBytes } from './support/dashboard-chunks';

const root = join(import.meta.dir, '..');
const files = ['sdk/dist/ageverify.esm.min.js', 'sdk/dist/ageverify.iife.min.js', 'sdk/dist/ageverify.esm.js', 'verify-ui/dist/verify.js'];

console.log('bundle sizes (bytes)');
console.log(['file'.padEnd(34), 'raw'.padStart(8), 'gzip -9'.padStart(9), '  sha384 (for <script integrity>)'].join(''));
for (const file of files) {
  const path = join(root, file);
  if (!existsSync(path)) {
    console.log(`${file.padEnd(34)} missing — run \`bun run build\` first`);
    continue;
  }
  const bytes = readFileSync(path);
  const gzip = gzipSync(bytes, { level: 9 }).byteLength;
  const integrity = `sha384-${createHash('sha384').update(bytes).digest('base64')}`;
  console.log([file.padEnd(34), String(bytes.byteLength).padStart(8), String(gzip).padStart(9), `  ${integrity}`].join(''));
}

const chunks = dashboardChunks(join(root, 'dashboard/dist'));
console.log('\ndashboard JavaScript (bytes; gzip -9 per file, as each is fetched)');
if (!chunks) {
  console.log('dashboard/dist/index.html missing — run `bun run build` first');
} else {
  const sizes = (files: string[]) => files.map((file) => ({ name: relative(root, file), raw: readFileSync(file).byteLength, gzip: gzipBytes(file) }));
  const print = (label: string, rows: ReturnType<typeof sizes>) => {
    for (const row of rows) console.log([`  ${row.name}`.padEnd(48), String(row.raw).padStart(8), String(row.gzip).padStart(9)].join(''));
    const raw = rows.reduce((sum, row) => sum + row.raw, 0);
    const gzip = rows.reduce((sum, row) => sum + row.gzip, 0);
    console.log([label.padEnd(48), String(raw).padStart(8), String(gzip).padStart(9)].join(''));
    return gzip;
  };
  const firstLoad = print('first load (entry + its static imports)', sizes(chunks.firstLoad));
  print('on demand (charts: Chart.js)', sizes(chunks.onDemand));
  const verdict = firstLoad <= DASHBOARD_FIRST_LOAD_BUDGET ? 'within' : 'OVER';
  console.log(`dashboard first-load JS: ${firstLoad} bytes gzip, ${verdict} the budget of ${DASHBOARD_FIRST_LOAD_BUDGET} (80 KB)`);
}
