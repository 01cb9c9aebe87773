/**
 * The whole test suite, behind `bun run test`:
 *
 *   1. system packages the e2e suite needs (Chromium, ffmpeg), installed with apt when root
 *   2. bun run lint               (Biome: formatting and lint rules)
 *   3. bun run typecheck
 *   4. bun run build              (the SDK and verify UI bundles the backend serves)
 *   5. bun test --parallel        (unit + integration; PGlite, plus PostgreSQL with TEST_DATABASE_URL)
 *   6. packages                   (scripts/package-checks.ts: npm pack both packages, install the
 *                                  tarballs into a scratch project, run them on Node and Bun, tsc)
 *   7. openapi                    (scripts/openapi-lint.ts: writes test-results/openapi.json from the
 *                                  app, lints it with Redocly CLI and Spectral; one test per linter)
 *   8. faults --short             (scripts/faults.ts: kill -9 and PostgreSQL restarts/stop under
 *                                  load, 2–4 min; the full suite, `bun run faults`, is nightly)
 *   9. Playwright e2e             (e2e/playwright.config.ts; a project per database target)
 *
 * Steps run in order and the first failure stops the run. The last line is always
 * `N passed, M failed[, K skipped]`, counted from the bun junit report, the package checks (one
 * test each), the OpenAPI linters (one test each) and the Playwright JSON report. The exit code is
 * non-zero when a step failed, a test failed, or no test ran.
 *
 * Flags: --no-e2e (alias --only-unit) skips 1 and 9; --only-e2e skips 2, 3, 5, 6, 7 and 8;
 * arguments after `--` go to Playwright (e.g. `bun run test --only-e2e -- --project pglite`).
 */
