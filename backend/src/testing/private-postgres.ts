/**
 * A PostgreSQL cluster of the test's own, for tests that restart or stop the server: the shared
 * server behind TEST_DATABASE_URL serves other test runs and must never be restarted. The cluster
 * is initdb'd into a temp folder, listens on its own port (and its own socket folder), and is
 * driven with pg_ctl. PostgreSQL refuses to run as root, so as root every PostgreSQL command runs
 * as the `postgres` user, or as `nobody` when there is none.
 */
import { chownSync, existsSync, mkdtempSync, readFileSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import postgres from 'postgres';
import { freePort } from './free-port';

export interface PrivateCluster {
  /** postgres://…/postgres on 127.0.0.1 and the cluster's own port. */
  url: string;
  /** `pg_ctl restart`: 'immediate' is a crash (no shutdown checkpoint, recovery at start). */
  restart(mode: 'fast' | 'immediate'): Promise<void>;
  /** `pg_ctl stop` (fast) and `start`: an outage of the caller's chosen length (the fault suite). */
  stop(): Promise<void>;
  start(): Promise<void>;
  /** Ends every client connection but the caller's own; returns how many it ended. */
  terminateClients(): Promise<number>;
  /** Stops the server and deletes the folder. */
  destroy(): Promise<void>;
}

/**
 * The folder holding initdb and pg_ctl: PG_BIN_DIR when set, else the one on PATH, else the newest
 * Debian/Ubuntu layout (/usr/lib/postgresql/<version>/bin). Null when the machine has none.
 */
export function findPostgresBinDir(): string | null {
  const candidates: string[] = [];
  if (process.env.PG_BIN_DIR) candidates.push(process.env.PG_BIN_DIR);
  const onPath = Bun.which('initdb');
  if (onPath) candidates.push(dirname(onPath));
  const debian = '/usr/lib/postgresql';
  if (existsSync(debian)) {
    const versions = readdirSync(debian).filter((name) => /^\d+$/.test(name));
    versions.sort((a, b) => Number(b) - Number(a));
    candidates.push(...versions.map((version) => join(debian, version, 'bin')));
  }
  return candidates.find((dir) => existsSync(join(dir, 'initdb')) && existsSync(join(dir, 'pg_ctl'))) ?? null;
}

/** uid/gid for PostgreSQL's commands: our own unless we are root, which PostgreSQL refuses. */
function unprivilegedIdentity(): { uid: number; gid: number } | null {
  if (process.getuid?.() !== 0) return null;
  const passwd = readFileSync('/etc/passwd', 'utf8').split('\n');
  const entry = passwd.find((line) => line.startsWith('postgres:')) ?? passwd.find((line) => line.startsWith('nobody:'));
  if (!entry) throw new Error('running as root and /etc/passwd has neither a postgres nor a nobody user to run PostgreSQL as');
  const [, , uid, gid] = entry.split(':');
  return { uid: Number(uid), gid: Number(gid) };
}

export async function startPrivateCluster(binDir: string): Promise<PrivateCluster> {
  const identity = unprivilegedIdentity();
  const folder = mkdtempSync(join(tmpdir(), 'av-private-pg-'));
  if (identity) chownSync(folder, identity.uid, identity.gid);
  const dataDir = join(folder, 'data');
  const logFile = join(folder, 'server.log');

  const run = async (command: string, args: string[]) => {
    // Asynchronous on purpose: a test keeps its load running while pg_ctl restarts the server.
    const proc = Bun.spawn([join(binDir, command), ...args], { cwd: folder, stdout: 'pipe', stderr: 'pipe', ...(identity ?? {}) });
    const [stdout, stderr, code] = await Promise.all([new Response(proc.stdout).text(), new Response(proc.stderr).text(), proc.exited]);
    if (code !== 0) {
      const log = existsSync(logFile) ? readFileSync(logFile, 'utf8').slice(-2000) : '';
      throw new Error(`${command} ${args.join(' ')} exited with ${code}:\n${stdout}${stderr}${log}`);
    }
  };

  const port = freePort();
  // --no-sync and fsync=off: a throwaway cluster needs no durability, and fsync is slow on a busy machine.
  await run('initdb', ['-D', dataDir, '-U', 'postgres', '-A', 'trust', '--no-sync', '-E', 'UTF8', '--locale=C']);
  const serverOptions = `-p ${port} -k ${folder} -c listen_addresses=127.0.0.1 -c fsync=off -c max_connections=50`;
  // -w waits until the server accepts connections; -t bounds that wait generously for a busy machine.
  // pg_ctl restart reuses these options (it records them in postmaster.opts).
  await run('pg_ctl', ['-D', dataDir, '-l', logFile, '-o', serverOptions, '-w', '-t', '60', 'start']);

  const url = `postgres://postgres@127.0.0.1:${port}/postgres`;
  return {
    url,
    restart: (mode) => run('pg_ctl', ['-D', dataDir, '-l', logFile, '-m', mode, '-w', '-t', '60', 'restart']),
    stop: () => run('pg_ctl', ['-D', dataDir, '-m', 'fast', '-w', '-t', '60', 'stop']),
    start: () => run('pg_ctl', ['-D', dataDir, '-l', logFile, '-o', serverOptions, '-w', '-t', '60', 'start']),
    async terminateClients() {
      const admin = postgres(url, { max: 1, onnotice: () => {} });
      try {
        // Materialized first: in one WHERE the planner may call pg_terminate_backend before
        // the pid filter, and end the admin connection itself.
        const [row] = await admin<{ ended: number }[]>`
          with clients as materialized (
            select pid from pg_stat_activity where backend_type = 'client backend' and pid <> pg_backend_pid()
          )
          select (count(*) filter (where pg_terminate_backend(pid)))::int as ended from clients`;
        return row?.ended ?? 0;
      } finally {
        await admin.end({ timeout: 1 });
      }
    },
    async destroy() {
      await run('pg_ctl', ['-D', dataDir, '-m', 'immediate', '-w', '-t', '60', 'stop']).catch(() => {});
      rmSync(folder, { recursive: true, force: true });
    },
  };
}
