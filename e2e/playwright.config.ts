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
  // The whole suite must finish within CI's 30 minutes on two cores (stop 38's CI took 32;
  // decision 0082), so the postgres project leaves out what a second database cannot change:
  // - live-ui-contract.spec.ts plays the engine's answers in the browser (support/played-engine.ts)
  //   to check the verify UI's wire contract and words, and verify-languages.spec.ts checks the
  //   page's six languages; what they ask of the database is what every other spec asks. Their
  //   live captures are what a second run would add.
  // - the live journeys tagged @engine-decision (support/engine.ts) check what the engine decides.
  //   The attempt caps they reach are tested on both databases in bun test. live-l1 and live-l2
  //   each keep a verified journey (and live-l1 the QR handoff) on both.
  projects: databaseTargets().map((target) => ({
    name: target,
    use: { target },
    testIgnore: target === 'postgres' ? ['live-ui-contract.spec.ts', 'verify-languages.spec.ts'] : [],
    grepInvert: target === 'postgres' ? /@engine-decision/ : undefined,
  })),
});
