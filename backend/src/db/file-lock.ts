/**
 * flock(2) through bun:ffi. Neither Bun nor node:fs exposes an OS file lock (flock or fcntl), and
 * it is the only kind of lock that cannot outlive its holder: the kernel ties it to the open file
 * and drops it when the process exits, however it exits (kill -9 included). A pid written in a
 * file can instead be mistaken for a later process that got the same pid; in a container the
 * server is PID 1 on every start.
 *
 * flock locks belong to the open file description, not to the process: closing some other
 * descriptor of the same file does not release them (fcntl locks would be released), and Bun
 * opens files with O_CLOEXEC, so child processes do not inherit them.
 */
import { FFIType, dlopen, read } from 'bun:ffi';

export interface FileLock {
  /** flock(fd, LOCK_EX | LOCK_NB): true when taken, false when another open file holds it. */
  tryLockExclusive(fd: number): boolean;
}

// <sys/file.h>, the same on Linux and macOS.
const LOCK_EX = 2;
const LOCK_NB = 4;

interface Libc {
  /** Tried in order: the first that dlopen accepts is used. */
  paths: string[];
  /** The function returning the calling thread's errno address. */
  errnoFunction: '__errno_location' | '__error';
  /** errno when LOCK_NB finds the lock taken (EWOULDBLOCK). */
  wouldBlock: number;
}

const muslArch = process.arch === 'arm64' ? 'aarch64' : 'x86_64';
const LIBC: Partial<Record<NodeJS.Platform, Libc>> = {
  // glibc, then musl (Alpine). EWOULDBLOCK is EAGAIN, 11, on every Linux architecture Bun runs on.
  linux: { paths: ['libc.so.6', `libc.musl-${muslArch}.so.1`], errnoFunction: '__errno_location', wouldBlock: 11 },
  darwin: { paths: ['/usr/lib/libSystem.B.dylib'], errnoFunction: '__error', wouldBlock: 35 },
};

let loaded: FileLock | null | undefined;

/**
 * The system's flock, or null where it cannot be called (another platform such as Windows, or no
 * libc that dlopen finds); the caller then needs another way to lock. Loaded once.
 */
export function systemFileLock(): FileLock | null {
  if (loaded === undefined) loaded = loadFlock(LIBC[process.platform]);
  return loaded;
}

function loadFlock(libc: Libc | undefined): FileLock | null {
  if (!libc) return null;
  for (const path of libc.paths) {
    // biome-ignore lint/suspicious/noImplicitAnyLet: dlopen's generic result type, assigned in the try below.
    let library;
    try {
      library = dlopen(path, {
        flock: { args: [FFIType.i32, FFIType.i32], returns: FFIType.i32 },
        [libc.errnoFunction]: { args: [], returns: FFIType.ptr },
      });
    } catch {
      continue;
    }
    const { flock } = library.symbols;
    const errnoAddress = library.symbols[libc.errnoFunction]!;
    return {
      tryLockExclusive(fd) {
        if (flock(fd, LOCK_EX | LOCK_NB) === 0) return true;
        // Read at once: errno is per thread and nothing runs on this one in between.
        const errno = read.i32(errnoAddress()!, 0);
        if (errno === libc.wouldBlock) return false;
        // ENOLCK (some network filesystems), EBADF…: refuse to run unlocked rather than guess.
        throw new Error(`flock on descriptor ${fd} failed with errno ${errno}; the data folder's filesystem may not support file locks`);
      },
    };
  }
  return null;
}
