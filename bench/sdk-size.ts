/**
 * Prints the browser SDK's sizes (minified and minified+gzip) for the ES module and the IIFE, and
 * the verify UI bundle. Run after `bun run build`: `bun run bench`.
 * A size budget is a figure to watch here, not a test that fails.
 */
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { createHash } from 'node:crypto';

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