import { existsSync, mkdirSync, readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { runOpenApiLint } from './openapi-lint';
import { runPackageChecks } from './package-checks';
import { junitCounts, playwrightCounts, type Counts } from './test-reports';

const repoRoot = join(import.meta.dir, '..');
const resultsDir = join(repoRoot, 'test-results');
const junitFile = join(resultsDir, 'bun-test-junit.xml');
const playwrightJsonFile = join(resultsDir, 'playwright-results.json');
const chromiumPath = process.env.CHROMIUM_PATH || '/usr/bin/chromium';

const BUN_TEST_TIMEOUT_MS = 60_000;

const USAGE = 'usage: bun scripts/test.ts [--no-e2e | --only-unit | --only-e2e] [-- <playwright arguments>]';

function parseArguments(argv: string[]): { e2e: boolean; unit: boolean; playwrightArgs: string[] } {
  const separator = argv.indexOf('--');
  const flags = separator === -1 ? argv : argv.slice(0, separator);
  const playwrightArgs = separator === -1 ? [] : argv.slice(separator + 1);
  let e2e = true;
  let unit = true;
  for (const flag of flags) {
    if (flag === '--no-e2e' || flag === '--only-unit') e2e = false;
    else if (flag === '--only-e2e') unit = false;
    else {
      console.error(`Unknown argument ${flag}\n${USAGE}`);
      process.exit(2);
    }
  }
  if (!e2e && !unit) {
    console.error(`Nothing to run.\n${USAGE}`);
    process.exit(2);
  }
  return { e2e, unit, playwrightArgs };
}

async function main(): Promise<number> {
  const { e2e, unit, playwrightArgs } = parseArguments(process.argv.slice(2));
  const totals: Counts = { passed: 0, failed: 0, skipped: 0 };
  const steps: Array<[string, () => Promise<boolean>]> = [];

  if (e2e) steps.push(['system packages', ensureSystemPackages]);
  // Biome: formatting and lint rules are not argued about in review (biome.json).
  if (unit) steps.push(['lint', () => run(['bun', 'run', 'lint'])]);
  if (unit) steps.push(['typecheck', () => run(['bun', 'run', 'typecheck'])]);
  steps.push(['build', () => run(['bun', 'run', 'build'])]);
  if (unit) steps.push(['bun test', () => runBunTest(totals)]);
  if (unit) steps.push(['packages', () => runPackages(totals)]);
  if (unit) steps.push(['openapi', () => runOpenApi(totals)]);
  // Issue 15, item 5: the short fault suite on every run; it prints its own checks and figures.
  if (unit) steps.push(['faults (short)', () => run(['bun', 'scripts/faults.ts', '--short'])]);
  if (e2e) steps.push(['e2e (Playwright)', () => runPlaywright(totals, playwrightArgs)]);

  mkdirSync(resultsDir, { recursive: true });
  let failedStep: string | null = null;
  // Each step's wall time, printed at the end: CI must finish within 30 minutes, and its log is
  // where a slow step shows.
  const took: string[] = [];
  for (const [name, step] of steps) {
    banner(name);
    const started = performance.now();
    const ok = await step();
    took.push(`${name} ${Math.round((performance.now() - started) / 1000)} s`);
    if (!ok) {
      failedStep = name;
      break;
    }
  }

  console.log(`\nStep times: ${took.join(', ')}`);
  if (failedStep) console.error(`Step "${failedStep}" failed; later steps did not run.`);
  else if (totals.passed + totals.failed === 0) console.error('No test ran.');
  console.log(`${totals.passed} passed, ${totals.failed} failed${totals.skipped > 0 ? `, ${totals.skipped} skipped` : ''}`);
  return failedStep || totals.failed > 0 || totals.passed + totals.failed === 0 ? 1 : 0;
}

function banner(name: string): void {
  console.log(`\n=== ${name} ===`);
}

/** Runs a command with the console attached; true when it exits 0. */
async function run(command: string[], env: Record<string, string | undefined> = process.env): Promise<boolean> {
  console.log(`$ ${command.join(' ')}`);
  const child = Bun.spawn(command, { cwd: repoRoot, env, stdio: ['inherit', 'inherit', 'inherit'] });
  const exitCode = await child.exited;
  if (exitCode !== 0) console.error(`\`${command.join(' ')}\` exited with ${exitCode}`);
  return exitCode === 0;
}

/** Chromium drives the e2e suite; ffmpeg makes the fake camera videos. */
async function ensureSystemPackages(): Promise<boolean> {
  const missing: string[] = [];
  if (!existsSync(chromiumPath)) missing.push(`chromium (no ${chromiumPath})`);
  if (!Bun.which('ffmpeg')) missing.push('ffmpeg (not on PATH)');
  if (missing.length === 0) {
    console.log(`chromium at ${chromiumPath} and ffmpeg at ${Bun.which('ffmpeg')}: nothing to install`);
    return true;
  }
  console.log(`Missing: ${missing.join(', ')}`);
  if (process.getuid?.() !== 0) {
    console.error(
      'Not running as root, so they cannot be installed here. Install them with:\n  sudo apt-get update && sudo apt-get install -y chromium ffmpeg\n(or set CHROMIUM_PATH to a Chromium binary), or skip the browser suite with --no-e2e.',
    );
    return false;
  }
  if (!Bun.which('apt-get')) {
    console.error('apt-get is not available: install Chromium and ffmpeg with the system package manager (or set CHROMIUM_PATH).');
    return false;
  }
  const aptEnv = { ...process.env, DEBIAN_FRONTEND: 'noninteractive' };
  if (!(await run(['apt-get', 'update'], aptEnv))) return false;
  if (!(await run(['apt-get', 'install', '-y', 'chromium', 'ffmpeg'], aptEnv))) return false;
  if (!existsSync(chromiumPath)) {
    console.error(`apt-get installed chromium, but there is still nothing at ${chromiumPath}; set CHROMIUM_PATH.`);
    return false;
  }
  return true;
}

async function runBunTest(totals: Counts): Promise<boolean> {
  rmSync(junitFile, { force: true });
  // 60 s per test and hook: on two busy cores a hook that builds a testbed (PGlite, certificates,
  // an HTTPS receiver) has taken over bun's 5 s default. Tests assert outcomes, never durations.
  // --parallel: the files run in one worker process per core (each file isolated, as every file
  // already makes its own databases, ports and folders); on two cores the step took 189 s against
  // 237 s in one process (decision 0085).
  const ok = await run(['bun', 'test', '--parallel', '--timeout', String(BUN_TEST_TIMEOUT_MS), '--reporter=junit', `--reporter-outfile=${junitFile}`]);
  const counts = existsSync(junitFile) ? junitCounts(readFileSync(junitFile, 'utf8')) : null;
  if (!counts) {
    console.error(`bun test wrote no readable report at ${junitFile}`);
    totals.failed += 1;
    return false;
  }
  // The junit report leaves out errors outside tests (a file that fails to load): count one.
  if (!ok && counts.failed === 0) counts.failed = 1;
  add(totals, counts);
  console.log(`bun test: ${counts.passed} passed, ${counts.failed} failed, ${counts.skipped} skipped (${junitFile})`);
  return ok;
}

/** The build step has just made both dist/ folders, so the packages are packed as they are. */
async function runPackages(totals: Counts): Promise<boolean> {
  const counts = await runPackageChecks({ build: false });
  add(totals, counts);
  console.log(`packages: ${counts.passed} passed, ${counts.failed} failed`);
  return counts.failed === 0 && counts.passed > 0;
}

async function runOpenApi(totals: Counts): Promise<boolean> {
  const counts = await runOpenApiLint();
  add(totals, counts);
  console.log(`openapi: ${counts.passed} passed, ${counts.failed} failed`);
  return counts.failed === 0 && counts.passed > 0;
}

async function runPlaywright(totals: Counts, extraArgs: string[]): Promise<boolean> {
  rmSync(playwrightJsonFile, { force: true });
  // Playwright's runner is a Node program: under Bun its worker processes do not start reliably.
  const command = ['node', 'node_modules/@playwright/test/cli.js', 'test', '-c', 'e2e/playwright.config.ts', '--reporter=list,json', ...extraArgs];
  const ok = await run(command, { ...process.env, PLAYWRIGHT_JSON_OUTPUT_FILE: playwrightJsonFile, CHROMIUM_PATH: chromiumPath });
  const counts = existsSync(playwrightJsonFile) ? playwrightCounts(readFileSync(playwrightJsonFile, 'utf8')) : null;
  if (!counts) {
    console.error(`Playwright wrote no readable report at ${playwrightJsonFile}`);
    totals.failed += 1;
    return false;
  }
  if (!ok && counts.failed === 0) counts.failed = 1;
  add(totals, counts);
  console.log(
    `e2e: ${counts.passed} passed, ${counts.failed} failed, ${counts.skipped} skipped (${playwrightJsonFile}; service logs in test-results/e2e-services)`,
  );
  return ok;
}

function add(totals: Counts, counts: Counts): void {
  totals.passed += counts.passed;
  totals.failed += counts.failed;
  totals.skipped += counts.skipped;
}

if (import.meta.main) process.exit(await main());
