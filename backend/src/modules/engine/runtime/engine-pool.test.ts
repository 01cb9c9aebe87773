import { afterEach, expect, test } from 'bun:test';
import { EngineBusy, EnginePool, EngineRefused, EngineTimeout } from './engine-pool';

const workerUrl = new URL('./engine-pool.test-worker.ts', import.meta.url);
/** A job for the stand-in worker: milliseconds to busy-wait, or an order (see engine-pool.test-worker.ts). */
const job = (order: number | string) => ({ kind: 'age_estimation' as const, selfies: [new TextEncoder().encode(String(order))] });
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
  // The stand-in busy-waits 150 ms: run on this thread, it would block the interval below.
  pool = new EnginePool({ workers: 1, queueLimit: 1, workerUrl });
  await pool.run(job(1)); // the worker has started
  let ticks = 0;
  const timer = setInterval(() => ticks++, 5);
  await pool.run(job(150));
  clearInterval(timer);
  expect(ticks).toBeGreaterThan(3);
});

test('a reply carrying another job id does not settle the running job (issue 25)', async () => {
  pool = new EnginePool({ workers: 1, queueLimit: 2, workerUrl });
  // The stand-in first posts a reply with a wrong id and findings null, then the real one.
  expect(await pool.run(job('stray'))).toEqual({ findings: { kind: 'age_estimation', frames: [] }, timings: { wait: 0 } });
});

test('a job past its time limit fails with EngineTimeout, its worker is replaced and the next job runs (issue 22, finding 3)', async () => {
  // loadTimeoutMs is the first job's (cold worker) limit, jobTimeoutMs a warm worker's.
  pool = new EnginePool({ workers: 1, queueLimit: 4, workerUrl, jobTimeoutMs: 300, loadTimeoutMs: 300 });
  await pool.run(job(1));
  const order: string[] = [];
  const hung = pool.run(job('hang'), 'hostile').then(
    () => order.push('hostile answered'),
    (error) => order.push(error instanceof EngineTimeout ? 'hostile timed out' : `hostile: ${error}`),
  );
  const genuine = pool.run(job(1), 'genuine').then(() => order.push('genuine answered'));
  await Promise.all([hung, genuine]);
  expect(order).toEqual(['hostile timed out', 'genuine answered']);
}, 10_000);

test('waiting jobs are served round-robin by key: one session cannot hold another behind all its jobs (issue 22, finding 3)', async () => {
  pool = new EnginePool({ workers: 1, queueLimit: 8, workerUrl });
  await pool.run(job(1));
  const order: string[] = [];
  const track = (key: string, n: number) => pool.run(job(20), key).then(() => order.push(`${key}${n}`));
  // Session a submits four jobs at once; session b one, after them.
  const all = [track('a', 1), track('a', 2), track('a', 3), track('a', 4), track('b', 1)];
  await Promise.all(all);
  // a1 runs at once; of the waiting jobs, a2 (first key) then b1 (the next key), then a's rest.
  expect(order).toEqual(['a1', 'a2', 'b1', 'a3', 'a4']);
});

test("a worker's refusal of an image is EngineRefused with its message, and the worker is replaced", async () => {
  pool = new EnginePool({ workers: 1, queueLimit: 2, workerUrl });
  const refused = await pool.run(job('refuse')).catch((error) => error);
  expect(refused).toBeInstanceOf(EngineRefused);
  expect((refused as Error).message).toBe('image took more than 3000 ms to decode');
  expect((await pool.run(job(1))).timings).toEqual({ wait: 1 });
});
