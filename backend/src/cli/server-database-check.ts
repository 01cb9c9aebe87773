/**
 * The CLI's guard against provisioning the wrong database: it asks the server on the configured
 * port which database it uses (/healthz reports a fingerprint, see db/database-identity.ts) and
 * warns when that is not the CLI's own. A warning, not a refusal: running the CLI against another
 * database on purpose (a second deployment, a PostgreSQL being prepared) is legitimate.
 */
import type { DatabaseIdentity } from '../db/database-identity';

/** Long enough for a loaded local server, short enough not to slow a CLI run when nothing listens. */
const PROBE_TIMEOUT_MS = 700;

export interface ServerHealth {
  database?: Partial<DatabaseIdentity>;
}

/** The address to probe: the configured interface, or loopback when the server binds every interface. */
export function healthUrl(host: string, port: number): string {
  const loopback = host === '0.0.0.0' || host === '::' || host === '' ? '127.0.0.1' : host;
  return `http://${loopback.includes(':') ? `[${loopback}]` : loopback}:${port}/healthz`;
}

/** null when no server answers, or its answer does not look like ours (another program on the port). */
export async function probeServer(url: string, timeoutMs = PROBE_TIMEOUT_MS): Promise<ServerHealth | null> {
  try {
    const response = await fetch(url, { signal: AbortSignal.timeout(timeoutMs) });
    if (!response.ok) return null;
    const body = (await response.json()) as unknown;
    return body && typeof body === 'object' ? (body as ServerHealth) : null;
  } catch {
    return null;
  }
}

/** Decide: the warning to print, or null when the server shares our database or says nothing about its own. */
export function databaseMismatchWarning(ours: DatabaseIdentity, ourDescription: string, port: number, server: ServerHealth | null): string | null {
  const theirs = server?.database;
  if (!theirs || typeof theirs.id !== 'string' || typeof theirs.kind !== 'string') return null;
  if (theirs.kind === ours.kind && theirs.id === ours.id) return null;
  const what = theirs.kind === 'pglite' ? 'another embedded database folder' : 'a PostgreSQL database';
  return (
    `warning: the server on port ${port} uses ${what} (id ${theirs.id}), not this ${ourDescription} (id ${ours.id}). ` +
    'What this command creates or changes is not seen by that server; run the CLI with the same DATA_DIR or DATABASE_URL as the server.'
  );
}
