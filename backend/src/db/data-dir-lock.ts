/**
 * PGlite does not lock its data folder, and two processes writing one folder lose data
 * (PGlite is a single-process Postgres: each process assumes it owns the files). The embedded mode therefore locks DATA_DIR/ageverify.lock; a
 * second process is refused with a clear message naming the holder.
 *
 * The lock is an flock(2) on that file (file-lock.ts), held as long as the process lives. The
 * kernel drops it when the holder dies, so a lock left by kill -9 is free at once, whatever pid
 * the next process gets: in a container the server is PID 1 on every start, and comparing pids
 * took every restart for the dead server. It also holds across containers sharing the folder on
 * one host, where pids of another pid namespace mean nothing (docs/decisions/0018).
 *
 * Where flock cannot be called (e.g. Windows) the file's existence is the lock (O_EXCL), as before,
 * and a left-over file is judged from the pid and process start time recorded in it
 * (judgeRecordedHolder). That fallback cannot see processes of other pid namespaces.
 *
 * The file's content also tells people who holds the folder, and tells the CLI how to reach the
 * running server (cli/server-bridge.ts), so that provisioning while the server runs goes through
 * the server instead of opening the folder twice.
 */
import { closeSync, constants, fchmodSync, fstatSync, ftruncateSync, mkdirSync, openSync, readFileSync, rmSync, statSync, writeSync } from 'node:fs';
import { join } from 'node:path';
import { systemFileLock, type FileLock } from './file-lock';

export interface LockInfo {
  pid: number;
  startedAt: string;
  /**
   * When the process started, as the kernel counts it (Linux: /proc/<pid>/stat field 22, clock
   * ticks after boot). Absent where unknown. Tells a holder from a later process with its pid.
   */
  processStart?: string;
  /** 'flock' when the holder holds the file's flock; absent in records of the pid-file era. */
  lock?: 'flock';
  /** Set by the server once it listens: where the CLI can forward commands, and the token it needs. */
  adminUrl?: string;
  adminToken?: string;
}

export class DataDirLockedError extends Error {
  constructor(
    readonly dataDir: string,
    readonly holder: LockInfo,
  ) {
    super(
      `The embedded database in ${dataDir} is in use by process ${holder.pid} (since ${holder.startedAt}). ` +
        'PGlite allows one process per folder: stop that process, use another DATA_DIR, or set DATABASE_URL to use PostgreSQL.',
    );
  }
}

export function lockPath(dataDir: string): string {
  return join(dataDir, 'ageverify.lock');
}

/** The recorded holder, or null when there is no lock file or it is not a lock record. */
export function readLock(dataDir: string): LockInfo | null {
  let parsed: unknown;
  try {
    parsed = JSON.parse(readFileSync(lockPath(dataDir), 'utf8'));
  } catch {
    return null;
  }
  const info = parsed as Partial<LockInfo> | null;
  return info && Number.isSafeInteger(info.pid) && info.pid! > 0 && typeof info.startedAt === 'string' ? (info as LockInfo) : null;
}

export interface ProcessProbe {
  isAlive(pid: number): boolean;
  /** The process's start time in LockInfo.processStart's unit, or null when unknown. */
  startTime(pid: number): string | null;
}

/**
 * Pid-file fallback only: whether the process recorded in a left-over lock file may still hold
 * the folder. A record naming our own pid is stale: we have not taken the lock yet, so it was left
 * by an earlier process that had our pid (PID 1 after a container restart).
 */
export function judgeRecordedHolder(recorded: LockInfo | null, selfPid: number, probe: ProcessProbe): 'held' | 'stale' {
  if (!recorded) return 'stale';
  if (recorded.pid === selfPid) return 'stale';
  if (!probe.isAlive(recorded.pid)) return 'stale';
  // Alive, but perhaps a later process that reused the pid: the start time tells, when both are known.
  const current = recorded.processStart ? probe.startTime(recorded.pid) : null;
  if (current !== null && current !== recorded.processStart) return 'stale';
  return 'held';
}

export const systemProcessProbe: ProcessProbe = {
  isAlive(pid) {
    try {
      process.kill(pid, 0);
      return true;
    } catch (error) {
      return (error as NodeJS.ErrnoException).code === 'EPERM';
    }
  },
  startTime(pid) {
    try {
      const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
      // Field 2, the command name, is in parentheses and may contain spaces and parentheses:
      // count the fields from the last ')'. The text after it starts at field 3; starttime is 22.
      return stat.slice(stat.lastIndexOf(')') + 2).split(' ')[22 - 3] ?? null;
    } catch {
      return null;
    }
  },
};

