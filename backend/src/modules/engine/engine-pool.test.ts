import { afterEach, expect, test } from 'bun:test';
import { EngineBusy, EnginePool } from './engine-pool';

const workerUrl = new URL('./engine-pool.test-worker.ts', import.meta.url);
const job = (delayMs: number) => ({ kind: 'age_estimation' as const, selfies: [new TextEncoder().encode(String(delayMs))] });
let pool: EnginePool;
afterEach(() => pool?.close());

test('runs jobs on worker threads and returns their findings', async () => {
  pool = new EnginePool({ workers: 1, queueLimit: 2, workerUrl });
  expect(await pool.run(job(1))).toEqual({ findings: { kind: 'age_estimation', frames: [] }, timings: { wait: 1 } });
});

test('queues up to the limit, then refuses at once with EngineBusy', async () => {
  pool = new EnginePool({ workers: 1, queueLimit: 2, workerUrl, retryAfterSeconds: 3 });
  const running = [pool.run(job(150)), pool.run(job(1)), pool.run(job(1))];
  expect(pool.queued).toBe(2);
  const refused = await pool.run(job(1)).catch((error) => error);
  expect(refused).toBeInstanceOf(EngineBusy);
  expect((refused as EngineBusy).retryAfterSeconds).toBe(3);
  await Promise.all(running);
  expect(pool.queued).toBe(0);
  // Room again once the queue drained.
  await pool.run(job(1));
});

test('a crashed worker fails its job and is replaced', async () => {
  pool = new EnginePool({ workers: 1, queueLimit: 2, workerUrl });
  expect(await pool.run(job(-1)).catch((error) => (error as Error).message)).toMatch(/crash on purpose/);
  expect((await pool.run(job(1))).timings).toEqual({ wait: 1 });
});

test('the event loop stays free while a job runs', async () => {
  pool = new EnginePool({ workers: 1, queueLimit: 1, workerUrl });
  const running = pool.run(job(100));
  let ticks = 0;
  const timer = setInterval(() => ticks++, 5);
  await running;
  clearInterval(timer);
  expect(ticks).toBeGreaterThan(3);
});
