/**
 * Worker threads for the models, with a bounded queue (issue 10: inference never runs on the event
 * loop, so session create/validate keep their latency while checks run). Workers start on the first
 * job or at boot (ENGINE_PRELOAD), each warms its models once, and takes one job at a time. When
 * every worker is busy and ENGINE_QUEUE_LIMIT jobs wait, a new job is refused at once with
 * EngineBusy (the route answers 503 with Retry-After) rather than queued without bound.
 *
 * Issue 22, finding 3 (one hostile submission held the worker for 75 s): waiting jobs are served
 * round-robin by their key (the session), so one session's jobs cannot hold another's for more than
 * one job; a job still running after jobTimeoutMs is failed with EngineTimeout and its worker
 * replaced; and a worker's refusal of an image (too complex to decode) is EngineRefused, a 4xx.
 */
import { Worker } from 'node:worker_threads';
import type { EngineFindings, Timings } from '../model';
import type { EngineJob, EngineReply } from './engine-worker';

export class EngineBusy extends Error {
  constructor(readonly retryAfterSeconds: number) {
    super('The verification engine is busy');
  }
}

/** The job ran past its time limit; its worker was replaced. Not the caller's fault: retry later. */
export class EngineTimeout extends Error {
  constructor(readonly retryAfterSeconds: number) {
    super('The verification engine did not finish in time');
  }
}

/** The worker refused an image (image-decoding.ts too_complex); the message says why. */
export class EngineRefused extends Error {}

export interface EnginePoolOptions {
  workers: number;
  queueLimit: number;
  /** The worker module; tests pass a stand-in that needs no models. */
  workerUrl?: URL;
  /** Seconds a refused caller should wait (Retry-After). */
  retryAfterSeconds?: number;
  /** Milliseconds a job may run once its worker has its models (default JOB_TIMEOUT_MS). */
  jobTimeoutMs?: number;
  /** Milliseconds a job may run while its worker still loads models (default LOAD_TIMEOUT_MS). */
  loadTimeoutMs?: number;
}

/**
 * A genuine job (decode, detection, OCR) takes under a second to a few seconds; hostile input is cut
 * here. A liveness challenge's 8 frames with a document and face match take about 4× a single
 * selfie's work, and a busy 2-core machine slows that again (docs/verification.md "Latency"), so
 * 20 s; each image's decode has its own budget besides (image-decoding.ts), and reading an MRZ
 * stops starting steps after its own (mrz-reading.ts MRZ_BUDGET_MS, 14 s), so a hard document page
 * ends in a settled reading rather than here.
 */
export const JOB_TIMEOUT_MS = 20_000;
/** Loading the models (face-api, Tesseract) on a cold worker takes longer; only the worker's first job has it. */
export const LOAD_TIMEOUT_MS = 120_000;

interface PendingJob {
  job: EngineJob;
  /** Whose job (the session): waiting jobs are served round-robin by key. */
  key: string;
  resolve: (result: { findings: EngineFindings | null; timings: Timings }) => void;
  reject: (error: Error) => void;
}

interface Slot {
  worker: Worker;
  busy: PendingJob | null;
  /** The id of the job it runs; a reply with another id is not this job's. */
  jobId: number;
  timer: ReturnType<typeof setTimeout> | undefined;
  /** Its worker has answered a job, so its models are loaded: the short time limit applies. */
  warm: boolean;
}

export class EnginePool {
  private slots: Slot[] = [];
  /** Waiting jobs by key, keys in the order they are served (round-robin). */
  private waiting = new Map<string, PendingJob[]>();
  private nextId = 1;
  private closed = false;

  constructor(private readonly options: EnginePoolOptions) {}

  /** Jobs waiting for a worker (not counting the running ones). */
  get queued(): number {
    let count = 0;
    for (const jobs of this.waiting.values()) count += jobs.length;
    return count;
  }

  /** Starts the workers and loads their models (ENGINE_PRELOAD, bench, the CLI). */
  async warmUp(): Promise<void> {
    this.start();
    await Promise.all(this.slots.map((_, i) => this.run({ kind: 'warmup' }, `warmup-${i}`)));
  }

