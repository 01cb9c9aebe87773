/**
 * The "openapi" step of the test command: writes the OpenAPI document the server serves to
 * test-results/openapi.json and lints it with Redocly CLI (redocly.yaml) and Spectral
 * (.spectral.yaml, spectral:oas). Each linter counts as one test; a warning fails it too, so the
 * document stays clean rather than collecting warnings.
 *
 * The document is built in-process, from the same app the server runs (an in-memory database: no
 * request touches it, but the app is assembled exactly as in production).
 *
 * Alone: bun scripts/openapi-lint.ts
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { createApp } from '../backend/src/app';
import { systemClock } from '../backend/src/clock';
import { loadConfig } from '../backend/src/config';
import { openPglite } from '../backend/src/db/database';
import { createLogger } from '../backend/src/log';
import { OPENAPI_PATH } from '../backend/src/http/openapi';
import type { Counts } from './test-reports';

const repoRoot = join(import.meta.dir, '..');
export const OPENAPI_FILE = join(repoRoot, 'test-results/openapi.json');

export async function writeOpenApiDocument(file = OPENAPI_FILE): Promise<void> {
  const config = loadConfig({ ...process.env, DATABASE_URL: undefined, DATA_DIR: undefined });
  const database = await openPglite(null);
  try {
    const app = createApp({ ...config, db: database.db, clock: systemClock, logger: createLogger('error'), serverSecret: 'x'.repeat(32) });
    const response = await app.handle(new Request(`http://localhost${OPENAPI_PATH}`));
    if (response.status !== 200) throw new Error(`${OPENAPI_PATH} answered ${response.status}: ${await response.text()}`);
    mkdirSync(join(file, '..'), { recursive: true });
    writeFileSync(file, `${JSON.stringify(await response.json(), null, 2)}\n`);
  } finally {
    await database.close();
  }
}

const LINTERS: Array<[string, string[]]> = [
  ['Redocly CLI', ['node', 'node_modules/@redocly/cli/bin/cli.js', 'lint', '--config', 'redocly.yaml', '--max-problems', '200', OPENAPI_FILE]],
  ['Spectral', ['node', 'node_modules/@stoplight/spectral-cli/dist/index.js', 'lint', '--ruleset', '.spectral.yaml', '--fail-severity', 'warn', OPENAPI_FILE]],
];

async function lint(name: string, command: string[]): Promise<boolean> {
  console.log(`$ ${command.join(' ')}`);
  // No telemetry or update checks from a test run (Redocly sends usage data unless told not to).
  const env = { ...process.env, REDOCLY_TELEMETRY: 'off', REDOCLY_SUPPRESS_UPDATE_NOTICE: 'true' };
  const child = Bun.spawn(command, { cwd: repoRoot, env, stdio: ['ignore', 'pipe', 'pipe'] });
  const [stdout, stderr, code] = await Promise.all([new Response(child.stdout).text(), new Response(child.stderr).text(), child.exited]);
  // Redocly reports warnings with exit 0: count them as a failure here.
  const warned = name === 'Redocly CLI' && /You have \d+ warnings?/.test(stdout + stderr);
  process.stdout.write(stdout);
  process.stderr.write(stderr);
  const ok = code === 0 && !warned;
  console.log(`${ok ? 'pass' : 'FAIL'}: ${name}${warned ? ' (warnings)' : ''}`);
  return ok;
}

export async function runOpenApiLint(): Promise<Counts> {
  const counts: Counts = { passed: 0, failed: 0, skipped: 0 };
  try {
    await writeOpenApiDocument();
    console.log(`wrote ${OPENAPI_FILE}`);
  } catch (error) {
    console.error(`could not build the OpenAPI document: ${(error as Error).stack ?? String(error)}`);
    counts.failed = LINTERS.length;
    return counts;
  }
  for (const [name, command] of LINTERS) {
    if (await lint(name, command)) counts.passed += 1;
    else counts.failed += 1;
  }
  return counts;
}

if (import.meta.main) {
  const counts = await runOpenApiLint();
  console.log(`openapi: ${counts.passed} passed, ${counts.failed} failed`);
  process.exit(counts.failed === 0 ? 0 : 1);
}
