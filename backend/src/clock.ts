import { readFileSync } from 'node:fs';
/** Domain code takes a clock instead of calling Date.now() (docs/engineering-habits.md habit 2), so tests move time. */
export interface Clock {
  now(): Date;
}

export const systemClock: Clock = { now: () => new Date() };

/** A clock tests can set and advance. */
export class ManualClock implements Clock {
  constructor(private current = new Date('2026-01-15T12:00:00.000Z')) {}
  now(): Date {
    return new Date(this.current.getTime());
  }
  advance(ms: number): void {
    this.current = new Date(this.current.getTime() + ms);
  }
  set(date: Date): void {
    this.current = new Date(date.getTime());
  }
}

/**
 * A clock ahead of the system clock by the milliseconds written in a file (issue 12: the dashboard's
 * Playwright spec drives a webhook endpoint into Paused, which takes an hour of rejections, by
 * moving this clock forward). Only the test server uses it: main.ts builds it when NODE_ENV=test
 * and AGEVERIFY_TEST_CLOCK_OFFSET_FILE are both set (testClockFromEnv). The file holds one integer
 * (ms, may be absent or empty: 0) and is re-read at most every `refreshMs` of real time.
 */
export function fileOffsetClock(path: string, refreshMs = 100): Clock {
  let offset = 0;
  let readAt = Number.NEGATIVE_INFINITY;
  return {
    now() {
      const real = Date.now();
      if (real - readAt >= refreshMs) {
        readAt = real;
        offset = readOffset(path);
      }
      return new Date(real + offset);
    },
  };
}

function readOffset(path: string): number {
  let text = '';
  try {
    text = readFileSync(path, 'utf8').trim();
  } catch {
    return 0;
  }
  const value = Number(text || '0');
  if (!Number.isSafeInteger(value)) throw new Error(`${path} must hold a whole number of milliseconds, got "${text}"`);
  return value;
}

export const TEST_CLOCK_ENV = 'AGEVERIFY_TEST_CLOCK_OFFSET_FILE';

/**
 * The test clock when asked for, else null. Asking for it outside NODE_ENV=test is an error that
 * stops the boot: a production server never runs on a moved clock, not even by a stray variable.
 */
export function testClockFromEnv(env: Record<string, string | undefined> = process.env): Clock | null {
  const path = env[TEST_CLOCK_ENV]?.trim();
  if (!path) return null;
  if (env.NODE_ENV !== 'test') throw new TestClockRefused();
  return fileOffsetClock(path);
}

export class TestClockRefused extends Error {
  constructor() {
    super(`${TEST_CLOCK_ENV} is a test-only setting and needs NODE_ENV=test; unset it to run this server.`);
  }
}
