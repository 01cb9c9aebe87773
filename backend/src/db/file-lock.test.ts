import { afterAll, describe, expect, test } from 'bun:test';
import { closeSync, constants, mkdtempSync, openSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { systemFileLock } from './file-lock';

const folder = mkdtempSync(join(tmpdir(), 'av-flock-'));
afterAll(() => rmSync(folder, { recursive: true, force: true }));
const open = (name: string) => openSync(join(folder, name), constants.O_RDWR | constants.O_CREAT, 0o600);

describe.skipIf(process.platform !== 'linux' && process.platform !== 'darwin')('systemFileLock', () => {
  test('is available on this platform', () => {
    expect(systemFileLock()).not.toBeNull();
  });

  // flock conflicts between open file descriptions, even in one process: two opens stand for two processes.
  test('one holder per file; closing the holder frees it', () => {
    const fileLock = systemFileLock()!;
    const first = open('a');
    const second = open('a');
    const other = open('b');
    try {
      expect(fileLock.tryLockExclusive(first)).toBe(true);
      expect(fileLock.tryLockExclusive(second)).toBe(false);
      expect(fileLock.tryLockExclusive(other)).toBe(true);
      closeSync(first);
      expect(fileLock.tryLockExclusive(second)).toBe(true);
    } finally {
      for (const fd of [second, other]) closeSync(fd);
    }
  });

  test('a failure other than "held elsewhere" throws (EBADF: a descriptor far above any open one)', () => {
    expect(() => systemFileLock()!.tryLockExclusive(1_000_000)).toThrow('flock on descriptor 1000000 failed with errno 9');
  });
});
