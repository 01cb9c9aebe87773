import { afterAll, describe, expect, test } from 'bun:test';
import { closeSync, constants, existsSync, mkdtempSync, openSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  DataDirLockedError,
  acquireDataDirLock,
  judgeRecordedHolder,
  lockPath,
  readLock,
  systemProcessProbe,
  type LockInfo,
  type ProcessProbe,
} from './data-dir-lock';
import { systemFileLock, type FileLock } from './file-lock';

const cleanup: (() => void)[] = [];
afterAll(() => {
  for (const step of cleanup.reverse()) step();
});

function freshDir(): string {
  const dir = mkdtempSync(join(tmpdir(), 'av-lock-'));
  cleanup.push(() => rmSync(dir, { recursive: true, force: true }));
  return dir;
}

const startedAt = '2026-01-01T00:00:00.000Z';
const record = (info: Partial<LockInfo>) => JSON.stringify({ startedAt, ...info });

/** A process that has exited: its pid is dead (until the kernel hands it out again, which takes a while). */
async function deadPid(): Promise<number> {
  const proc = Bun.spawn(['true']);
  await proc.exited;
  return proc.pid;
}

/** Another process holding the folder's lock, as a running server does. */
async function startHolder(dataDir: string) {
  const script = `
    const { acquireDataDirLock } = await import(${JSON.stringify(join(import.meta.dir, 'data-dir-lock.ts'))});
    acquireDataDirLock(process.env.HOLD_DIR);
    console.log('locked');
    setInterval(() => {}, 1 << 30);`;
  const proc = Bun.spawn(['bun', '-e', script], { env: { ...process.env, HOLD_DIR: dataDir }, stdout: 'pipe', stderr: 'pipe' });
  cleanup.push(() => proc.kill('SIGKILL'));
  const reader = proc.stdout.getReader();
  const { value } = await reader.read();
  reader.releaseLock();
  if (!new TextDecoder().decode(value).includes('locked')) throw new Error(`holder did not lock: ${await new Response(proc.stderr).text()}`);
  return proc;
}

describe('judgeRecordedHolder (the pid-file fallback, where flock is unavailable)', () => {
  const self = 4242;
  const live = 777;
  const probe: ProcessProbe = {
    isAlive: (pid) => pid === self || pid === live,
    startTime: (pid) => (pid === live ? '5000' : null),
  };
  const cases: [string, LockInfo | null, 'held' | 'stale'][] = [
    ['no record (missing or malformed lock file)', null, 'stale'],
    ['our own pid: left by an earlier process that had it (PID 1 after a container restart)', { pid: self, startedAt }, 'stale'],
    ['a live other process', { pid: live, startedAt, processStart: '5000' }, 'held'],
    ['a live other process recorded without a start time (older record)', { pid: live, startedAt }, 'held'],
    ['a dead pid', { pid: 999, startedAt, processStart: '5000' }, 'stale'],
    ['a pid reused by a process that started at another time', { pid: live, startedAt, processStart: '4000' }, 'stale'],
  ];
  test.each(cases)('%s', (_name, recorded, verdict) => {
    expect(judgeRecordedHolder(recorded, self, probe)).toBe(verdict);
  });

  test('a live process whose start time cannot be read counts as the holder', () => {
    expect(judgeRecordedHolder({ pid: live, startedAt, processStart: '4000' }, self, { ...probe, startTime: () => null })).toBe('held');
  });
});

describe('readLock', () => {
  test.each(['', 'not json', 'null', '[]', '{}', '{"pid":"7","startedAt":"x"}', '{"pid":0,"startedAt":"x"}', '{"pid":7}'])('%j is no record', (content) => {
    const dir = freshDir();
    writeFileSync(lockPath(dir), content);
    expect(readLock(dir)).toBeNull();
  });
});

describe.skipIf(process.platform !== 'linux')('the process start time (/proc/<pid>/stat field 22)', () => {
  test('is a number of clock ticks and differs between processes started at different times', async () => {
    const ours = systemProcessProbe.startTime(process.pid);
    expect(ours).toMatch(/^\d+$/);
    expect(systemProcessProbe.startTime(process.pid)).toBe(ours);
    const later = Bun.spawn(['sleep', '5']);
    cleanup.push(() => later.kill('SIGKILL'));
    // Waiting for the clock to tick (10 ms) would be enough; a bounded poll keeps a busy machine from flaking.
    for (let i = 0; i < 200 && systemProcessProbe.startTime(later.pid) === ours; i++) await Bun.sleep(10);
    expect(systemProcessProbe.startTime(later.pid)).not.toBe(ours);
    expect(systemProcessProbe.startTime(await deadPid())).toBeNull();
  });
});

// What a left-over lock file says, when no live process holds the lock. Start times come from
// /proc: elsewhere a live pid cannot be told from its reuse, so that row needs /proc.
const hasProc = existsSync('/proc/self/stat');
const leftOvers: [string, () => Promise<string>][] = [
  ['our own pid (reused)', async () => record({ pid: process.pid, processStart: systemProcessProbe.startTime(process.pid) ?? undefined })],
  ['a dead pid', async () => record({ pid: await deadPid() })],
  ...(hasProc
    ? [['a live pid with another start time (reused)', async () => record({ pid: process.ppid, processStart: '1' })] as [string, () => Promise<string>]]
    : []),
  ['malformed', async () => '{"pid": 12, "startedAt'],
  ['empty', async () => ''],
];

