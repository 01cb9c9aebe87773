/**
 * Verification engine benchmark (issue 10): latency p50/p99 per check on the committed fixtures,
 * peak RSS with every model loaded, and session-create p99 with the engine idle and busy (the
 * engine runs in worker threads, so create must not suffer). Prints figures only; nothing is
 * asserted. Targets: an L1 check (the liveness challenge's frames, issue 19) p50 ≤ 2 s and p99 ≤ 5 s
 * on 2 cores; RSS ≤ 700 MB. Also prints how many L1 checks per second one worker sustains.
 *
 *   bun bench/engine.ts [--runs 30] [--creates 200] [--workers 1]
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { ManualClock } from '../backend/src/clock';
import { createApp } from '../backend/src/app';
import { openPglite } from '../backend/src/db/database';
import { silentLogger } from '../backend/src/log';
import { EnginePool } from '../backend/src/modules/engine/runtime/engine-pool';
import type { EngineJob } from '../backend/src/modules/engine/runtime/engine-worker';
import { createTenant } from '../backend/src/modules/tenants/service';
import { headTurner } from '../backend/src/modules/engine/liveness/testing/challenge-frames';
import { decideCheck } from '../backend/src/modules/engine/checks/check-service';

const option = (name: string, fallback: number) => {
  const i = process.argv.indexOf(`--${name}`);
  return i === -1 ? fallback : Number(process.argv[i + 1]);
};
const RUNS = option('runs', 30);
const CREATES = option('creates', 200);
const WORKERS = option('workers', 1);
const fixture = (name: string) => new Uint8Array(readFileSync(join(import.meta.dir, '..', 'backend', 'src', 'modules', 'engine', 'fixtures', name)));

let peakRss = 0;
const sampler = setInterval(() => (peakRss = Math.max(peakRss, process.memoryUsage().rss)), 20);
const percentile = (values: number[], p: number) => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)]!;
};
const row = (name: string, values: number[]) =>
  console.log(
    `  ${name.padEnd(34)} p50 ${percentile(values, 50).toFixed(0).padStart(5)} ms   p99 ${percentile(values, 99).toFixed(0).padStart(5)} ms   (n=${values.length})`,
  );

const engine = new EnginePool({ workers: WORKERS, queueLimit: 1000 });
const loadStarted = performance.now();
await engine.warmUp();
const rssMb = () => `${(process.memoryUsage().rss / 1024 / 1024).toFixed(0)} MB`;
console.log(`Engine: ${WORKERS} worker(s), models loaded and warmed in ${Math.round(performance.now() - loadStarted)} ms; RSS ${rssMb()}`);

// What the verify UI sends for a selfie: the frames of a liveness challenge (a head turn rendered in 3D).
const MOVES = ['left', 'right'] as const;
const challenge = await (await headTurner(fixture('astronaut.jpg')))(MOVES);
const L1_NAME = `L1 liveness + age (${challenge.selfies.length} frames)`;
/** Fresh copies per job: the pool transfers the buffers to its worker. */
const frames = () => challenge.selfies.map((frame) => frame.slice());

