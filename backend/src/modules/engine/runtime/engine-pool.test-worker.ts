/**
 * A stand-in engine worker for engine-pool.test.ts, no models. The selfie's text says what to do:
 * a number of milliseconds to busy-wait (blocking this thread, as inference does), -1 to crash,
 * "hang" to block forever, "stray" to answer first with another job's id, "refuse" to refuse.
 */
import { parentPort } from 'node:worker_threads';

parentPort?.on('message', ({ id, job }: { id: number; job: { kind: string; selfies?: Uint8Array[] } }) => {
  const order = job.kind === 'age_estimation' ? new TextDecoder().decode(job.selfies?.[0]) : '0';
  const answer = (wait: number) => parentPort!.postMessage({ id, ok: true, findings: { kind: 'age_estimation', frames: [] }, timings: { wait } });
  if (order === 'hang') for (;;);
  if (order === 'refuse') return parentPort!.postMessage({ id, ok: false, error: 'image took more than 3000 ms to decode', refused: true, replace: true });
  if (order === 'stray') {
    parentPort!.postMessage({ id: id + 1000, ok: true, findings: null, timings: { stray: 1 } });
    return answer(0);
  }
  const delay = Number(order);
  if (delay < 0) throw new Error('crash on purpose');
  // Busy-wait, not setTimeout: if the pool ran this on the main thread, the main thread would block.
  const until = performance.now() + delay;
  while (performance.now() < until);
  answer(delay);
});