describe.skipIf(!systemFileLock())('acquireDataDirLock with flock', () => {
  test.each(leftOvers)('a left-over record of %s is taken over', async (_name, content) => {
    const dir = freshDir();
    writeFileSync(lockPath(dir), await content());
    const lock = acquireDataDirLock(dir);
    expect(readLock(dir)).toMatchObject({ pid: process.pid });
    lock.release();
  });

  test('a live process recorded without the flock mark (an older version still running) is refused', () => {
    const dir = freshDir();
    writeFileSync(lockPath(dir), record({ pid: process.ppid }));
    expect(() => acquireDataDirLock(dir)).toThrow(`is in use by process ${process.ppid}`);
    // The same record from a holder of the flock era: nobody holds the flock, so it is stale.
    writeFileSync(lockPath(dir), record({ pid: process.ppid, lock: 'flock' }));
    acquireDataDirLock(dir).release();
  });

  test('a live other process is refused with its pid; once it is killed (-9) the lock is free', async () => {
    const dir = freshDir();
    const holder = await startHolder(dir);
    expect(() => acquireDataDirLock(dir)).toThrow(`The embedded database in ${dir} is in use by process ${holder.pid}`);
    expect(() => acquireDataDirLock(dir)).toThrow(DataDirLockedError);
    holder.kill('SIGKILL');
    await holder.exited;
    expect(readLock(dir)?.pid).toBe(holder.pid);
    acquireDataDirLock(dir).release();
  });

  test('a live holder that names a dead process or nobody yet still holds it', async () => {
    const dir = freshDir();
    const fd = openSync(lockPath(dir), constants.O_RDWR | constants.O_CREAT, 0o600);
    expect(systemFileLock()!.tryLockExclusive(fd)).toBe(true);
    expect(() => acquireDataDirLock(dir)).toThrow('another process is starting on the same folder. Try again.');
    writeFileSync(lockPath(dir), record({ pid: await deadPid() }));
    expect(() => acquireDataDirLock(dir)).toThrow(DataDirLockedError);
    closeSync(fd);
    acquireDataDirLock(dir).release();
  });

  test('the record is rewritten in place (0600: it carries the admin token) and removed on release', () => {
    const dir = freshDir();
    writeFileSync(lockPath(dir), 'a much longer left-over content than the record that replaces it, '.repeat(20), { mode: 0o644 });
    const lock = acquireDataDirLock(dir, new Date(startedAt));
    expect(readLock(dir)).toEqual({ pid: process.pid, startedAt, processStart: expect.any(String), lock: 'flock' });
    lock.update({ adminUrl: 'http://127.0.0.1:1', adminToken: 't' });
    expect(JSON.parse(readFileSync(lockPath(dir), 'utf8'))).toMatchObject({ pid: process.pid, adminUrl: 'http://127.0.0.1:1', adminToken: 't' });
    expect(statSync(lockPath(dir)).mode & 0o777).toBe(0o600);
    lock.release();
    expect(existsSync(lockPath(dir))).toBe(false);
    acquireDataDirLock(dir).release();
  });

  test('a file unlinked by a releasing holder between our open and our flock is not taken for the lock', () => {
    const dir = freshDir();
    const real = systemFileLock()!;
    let raced = false;
    // The releasing holder unlinks the file just before our flock succeeds on it.
    const racing: FileLock = {
      tryLockExclusive(fd) {
        if (!raced) {
          raced = true;
          rmSync(lockPath(dir));
        }
        return real.tryLockExclusive(fd);
      },
    };
    const lock = acquireDataDirLock(dir, new Date(), racing);
    expect(readLock(dir)?.pid).toBe(process.pid);
    expect(() => acquireDataDirLock(dir)).toThrow(DataDirLockedError);
    lock.release();
  });
});

describe('acquireDataDirLock without flock (the pid-file fallback)', () => {
  test.each(leftOvers)('a left-over record of %s is taken over', async (_name, content) => {
    const dir = freshDir();
    writeFileSync(lockPath(dir), await content());
    const lock = acquireDataDirLock(dir, new Date(), null);
    expect(readLock(dir)).toMatchObject({ pid: process.pid });
    lock.release();
    expect(existsSync(lockPath(dir))).toBe(false);
  });

  test('a record of a live other process, recorded with its start time or without, is refused', () => {
    const dir = freshDir();
    const processStart = systemProcessProbe.startTime(process.ppid) ?? undefined;
    for (const content of [record({ pid: process.ppid, processStart }), record({ pid: process.ppid })]) {
      writeFileSync(lockPath(dir), content);
      expect(() => acquireDataDirLock(dir, new Date(), null)).toThrow(`is in use by process ${process.ppid}`);
    }
  });

  test('our own pid is not stale while this very process holds the lock', () => {
    const dir = freshDir();
    const lock = acquireDataDirLock(dir, new Date(), null);
    expect(() => acquireDataDirLock(dir, new Date(), null)).toThrow(`is in use by process ${process.pid}`);
    lock.release();
    acquireDataDirLock(dir, new Date(), null).release();
  });
});
