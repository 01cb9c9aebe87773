/**
 * `bun run cli …`: provisioning from the shell. Opens PostgreSQL (DATABASE_URL) or the embedded
 * folder directly; if a running server holds the embedded folder, forwards to it instead of
 * opening the folder a second time (PGlite is single-process: two processes writing one folder
 * corrupt it).
 *
 * It says on stderr which database it uses, and warns when the server on the configured port uses
 * another one (keys created there would be rejected by that server).
 */
import { ConfigError, loadConfig } from '../config';
import { systemClock } from '../clock';
import { openDatabase } from '../db/database';
import { DataDirLockedError, isAlive, readLock } from '../db/data-dir-lock';
import { DataDirPermissionError } from '../db/data-dir-permissions';
import { USAGE, runCommand, type CommandResult } from './commands';
import { forwardToServer } from './server-bridge';
import { describeDatabase, embeddedIdentity, postgresIdentity, type DatabaseIdentity } from '../db/database-identity';
import { databaseMismatchWarning, healthUrl, probeServer } from './server-database-check';

async function main(argv: string[]): Promise<number> {
  if (argv.length === 0 || argv[0] === 'help' || argv.includes('--help')) {
    process.stdout.write(`${USAGE}\n`);
    return argv.length === 0 ? 1 : 0;
  }
  const config = loadConfig();
  const description = describeDatabase(config);
  process.stderr.write(`using ${description}\n`);
  const server = probeServer(healthUrl(config.host, config.port));
  const warnIfElsewhere = async (ours: DatabaseIdentity) => {
    const warning = databaseMismatchWarning(ours, description, config.port, await server);
    if (warning) process.stderr.write(`${warning}\n`);
  };
  let result: CommandResult;
  const holder = config.databaseUrl ? null : readLock(config.dataDir);
  if (holder && holder.pid !== process.pid && isAlive(holder.pid)) {
    if (!holder.adminUrl || !holder.adminToken) {
      throw new DataDirLockedError(config.dataDir, holder);
    }
    await warnIfElsewhere(embeddedIdentity(config.dataDir));
    result = await forwardToServer(holder, argv);
  } else {
    if (!config.databaseUrl) await warnIfElsewhere(embeddedIdentity(config.dataDir));
    const database = await openDatabase(config);
    try {
      if (config.databaseUrl) await warnIfElsewhere(await postgresIdentity(database.db, config.databaseUrl));
      result = await runCommand(
        { db: database.db, clock: systemClock, guard: { allowedCidrs: config.webhookAllowedCidrs, caFile: config.webhookCaFile } },
        argv,
      );
    } finally {
      await database.close();
    }
  }
  process.stdout.write(result.stdout);
  process.stderr.write(result.stderr);
  return result.exitCode;
}

main(process.argv.slice(2)).then(
  (code) => process.exit(code),
  (error: unknown) => {
    const message = error instanceof ConfigError || error instanceof DataDirLockedError || error instanceof DataDirPermissionError ? error.message : String((error as Error)?.message ?? error);
    process.stderr.write(`error: ${message}\n`);
    process.exit(2);
  },
);
