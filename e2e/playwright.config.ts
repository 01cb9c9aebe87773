/**
 * End-to-end suite: a real browser against the real backend, the built SDK and verify UI, and the
 * example merchant app. One Playwright project per database target (pglite always, postgres when
 * TEST_DATABASE_URL is set), so every spec runs against each database.
 *
 * Run: `bun run test` (builds first), or after `bun run build`:
 *   node node_modules/@playwright/test/cli.js test -c e2e/playwright.config.ts
 */
import { defineConfig } from '@playwright/test';
import { CHROMIUM_ARGS, chromiumPath } from './support/browser';
import { databaseTargets, type TargetName } from './support/environment';

/** The merchant's journey end to end, run on PostgreSQL too (see `projects`). */
const POSTGRES_SPECS = ['sdk-and-validation.spec.ts', 'verify-sandbox.spec.ts', 'live-l1.spec.ts', 'live-l2.spec.ts'];

export default defineConfig<{ target: TargetName }>({
  testDir: '.',
  testMatch: '*.spec.ts',
  outputDir: '../test-results/playwright',
  globalSetup: './support/global-setup.ts',
  fullyParallel: true,
  // Two workers on CI's two cores: most of a live journey's time is the user's pace (a challenge of
  // about nine seconds, played in real time), not CPU, so two at once nearly halve the suite. On the
  // 2-core development machine on 2026-11-27 the 188 tests took 9.6 min with two workers against
  // 15.5 min with one (that run shared the machine with evaluation jobs for part of the time), and no
  // test was more than a few seconds slower (the still-photo journey 52 s against 50 s; its own
  // limit is 180 s).
  workers: 2,
  forbidOnly: !!process.env.CI,
  timeout: 60_000,
  expect: { timeout: 10_000 },
  reporter: 'list',
  use: {
    headless: true,
    actionTimeout: 15_000,
    navigationTimeout: 30_000,
    launchOptions: { executablePath: chromiumPath(), args: CHROMIUM_ARGS },
    trace: 'retain-on-failure',
    screenshot: 'only-on-failure',
  },
  // The whole suite must finish within CI's 30 minutes on two cores, and CI's machine has run it at
  // 2,000 s (stops 46 and 50) where the same commit took 800 s on another day (decisions 0082,
  // 0088). So every spec runs on PGlite, and the postgres project runs only the merchant's own
  // journey, which crosses every layer that talks to the database: the SDK, sessions created and
  // validated once (sdk-and-validation), the sandbox outcomes and their validation
  // (verify-sandbox), a live L1 check verified and the QR handoff (live-l1), and a passport
  // verified (live-l2). The dashboard's and the verify UI's screens ask the database what their
  // routes ask, and those routes run on both databases in bun test (backend/src/testing/
  // test-databases.ts). The live journeys tagged @engine-decision (support/engine.ts) check what
  // the engine decides, which a second database cannot change.
  projects: databaseTargets().map((target) => ({
    name: target,
    use: { target },
    testMatch: target === 'postgres' ? POSTGRES_SPECS : undefined,
    grepInvert: target === 'postgres' ? /@engine-decision/ : undefined,
  })),
});
