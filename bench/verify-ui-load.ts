/**
 * Verify UI load figures (issue 11): the JavaScript every verify page loads first (gzip), the
 * capture chunk a live check loads on demand and the chunks a refusal loads (issue 23; gzip),
 * and, in headless Chromium with a fake camera, the time from navigation to a live camera preview. Figures only; nothing here is asserted.
 *
 *   bun run build && bun bench/verify-ui-load.ts [--runs 5]
 *
 * Starts its own backend (embedded PGlite in a temporary folder), a live tenant through the CLI,
 * and one live session per run opened with skip_intro=true (so the first screen is the camera
 * explanation). The preview time is split at the one click a user must make ("Turn on the
 * camera"): navigation → explanation shown, and click → first live frame.
 */
import { existsSync, mkdtempSync, readFileSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { chromium } from '@playwright/test';
import { fakeCameraLaunchOptions, makeFakeCameraVideos } from '../e2e/support/fake-camera';
import { freePort, runCommand, startProcess, stopProcess, waitUntilReady } from '../e2e/support/processes';

const root = join(import.meta.dir, '..');
const dist = join(root, 'verify-ui/dist');
const runs = Number(process.argv[process.argv.indexOf('--runs') + 1]) || 5;

const gzipSize = (path: string) => gzipSync(readFileSync(path), { level: 9 }).byteLength;

/** verify.js plus the chunks it imports statically (loaded before the first screen), and the chunks only imported with import(). */
function bundleFigures(): { firstLoad: Array<[string, number]>; lazy: Array<[string, number]> } {
  const entry = join(dist, 'verify.js');
  if (!existsSync(entry)) throw new Error('verify-ui/dist/verify.js is missing: run `bun run build` first');
  const chunks = existsSync(join(dist, 'chunks')) ? readdirSync(join(dist, 'chunks')).filter((name) => name.endsWith('.js')) : [];
  const firstLoad = new Set<string>(['verify.js']);
  const queue = ['verify.js'];
  while (queue.length > 0) {
    const file = queue.shift()!;
    const code = readFileSync(join(dist, file), 'utf8');
    // Static imports: `import … from"./chunks/x.js"` or `import"./chunks/x.js"`; dynamic ones are `import("./chunks/x.js")`.
    for (const match of code.matchAll(/import\s*(?:[^("';]*?from\s*)?["'](\.\.?\/[^"']+\.js)["']/g)) {
      const resolved = join(file, '..', match[1]!).replace(/^\.\//, '');
      if (!firstLoad.has(resolved)) {
        firstLoad.add(resolved);
        queue.push(resolved);
      }
    }
  }
  const lazy = chunks.map((name) => `chunks/${name}`).filter((name) => !firstLoad.has(name));
  return {
    firstLoad: [...firstLoad].map((name) => [name, gzipSize(join(dist, name))]),
    lazy: lazy.map((name) => [name, gzipSize(join(dist, name))]),
  };
}

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)]!;
}

async function previewTimes(): Promise<{ explanation: number[]; preview: number[] }> {
  makeFakeCameraVideos();
  const dataDir = mkdtempSync(join(tmpdir(), 'ageverify-bench-'));
  const port = await freePort();
  const serviceUrl = `http://127.0.0.1:${port}`;
  const env: NodeJS.ProcessEnv = {
    ...process.env,
    PORT: String(port),
    HOST: '127.0.0.1',
    PUBLIC_BASE_URL: serviceUrl,
    DATA_DIR: join(dataDir, 'data'),
    LOG_LEVEL: 'warn',
  };
  delete env.DATABASE_URL;
  const backend = startProcess({ name: 'bench backend', command: 'bun', args: ['backend/src/main.ts'], cwd: root, env, logFile: join(dataDir, 'backend.log') });
  const browser = await chromium.launch(fakeCameraLaunchOptions('astronaut'));
  try {
    await waitUntilReady(backend, `${serviceUrl}/healthz`, 120_000);
    const tenant = await runCommand({
      name: 'cli',
      command: 'bun',
      args: ['backend/src/cli/main.ts', 'tenant', 'create', '--name', 'Bench Shop', '--domain', '127.0.0.1'],
      cwd: root,
      env,
      logFile: join(dataDir, 'cli.log'),
    });
    const { secretKey } = JSON.parse(tenant.stdout) as { secretKey: string };
    const explanation: number[] = [];
    const preview: number[] = [];
    for (let run = 0; run < runs; run++) {
      const created = await fetch(`${serviceUrl}/api/v1/sessions/create`, {
        method: 'POST',
        headers: { authorization: `Bearer ${secretKey}`, 'content-type': 'application/json' },
        body: JSON.stringify({ returnUrl: 'http://127.0.0.1/return' }),
      });
      const { verifyUrl } = (await created.json()) as { verifyUrl: string };
      // A fresh context each run: nothing cached, as a user opening the link for the first time.
      const context = await browser.newContext();
      const page = await context.newPage();
      const started = performance.now();
      await page.goto(`${verifyUrl}&skip_intro=true`);
      await page.getByTestId('camera-allow').waitFor();
      const shown = performance.now();
      await page.getByTestId('camera-allow').click();
      await page.locator('[data-testid="camera-preview"][data-live="true"]').waitFor();
      const live = performance.now();
      explanation.push(shown - started);
      preview.push(live - shown);
      await context.close();
    }
    return { explanation, preview };
  } finally {
    await browser.close();
    await stopProcess(backend);
    rmSync(dataDir, { recursive: true, force: true });
  }
}

const { firstLoad, lazy } = bundleFigures();
console.log('\nverify UI JavaScript (bytes, gzip -9)');
for (const [name, size] of firstLoad) console.log(`  first load   ${name.padEnd(36)} ${String(size).padStart(7)}`);
console.log(`  first load   ${'total'.padEnd(36)} ${String(firstLoad.reduce((sum, [, size]) => sum + size, 0)).padStart(7)}`);
// Chunks for a refusal (issue 23): the page language's explanations and the table that recognises the messages.
const onRefusal = (name: string) => name.startsWith('chunks/errors-') || name.startsWith('chunks/error-details-');
for (const [name, size] of lazy) console.log(`  ${onRefusal(name) ? 'on refusal ' : 'live check '}  ${name.padEnd(36)} ${String(size).padStart(7)}`);
// A live check loads the capture chunk and the live strings of the page language (plus English as the fallback).
const liveFor = (language: string) =>
  lazy
    .filter(([name]) => name.startsWith('chunks/live-capture-') || name.startsWith(`chunks/live-${language}-`) || name.startsWith('chunks/live-en-'))
    .reduce((sum, [, size]) => sum + size, 0);
console.log(`  live check   ${'total, English page'.padEnd(36)} ${String(liveFor('en')).padStart(7)}`);
console.log(`  live check   ${'total, German page (+ English fallback)'.padEnd(36)} ${String(liveFor('de')).padStart(7)}`);
const refusalFor = (language: string) =>
  lazy.filter(([name]) => name.startsWith('chunks/error-details-') || name.startsWith(`chunks/errors-${language}-`)).reduce((sum, [, size]) => sum + size, 0);
console.log(`  on refusal   ${'total, German page'.padEnd(36)} ${String(refusalFor('de')).padStart(7)}`);

const times = await previewTimes();
const total = times.explanation.map((value, index) => value + times.preview[index]!);
console.log(`\nnavigation → live camera preview, headless Chromium, fake camera (ms, median of ${runs})`);
console.log(`  navigation → camera explanation shown  ${median(times.explanation).toFixed(0).padStart(6)}`);
console.log(`  "Turn on the camera" → live preview    ${median(times.preview).toFixed(0).padStart(6)}`);
console.log(`  total (without the user's click time)  ${median(total).toFixed(0).padStart(6)}`);
