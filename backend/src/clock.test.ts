/** The test-only offset clock (issue 12: the dashboard e2e spec moves time to pause an endpoint). */
import { afterAll, describe, expect, test } from 'bun:test';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileOffsetClock, TEST_CLOCK_ENV, TestClockRefused, testClockFromEnv } from './clock';

const dir = mkdtempSync(join(tmpdir(), 'clock-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('fileOffsetClock', () => {
  test('runs ahead by the offset in the file, re-read as it changes; no file or an empty one is 0', async () => {
    const file = join(dir, 'offset');
    const clock = fileOffsetClock(file, 0);
    const near = (date: Date, offset: number) => Math.abs(date.getTime() - (Date.now() + offset)) < 1000;
    expect(near(clock.now(), 0)).toBe(true);
    writeFileSync(file, String(61 * 60 * 1000));
    expect(near(clock.now(), 61 * 60 * 1000)).toBe(true);
    writeFileSync(file, '');
    expect(near(clock.now(), 0)).toBe(true);
    writeFileSync(file, 'soon');
    expect(() => clock.now()).toThrow('must hold a whole number of milliseconds');
  });
});

describe('testClockFromEnv', () => {
  test('null unless asked for; refused outside NODE_ENV=test', () => {
    expect(testClockFromEnv({ NODE_ENV: 'test' })).toBeNull();
    expect(testClockFromEnv({ NODE_ENV: 'test', [TEST_CLOCK_ENV]: join(dir, 'x') })).not.toBeNull();
    for (const NODE_ENV of [undefined, 'production', 'development']) {
      expect(() => testClockFromEnv({ NODE_ENV, [TEST_CLOCK_ENV]: join(dir, 'x') })).toThrow(TestClockRefused);
    }
  });
});
