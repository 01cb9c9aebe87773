/**
 * PGlite does not lock its data folder, and two processes writing one folder lose data
 * (PGlite is a single-process Postgres: each process assumes it owns the files). The embedded mode therefore holds a lock file with the owner's
 * pid; a second process is refused with a clear message. A lock left by a dead process is taken over.
 *
 * The lock file also tells the CLI how to reach the running server (cli/server-bridge.ts), so that
 * provisioning while the server runs goes through the server instead of opening the folder twice.
 */
import { closeSync, existsSync, mkdirSync, openSync, readFileSync, rmSync, writeSync, chmodSync } from 'node:fs';
import { join } from 'node:path';

export interface LockInfo {
  pid: number;
  startedAt: string;
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

export function readLock(dataDir: string): LockInfo | null {
  try {
    return JSON.parse(readFileSync(lockPath(dataDir), 'utf8')) as LockInfo;
  } catch {
    return null;
  }
}

export function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

export interface DataDirLock {
  readonly path: string;
  update(info: Partial<LockInfo>): void;
  release(): void;
}

export function acquireDataDirLock(dataDir: string, now = new Date()): DataDirLock {
  mkdirSync(dataDir, { recursive: true });
  const path = lockPath(dataDir);
  let info: LockInfo = { pid: process.pid, startedAt: now.toISOString() };
  for (let attempt = 0; attempt < 2; attempt++) {
    try {
      // 'wx' fails if the file exists: creating it is the atomic "take the lock".
      const fd = openSync(path, 'wx', 0o600);
      writeSync(fd, JSON.stringify(info));
      closeSync(fd);
      let released = false;
      const release = () => {
        if (released) return;
        released = true;
        if (readLock(dataDir)?.pid === process.pid) rmSync(path, { force: true });
      };
      process.once('exit', release);
      return {
        path,
        update(extra) {
          info = { ...info, ...extra };
          // Rewritten in place (not via 'wx'): we already own it. 0600: it carries the admin token.
          const fd = openSync(path, 'w', 0o600);
          writeSync(fd, JSON.stringify(info));
          closeSync(fd);
          chmodSync(path, 0o600);
        },
        release,
      };
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
      const holder = readLock(dataDir);
      if (holder && holder.pid !== process.pid && isAlive(holder.pid)) throw new DataDirLockedError(dataDir, holder);
      if (holder && holder.pid === process.pid) throw new DataDirLockedError(dataDir, holder);
      // Stale: the holder died without cleaning up (kill -9). Take over.
      if (existsSync(path)) rmSync(path, { force: true });
    }
  }
  throw new Error(`Could not take the lock ${path}; another process is starting on the same folder. Try again.`);
}
