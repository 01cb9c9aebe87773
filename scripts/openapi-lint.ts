/**
 * The "openapi" step of the test command: writes the OpenAPI document the server serves to
 * test-results/openapi.json and lints it with Redocly CLI (redocly.yaml) and Spectral
 * (.spectral.yaml, spectral:oas). Each linter counts as one test; a warning fails it too, so the
 * document stays clean rather than collecting warnings.
 *
 * The document comes from backend/src/write-openapi.ts: the same app the server runs, assembled
 * in-process on an in-memory database.
 *
 * Alone: bun scripts/openapi-lint.ts
 */
import { join } from 'node:path';
import type { Counts } from './test-reports';

const repoRoot = join(import.meta.dir, '..');
export const OPENAPI_FILE = join(repoRoot, 'test-results/openapi.json');

/** In its own process: the backend is type-checked under its own tsconfig, not this folder's. */
async function writeOpenApiDocument(): Promise<void> {
  const child = Bun.spawn(['bun', 'backend/src/write-openapi.ts', OPENAPI_FILE], { cwd: repoRoot, stdio: ['ignore', 'inherit', 'pipe'] });
  const [stderr, code] = await Promise.all([new Response(child.stderr).text(), child.exited]);
  if (code !== 0) throw new Error(`backend/src/write-openapi.ts exited with ${code}: ${stderr}`);
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
