/** A stand-in engine worker for engine-pool.test.ts: answers after a delay, no models. */
import { parentPort } from 'node:worker_threads';

parentPort?.on('message', ({ id, job }: { id: number; job: { kind: string; selfies?: Uint8Array[] } }) => {
  const delay = job.kind === 'age_estimation' ? Number(new TextDecoder().decode(job.selfies?.[0])) : 0;
  if (delay < 0) throw new Error('crash on purpose');
  setTimeout(() => parentPort!.postMessage({ id, ok: true, findings: { kind: 'age_estimation', frames: [] }, timings: { wait: delay } }), delay);
});
