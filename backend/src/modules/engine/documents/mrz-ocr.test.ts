import { describe, expect, test } from 'bun:test';
import { inOrder, type MrzOcr } from './mrz-ocr';

/** inOrder asks the scheduler only how many threads it has. */
const threads = (n: number) => ({ getNumWorkers: () => n, dropped: new Set() }) as unknown as MrzOcr;

/** A take that keeps every value and never stops. */
const keepAll = (taken: number[]) => (value: number) => {
  taken.push(value);
  return false;
};

/** Reads that finish after `delays[k]` ms with value k, recording how many run at once. */
function reads(delays: readonly number[]) {
  const log = { running: 0, most: 0, started: [] as number[] };
  const fns = delays.map((delay, k) => async () => {
    log.started.push(k);
    log.running++;
    log.most = Math.max(log.most, log.running);
    await Bun.sleep(delay);
    log.running--;
    return k;
  });
  return { fns, log };
}

describe('inOrder: a step’s crops read as many at once as there are threads, taken in order', () => {
  test('results are taken in the order asked, though a later read finishes first', async () => {
    const { fns, log } = reads([40, 5, 5, 30]);
    const taken: number[] = [];
    expect(await inOrder(threads(2), fns, keepAll(taken))).toBe('done');
    expect(taken).toEqual([0, 1, 2, 3]);
    expect(log.most).toBe(2);
  });

  test('one thread reads one crop at a time', async () => {
    const { fns, log } = reads([5, 5, 5]);
    await inOrder(threads(1), fns, () => false);
    expect(log.most).toBe(1);
  });

  test('the first result taken stops it: no read starts after it, and one still running is dropped until it ends', async () => {
    const { fns, log } = reads([30, 60, 5, 5]);
    const taken: number[] = [];
    const ocr = threads(2);
    expect(await inOrder(ocr, fns, (value) => keepAll(taken)(value) || value === 0)).toBe('taken');
    expect(taken).toEqual([0]);
    // The second was started beside the first; nothing after. It is kept among the dropped reads
    // (terminate waits for them) until it ends.
    expect(log.started).toEqual([0, 1]);
    expect(ocr.dropped.size).toBe(1);
    await Bun.sleep(60);
    expect(ocr.dropped.size).toBe(0);
  });

  test('when no read may start, what was started is taken and it stops', async () => {
    const { fns, log } = reads([5, 5, 5, 5]);
    let allowed = 3;
    const taken: number[] = [];
    expect(await inOrder(threads(2), fns, keepAll(taken), () => allowed-- > 0)).toBe('stopped');
    expect(taken).toEqual([0, 1, 2]);
    expect(log.started).toEqual([0, 1, 2]);
  });

  test('a failing read that is taken throws; one dropped after the answer does not surface', async () => {
    const failing = async () => {
      await Bun.sleep(5);
      throw new Error('OCR failed');
    };
    const slow = async () => {
      await Bun.sleep(20);
      return 'ok';
    };
    await expect(inOrder(threads(2), [slow, failing], () => false)).rejects.toThrow('OCR failed');
    expect(await inOrder(threads(2), [slow, failing], () => true)).toBe('taken');
    await Bun.sleep(20);
  });
});