export interface DataDirLock {
  readonly path: string;
  update(info: Partial<LockInfo>): void;
  release(): void;
}

/**
 * Takes the folder's lock or throws DataDirLockedError naming the holder. `fileLock` null means
 * no flock on this platform: the pid-file fallback. Tests pass both.
 */
export function acquireDataDirLock(dataDir: string, now = new Date(), fileLock: FileLock | null = systemFileLock()): DataDirLock {
  mkdirSync(dataDir, { recursive: true });
  const path = lockPath(dataDir);
  const startTime = systemProcessProbe.startTime(process.pid);
  const info: LockInfo = {
    pid: process.pid,
    startedAt: now.toISOString(),
    ...(startTime ? { processStart: startTime } : {}),
    ...(fileLock ? { lock: 'flock' as const } : {}),
  };
  for (let attempt = 0; attempt < 3; attempt++) {
    const fd = fileLock ? openFlocked(dataDir, path, fileLock) : openExclusive(dataDir, path);
    if (fd !== null) return ownLock(path, fd, info);
  }
  throw new Error(`Could not take the lock ${path}; another process is starting on the same folder. Try again.`);
}

/** The locked file's descriptor; null to try again; throws when a live process holds it. */
function openFlocked(dataDir: string, path: string, fileLock: FileLock): number | null {
  // No O_EXCL: a file left by a killed holder is simply reused, the flock is the lock.
  const fd = openSync(path, constants.O_RDWR | constants.O_CREAT, 0o600);
  let locked = false;
  try {
    locked = fileLock.tryLockExclusive(fd);
  } finally {
    if (!locked) closeSync(fd);
  }
  if (!locked) {
    const holder = readLock(dataDir);
    // No record yet: the holder took the lock and has not written it.
    if (!holder) return null;
    throw new DataDirLockedError(dataDir, holder);
  }
  // A holder releasing the lock unlinks the file before closing it. If that happened between our
  // open and our flock, we hold a file that no longer is the lock file: start over.
  if (!isFileAt(fd, path)) {
    closeSync(fd);
    return null;
  }
  // A record without the flock mark was written by the pid-file era (an older version, which
  // does not see our flock): if it may still run, its pid decides, as it did then.
  const recorded = readLock(dataDir);
  if (recorded && recorded.lock !== 'flock' && judgeRecordedHolder(recorded, process.pid, systemProcessProbe) === 'held') {
    closeSync(fd);
    throw new DataDirLockedError(dataDir, recorded);
  }
  return fd;
}

/** Lock files this process holds, by path: the pid-file fallback's own pid is stale only outside these. */
const heldHere = new Set<string>();

/** Pid-file fallback: creating the file is taking the lock. */
function openExclusive(dataDir: string, path: string): number | null {
  try {
    const fd = openSync(path, 'wx', 0o600);
    heldHere.add(path);
    return fd;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
  }
  const holder = readLock(dataDir);
  if (holder && heldHere.has(path)) throw new DataDirLockedError(dataDir, holder);
  if (judgeRecordedHolder(holder, process.pid, systemProcessProbe) === 'held') throw new DataDirLockedError(dataDir, holder!);
  // Stale: the holder died without cleaning up (kill -9). Take over.
  rmSync(path, { force: true });
  return null;
}

function isFileAt(fd: number, path: string): boolean {
  try {
    const held = fstatSync(fd);
    const atPath = statSync(path);
    return held.dev === atPath.dev && held.ino === atPath.ino;
  } catch {
    return false;
  }
}

function ownLock(path: string, fd: number, initial: LockInfo): DataDirLock {
  let info = initial;
  const write = () => {
    const bytes = Buffer.from(JSON.stringify(info));
    writeSync(fd, bytes, 0, bytes.length, 0);
    ftruncateSync(fd, bytes.length);
  };
  // 0600 whatever mode a left-over file had: the record carries the admin token.
  fchmodSync(fd, 0o600);
  write();
  let released = false;
  const release = () => {
    if (released) return;
    released = true;
    process.off('exit', release);
    // Unlink while still holding the lock, then close: whoever opened the file meanwhile finds it
    // gone once they get the lock, and starts over. Only our own file: one someone put in its
    // place belongs to someone else.
    if (isFileAt(fd, path)) rmSync(path, { force: true });
    closeSync(fd);
    heldHere.delete(path);
  };
  process.once('exit', release);
  return {
    path,
    update(extra) {
      info = { ...info, ...extra };
      write();
    },
    release,
  };
}
