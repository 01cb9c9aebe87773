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
import { resolveServerSecret } from '../server-secret';
import { systemClock } from '../clock';
import { openDatabase, type Database } from '../db/database';
import { describeDatabase, embeddedIdentity, postgresIdentity, type DatabaseIdentity } from '../db/database-identity';
import { DataDirLockedError } from '../db/data-dir-lock';
import { DataDirPermissionError } from '../db/data-dir-permissions';
import { USAGE, runCommand, type CommandResult } from './commands';
import { forwardToServer } from './server-bridge';
import { engineCommand } from './engine-commands';
import { databaseMismatchWarning, healthUrl, probeServer } from './server-database-check';

async function main(argv: string[]): Promise<number> {
  if (argv.length === 0 || argv[0] === 'help' || argv.includes('--help')) {
    process.stdout.write(`${USAGE}\n`);
    return argv.length === 0 ? 1 : 0;
  }
  // Engine commands need no database: they run the models on local files.
  if (argv[0] === 'engine') {
    const outcome = await engineCommand(argv, systemClock.now());
    process.stdout.write(outcome.stdout);
    process.stderr.write(outcome.stderr);
    return outcome.exitCode;
  }
  const config = loadConfig();
  const description = describeDatabase(config);
  process.stderr.write(`using ${description}\n`);
  const server = probeServer(healthUrl(config.host, config.port));
  const warnIfElsewhere = async (ours: DatabaseIdentity) => {
    const warning = databaseMismatchWarning(ours, description, config.port, await server);
    if (warning) process.stderr.write(`${warning}\n`);
  };
  // Before opening: a mistaken CLI run would otherwise create a fresh embedded folder first.
  if (!config.databaseUrl) await warnIfElsewhere(embeddedIdentity(config.dataDir));
  let database: Database;
  try {
    database = await openDatabase(config);
  } catch (error) {
    // The folder's lock, not a guess from the recorded pid, says whether a server holds it (a
    // pid can be reused). A holder without an admin address is not a server that listens (yet).
    if (!(error instanceof DataDirLockedError) || !error.holder.adminUrl || !error.holder.adminToken) throw error;
    return report(await forwardToServer(error.holder, argv));
  }
  try {
    if (config.databaseUrl) await warnIfElsewhere(await postgresIdentity(database.db, config.databaseUrl));
    return report(
      await runCommand(
        {
          db: database.db,
          clock: systemClock,
          guard: { allowedCidrs: config.webhookAllowedCidrs, caFile: config.webhookCaFile },
          publicBaseUrl: config.publicBaseUrl,
          serverSecret: () => resolveServerSecret(database.db, { configured: config.serverSecret, dataDir: config.databaseUrl ? null : config.dataDir }),
        },
        argv,
      ),
    );
  } finally {
    await database.close();
  }
}

function report(result: CommandResult): number {
  process.stdout.write(result.stdout);
  process.stderr.write(result.stderr);
  return result.exitCode;
}

main(process.argv.slice(2)).then(
  (code) => process.exit(code),
  (error: unknown) => {
    const message =
      error instanceof ConfigError || error instanceof DataDirLockedError || error instanceof DataDirPermissionError
        ? error.message
        : String((error as Error)?.message ?? error);
    process.stderr.write(`error: ${message}\n`);
    process.exit(2);
  },
);
