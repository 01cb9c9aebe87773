/**
 * Worker threads for the models, with a bounded queue (issue 10: inference never runs on the event
 * loop, so session create/validate keep their latency while checks run). Workers start on the first
 * job or at boot (ENGINE_PRELOAD), each warms its models once, and takes one job at a time. When
 * every worker is busy and ENGINE_QUEUE_LIMIT jobs wait, a new job is refused at once with
 * EngineBusy (the route answers 503 with Retry-After) rather than queued without bound.
 */
import { Worker } from 'node:worker_threads';
import type { EngineFindings, Timings } from './model';
import type { EngineJob, EngineReply } from './engine-worker';

export class EngineBusy extends Error {
  constructor(readonly retryAfterSeconds: number) {
    super('The verification engine is busy');
  }
}

export interface EnginePoolOptions {
  workers: number;
  queueLimit: number;
  /** The worker module; tests pass a stand-in that needs no models. */
  workerUrl?: URL;
  /** Seconds a refused caller should wait (Retry-After). */
  retryAfterSeconds?: number;
}

interface PendingJob {
  job: EngineJob;
  resolve: (result: { findings: EngineFindings | null; timings: Timings }) => void;
  reject: (error: Error) => void;
}

interface Slot {
  worker: Worker;
  busy: PendingJob | null;
}

export class EnginePool {
  private slots: Slot[] = [];
  private queue: PendingJob[] = [];
  private nextId = 1;
  private closed = false;

  constructor(private readonly options: EnginePoolOptions) {}

  /** Jobs waiting for a worker (not counting the running ones). */
  get queued(): number {
    return this.queue.length;
  }

  /** Starts the workers and loads their models (ENGINE_PRELOAD, bench, the CLI). */
  async warmUp(): Promise<void> {
    this.start();
    await Promise.all(this.slots.map(() => this.run({ kind: 'warmup' })));
  }

  run(job: EngineJob): Promise<{ findings: EngineFindings | null; timings: Timings }> {
    if (this.closed) return Promise.reject(new Error('The verification engine is stopped'));
    this.start();
    const idle = this.slots.find((slot) => !slot.busy);
    if (!idle && this.queue.length >= this.options.queueLimit) return Promise.reject(new EngineBusy(this.options.retryAfterSeconds ?? 2));
    return new Promise((resolve, reject) => {
      const pending = { job, resolve, reject };
      if (idle) this.dispatch(idle, pending);
      else this.queue.push(pending);
    });
  }

  async close(): Promise<void> {
    this.closed = true;
    for (const pending of this.queue.splice(0)) pending.reject(new Error('The verification engine is stopped'));
    await Promise.all(this.slots.map((slot) => slot.worker.terminate()));
    this.slots = [];
  }

  private start(): void {
    if (this.slots.length > 0) return;
    const url = this.options.workerUrl ?? new URL('./engine-worker.ts', import.meta.url);
    for (let i = 0; i < this.options.workers; i++) this.slots.push(this.spawn(url));
  }

  private spawn(url: URL): Slot {
    const slot: Slot = { worker: new Worker(url), busy: null };
    slot.worker.on('message', (reply: EngineReply) => {
      const pending = slot.busy;
      slot.busy = null;
      if (pending) {
        if (reply.ok) pending.resolve({ findings: reply.findings, timings: reply.timings });
        else pending.reject(new Error(`engine worker failed: ${reply.error}`));
      }
      const next = this.queue.shift();
      if (next) this.dispatch(slot, next);
    });
    slot.worker.on('error', (error) => {
      // A crashed worker fails its job and is replaced, so one bad input cannot stop the engine.
      slot.busy?.reject(error instanceof Error ? error : new Error(String(error)));
      slot.busy = null;
      if (this.closed) return;
      const index = this.slots.indexOf(slot);
      const replacement = this.spawn(url);
      if (index >= 0) this.slots[index] = replacement;
      const next = this.queue.shift();
      if (next) this.dispatch(replacement, next);
    });
    return slot;
  }

  private dispatch(slot: Slot, pending: PendingJob): void {
    slot.busy = pending;
    const id = this.nextId++;
    // The image buffers are transferred, not copied: after this the main thread holds no image bytes.
    const buffers = imageBuffers(pending.job);
    slot.worker.postMessage({ id, job: pending.job }, buffers);
  }
}

function imageBuffers(job: EngineJob): ArrayBuffer[] {
  const images =
    job.kind === 'age_estimation'
      ? job.selfies
      : job.kind === 'document'
        ? [job.document, ...(job.documentFront ? [job.documentFront] : []), ...job.selfies]
        : [];
  const unique = new Set<ArrayBuffer>();
  for (const image of images)
    if (image.buffer instanceof ArrayBuffer && image.byteOffset === 0 && image.byteLength === image.buffer.byteLength) unique.add(image.buffer);
  return [...unique];
}
