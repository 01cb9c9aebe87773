/**
 * The embedded data folder holds webhook secrets, the generated server secret and the whole
 * database, so it belongs to the service's user alone (issue 8, finding 2): PGlite writes its
 * files 0666 and the folder used to be created 0755, which let every local account read secrets
 * or corrupt the database.
 *
 * The rule: the folder is created 0700; the process umask is 077, so every file created under it
 * (PGlite's, the lock, the secret) is owner-only, and what PGlite unpacks with modes of its own is
 * restricted after opening (restrictTree); an existing folder that other users can reach is
 * refused with the command that fixes it, rather than silently changed (an operator may have shared
 * it on purpose, and should decide).
 */
import { chmodSync, lstatSync, mkdirSync, readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';

export class DataDirPermissionError extends Error {}

const OWNER_ONLY_UMASK = 0o077;

export function secureDataDir(dataDir: string): void {
  process.umask(OWNER_ONLY_UMASK);
  mkdirSync(dataDir, { recursive: true, mode: 0o700 });
  const stat = statSync(dataDir);
  if (!stat.isDirectory()) throw new DataDirPermissionError(`DATA_DIR ${dataDir} is not a folder; point DATA_DIR at a folder`);
  const open = stat.mode & 0o077;
  if (open !== 0) {
    const mode = (stat.mode & 0o777).toString(8).padStart(3, '0');
    throw new DataDirPermissionError(
      `DATA_DIR ${dataDir} is accessible to other users (mode ${mode}); it holds secrets and the database. ` +
        `Restrict it to the service's user with: chmod -R go-rwx ${dataDir}`,
    );
  }
  const uid = process.getuid?.();
  if (uid !== undefined && stat.uid !== uid) {
    throw new DataDirPermissionError(
      `DATA_DIR ${dataDir} belongs to user id ${stat.uid}, not to this process (user id ${uid}); run the service as its owner or chown the folder`,
    );
  }
}

/**
 * PGlite unpacks its template cluster with the modes recorded in the archive (0666 files), which the
 * umask does not mask: take group and other access off everything under the folder. Run after
 * PGlite has opened it; what PGlite creates later is masked by the umask.
 */
export function restrictTree(dir: string): void {
  for (const entry of readdirSync(dir, { recursive: true, withFileTypes: true })) {
    const path = join(entry.parentPath, entry.name);
    const mode = lstatSync(path).mode;
    if (!entry.isSymbolicLink() && (mode & 0o077) !== 0) chmodSync(path, mode & 0o700);
  }
}
