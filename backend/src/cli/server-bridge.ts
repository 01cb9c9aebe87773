/**
 * PGlite allows one process per data folder. When the server holds the embedded database, the CLI
 * hands its argv to the server instead (POST /internal/cli on loopback), which runs the very same
 * runCommand. The server writes its address and a random admin token into the 0600 lock file;
 * only a user who can read the data folder can therefore drive it.
 */
import { Elysia, t } from 'elysia';
import { randomBytes } from 'node:crypto';
import { safeEqual } from '../crypto';
import { HTTP_ERRORS } from '../http/errors';
import type { DataDirLock, LockInfo } from '../db/data-dir-lock';
import { runCommand, type CommandContext, type CommandResult } from './commands';
import { CLI_ERRORS } from './errors';

export function newAdminToken(): string {
  return randomBytes(32).toString('hex');
}

const LOOPBACK = new Set(['127.0.0.1', '::1', '::ffff:127.0.0.1']);

export function cliBridgeRoutes(ctx: CommandContext, adminToken: string, requestIp: (request: Request) => string | null) {
  return new Elysia({ name: 'cli-bridge' }).post(
    '/internal/cli',
    async ({ request, body }) => {
      const ip = requestIp(request);
      if (!ip || !LOOPBACK.has(ip)) throw HTTP_ERRORS.ROUTE_NOT_FOUND({ method: 'POST', path: '/internal/cli' });
      const presented = /^Bearer (\S+)$/.exec(request.headers.get('authorization') ?? '')?.[1] ?? '';
      if (!safeEqual(presented, adminToken)) throw CLI_ERRORS.ADMIN_TOKEN_INVALID();
      return runCommand(ctx, body.argv);
    },
    { body: t.Object({ argv: t.Array(t.String({ maxLength: 4096 }), { maxItems: 64 }) }, { additionalProperties: false }), detail: { hide: true } },
  );
}

export function recordAdminAddress(lock: DataDirLock, port: number, adminToken: string): void {
  lock.update({ adminUrl: `http://127.0.0.1:${port}`, adminToken });
}

export async function forwardToServer(holder: LockInfo, argv: string[]): Promise<CommandResult> {
  const response = await fetch(`${holder.adminUrl}/internal/cli`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', authorization: `Bearer ${holder.adminToken}` },
    body: JSON.stringify({ argv }),
  });
  if (!response.ok) throw new Error(`the running server (pid ${holder.pid}) refused the command: HTTP ${response.status} ${await response.text()}`);
  return (await response.json()) as CommandResult;
}