  /** Runs a job for `key` (the session id): keys take turns when jobs wait. */
  run(job: EngineJob, key = ''): Promise<{ findings: EngineFindings | null; timings: Timings }> {
    if (this.closed) return Promise.reject(new Error('The verification engine is stopped'));
    this.start();
    const idle = this.slots.find((slot) => !slot.busy);
    if (!idle && this.queued >= this.options.queueLimit) return Promise.reject(new EngineBusy(this.options.retryAfterSeconds ?? 2));
    return new Promise((resolve, reject) => {
      const pending = { job, key, resolve, reject };
      if (idle) this.dispatch(idle, pending);
      else this.waiting.set(key, [...(this.waiting.get(key) ?? []), pending]);
    });
  }

  async close(): Promise<void> {
    this.closed = true;
    for (const jobs of this.waiting.values()) for (const pending of jobs) pending.reject(new Error('The verification engine is stopped'));
    this.waiting.clear();
    for (const slot of this.slots) clearTimeout(slot.timer);
    await Promise.all(this.slots.map((slot) => slot.worker.terminate()));
    this.slots = [];
  }

  /** The next waiting job: the first key's oldest, and that key goes to the back of the line. */
  private takeNext(): PendingJob | undefined {
    for (const [key, jobs] of this.waiting) {
      this.waiting.delete(key);
      const next = jobs.shift();
      if (jobs.length > 0) this.waiting.set(key, jobs);
      if (next) return next;
    }
    return undefined;
  }

  private finish(slot: Slot): PendingJob | null {
    const pending = slot.busy;
    clearTimeout(slot.timer);
    slot.busy = null;
    return pending;
  }

  /** Ends a worker that failed or ran too long, and puts a fresh one in its place. */
  private replace(slot: Slot, url: URL): void {
    void slot.worker.terminate();
    if (this.closed) return;
    const index = this.slots.indexOf(slot);
    const replacement = this.spawn(url);
    if (index >= 0) this.slots[index] = replacement;
    const next = this.takeNext();
    if (next) this.dispatch(replacement, next);
  }

  private start(): void {
    if (this.slots.length > 0) return;
    const url = this.options.workerUrl ?? new URL('./engine-worker.ts', import.meta.url);
    for (let i = 0; i < this.options.workers; i++) this.slots.push(this.spawn(url));
  }

  private spawn(url: URL): Slot {
    const slot: Slot = { worker: new Worker(url), busy: null, jobId: 0, timer: undefined, warm: false };
    slot.worker.on('message', (reply: EngineReply) => {
      // A reply for another job (one that timed out, a stray message) must not settle this one.
      if (!slot.busy || reply.id !== slot.jobId) return;
      const pending = this.finish(slot)!;
      slot.warm = true;
      if (reply.ok) pending.resolve({ findings: reply.findings, timings: reply.timings });
      else if (reply.refused) pending.reject(new EngineRefused(reply.error));
      else pending.reject(new Error(`engine worker failed: ${reply.error}`));
      // A refused image may still be decoding in the worker's native threads: start afresh.
      if (!reply.ok && reply.replace) return this.replace(slot, url);
      const next = this.takeNext();
      if (next) this.dispatch(slot, next);
    });
    slot.worker.on('error', (error) => {
      // A crashed worker fails its job and is replaced, so one bad input cannot stop the engine.
      this.finish(slot)?.reject(error instanceof Error ? error : new Error(String(error)));
      this.replace(slot, url);
    });
    return slot;
  }

  private dispatch(slot: Slot, pending: PendingJob): void {
    slot.busy = pending;
    const id = this.nextId++;
    slot.jobId = id;
    const limit = slot.warm ? (this.options.jobTimeoutMs ?? JOB_TIMEOUT_MS) : (this.options.loadTimeoutMs ?? LOAD_TIMEOUT_MS);
    slot.timer = setTimeout(() => {
      if (slot.jobId !== id || !slot.busy) return;
      this.finish(slot)!.reject(new EngineTimeout(this.options.retryAfterSeconds ?? 2));
      this.replace(slot, this.options.workerUrl ?? new URL('./engine-worker.ts', import.meta.url));
    }, limit);
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
