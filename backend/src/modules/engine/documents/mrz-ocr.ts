/**
 * The OCR that reads MRZ crops: tesseract.js workers, each on a thread of its own, behind one
 * scheduler (MRZ_OCR_THREADS), and `inOrder`, which reads a step's crops as many at once as there
 * are threads while taking their results in the order they were asked for (decision 0076).
 */
import { join } from 'node:path';
import { createScheduler, createWorker, OEM, type PSM, type RecognizeOptions, type Scheduler } from 'tesseract.js';

const MODEL_DIR = join(import.meta.dir, '..', '..', '..', '..', 'models', 'mrz');

/**
 * Two threads: the machine the service is sized for has two cores, and the engine runs one worker
 * (config.ts ENGINE_WORKERS), so one thread of OCR left the second core idle while a hard page
 * went through its steps against the time budget (mrz-reading.ts MRZ_BUDGET_MS).
 */
export const MRZ_OCR_THREADS = 2;

/**
 * The scheduler, and the reads `inOrder` dropped that may still be running (a dropped read may
 * still be building its crop and send its job later): `terminate` waits for them, so no job
 * reaches a worker that was terminated (bun test reported one such job of a test's dropped read,
 * after the test file had ended, as an unhandled error).
 */
export type MrzOcr = Scheduler & { readonly dropped: Set<Promise<unknown>> };

/**
 * Loads the model from the repository with `cacheMethod: 'none'`, so nothing is fetched from a
 * CDN or cached on disk.
 */
export async function createMrzOcr(threads = MRZ_OCR_THREADS): Promise<MrzOcr> {
  const scheduler = createScheduler();
  const workers = await Promise.all(
    Array.from({ length: threads }, async () => {
      const worker = await createWorker('mrz', OEM.LSTM_ONLY, {
        langPath: MODEL_DIR,
        cacheMethod: 'none',
        gzip: false,
        logger: () => {},
        errorHandler: () => {},
      });
      await worker.setParameters({ tessedit_char_whitelist: 'ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789<', user_defined_dpi: '300' });
      return worker;
    }),
  );
  for (const worker of workers) scheduler.addWorker(worker);
  const dropped = new Set<Promise<unknown>>();
  const terminate = async () => {
    await Promise.allSettled(dropped);
    return scheduler.terminate();
  };
  return { ...scheduler, dropped, terminate };
}

/**
 * How tesseract turns the grey band into black text on white: one threshold for the whole band
 * (Otsu, its default), or one per neighbourhood (Sauvola), which keeps the text of a band that a
 * shadow edge crosses, where a single threshold blackens the shaded part or whitens its text.
 */
export type Binarisation = 'global' | 'local';
const THRESHOLDING_METHOD = { global: '0', local: '2' } as const;

/**
 * The text of one crop. The page segmentation and threshold travel with the job (tesseract.js sets
 * them for that recognition and restores them after), so whichever thread reads it reads it the
 * same way; its typings list only its own options.
 */
export async function ocrText(ocr: MrzOcr, png: Buffer, psm: PSM, binarisation: Binarisation = 'global'): Promise<string> {
  const parameters = { tessedit_pageseg_mode: psm, thresholding_method: THRESHOLDING_METHOD[binarisation] };
  const { data } = await ocr.addJob('recognize', png, parameters as Partial<RecognizeOptions>);
  return data.text;
}

/**
 * Starts `reads` in order, as many at once as the OCR has threads, and hands each result to `take`
 * in that same order, so what is taken is what reading them one by one would take. It stops at the
 * first `take` that returns true ('taken'), or when `mayStart` refuses the next read and every read
 * started has been taken ('stopped'). A read still running when it stops runs to its end on its
 * thread (tesseract cannot be interrupted) and its result is dropped (`MrzOcr.dropped`).
 */
export async function inOrder<T>(
  ocr: MrzOcr,
  reads: readonly (() => Promise<T>)[],
  take: (value: T, index: number) => boolean,
  mayStart: () => boolean = () => true,
): Promise<'taken' | 'done' | 'stopped'> {
  const width = Math.max(1, ocr.getNumWorkers());
  const started: Promise<T>[] = [];
  for (let k = 0; k < reads.length; k++) {
    while (started.length < reads.length && started.length - k < width && mayStart()) {
      const read = reads[started.length]!();
      // A dropped read's failure is nobody's to handle; a taken read's failure is thrown below.
      read.catch(() => {});
      started.push(read);
    }
    if (started.length === k) return 'stopped';
    if (take(await started[k]!, k)) {
      for (const read of started.slice(k + 1)) {
        ocr.dropped.add(read);
        const done = () => ocr.dropped.delete(read);
        read.then(done, done);
      }
      return 'taken';
    }
  }
  return 'done';
}