const checks: [string, () => EngineJob][] = [
  [L1_NAME, () => ({ kind: 'age_estimation', selfies: frames(), steps: challenge.steps })],
  [
    'L2 passport MRZ + face match',
    () => ({
      kind: 'document',
      documentType: 'passport',
      document: fixture('passport.jpg'),
      documentFront: null,
      selfies: frames(),
      steps: challenge.steps,
      faceMatch: true,
    }),
  ],
  [
    'L2 passport MRZ only',
    () => ({ kind: 'document', documentType: 'passport', document: fixture('passport.jpg'), documentFront: null, selfies: [], faceMatch: false }),
  ],
  [
    'L2 licence PDF417',
    () => ({ kind: 'document', documentType: 'driving_licence', document: fixture('licence.png'), documentFront: null, selfies: [], faceMatch: false }),
  ],
  [
    'L2 licence PDF417 + front + face match',
    () => ({
      kind: 'document',
      documentType: 'driving_licence',
      document: fixture('licence.png'),
      documentFront: fixture('licence-front.jpg'),
      selfies: frames(),
      steps: challenge.steps,
      faceMatch: true,
    }),
  ],
];
console.log('\nLatency per check (submission to findings, one at a time):');
for (const [name, job] of checks) {
  const times: number[] = [];
  const runs = name.startsWith('L1') ? RUNS : Math.max(5, Math.round(RUNS / 3));
  for (let i = 0; i < runs; i++) {
    const started = performance.now();
    const { findings } = await engine.run(job());
    // The L1 check's decision is part of its latency: the liveness gate, then the age rule.
    if (name === L1_NAME) {
      const policy = { challengeAge: 25, l1Margin: 5, stepUpAllowed: true, legalMinimumAge: 18, faceMatchEnabled: false };
      const decision = decideCheck(findings!, policy, new Date(), { steps: challenge.steps, moves: MOVES });
      if (decision.decision !== 'verified') throw new Error(`the genuine head turn was not verified: ${JSON.stringify(decision)}`);
    }
    times.push(performance.now() - started);
  }
  row(name, times);
}

// Throughput: L1 checks queued on one worker at once, as a busy moment would queue them.
if (WORKERS === 1) {
  const queued = Math.max(6, Math.round(RUNS / 3));
  const started = performance.now();
  await Promise.all(Array.from({ length: queued }, () => engine.run(checks[0]![1]())));
  const seconds = (performance.now() - started) / 1000;
  console.log(`  one worker sustains ${(queued / seconds).toFixed(2)} L1 checks per second (${queued} queued at once, ${seconds.toFixed(1)} s)`);
}

const enginePeakRss = peakRss;
console.log(`  peak RSS so far (process + engine worker, every model loaded and used; no database yet): ${(enginePeakRss / 1024 / 1024).toFixed(0)} MB`);

// Session create through the whole HTTP pipeline on embedded PGlite, idle engine vs busy engine.
const database = await openPglite(null);
const clock = new ManualClock();
const app = createApp({
  db: database.db,
  clock,
  logger: silentLogger,
  serverSecret: 'bench-secret-0123456789abcdef0123456789abcdef',
  publicBaseUrl: 'http://localhost:3000',
  verifyUrl: 'http://localhost:3000/verify',
  maxBodyBytes: 16 * 1024,
  engine,
  l1AgeMargin: 5,
});
const keys = await createTenant(database.db, clock, { name: 'Bench', domains: ['shop.example.com'], sandbox: true });
const create = async () => {
  const started = performance.now();
  const response = await app.handle(
    new Request('http://localhost:3000/api/v1/sessions/create', {
      method: 'POST',
      headers: { authorization: `Bearer ${keys.secretKey}`, 'content-type': 'application/json' },
      body: JSON.stringify({ returnUrl: 'https://shop.example.com/return' }),
    }),
  );
  if (response.status !== 201) throw new Error(`create answered ${response.status}: ${await response.text()}`);
  clock.advance(1000); // stay clear of the per-minute create limit
  return performance.now() - started;
};
const creates = async () => {
  const times: number[] = [];
  for (let i = 0; i < CREATES; i++) times.push(await create());
  return times;
};
console.log('\nSession create (HTTP pipeline, embedded PGlite):');
row('engine idle', await creates());
let busy = true;
const load = (async () => {
  while (busy) await Promise.all(Array.from({ length: WORKERS + 1 }, () => engine.run(checks[0]![1]())));
})();
row('engine busy (L1 jobs back to back)', await creates());
busy = false;
await load;
console.log(`  RSS after the create runs (in-memory PGlite holds the sessions): ${rssMb()}`);

clearInterval(sampler);
console.log(
  `\nPeak RSS: engine (all models loaded) ${(enginePeakRss / 1024 / 1024).toFixed(0)} MB; whole run incl. the in-memory PGlite and its sessions ${(peakRss / 1024 / 1024).toFixed(0)} MB`,
);
await engine.close();
await database.close();
process.exit(0);
