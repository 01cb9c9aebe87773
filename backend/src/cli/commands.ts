/**
 * The provisioning commands (the operator's way to set up tenants without the dashboard).
 * `runCommand` takes argv and a database and returns what to print: the same function runs in the
 * CLI process and, when the embedded database is held by a running server, inside that server
 * (cli/server-bridge.ts), so both paths behave identically. The commands are declared once, in
 * commands/<group>.ts; the usage text and the argument checks come from those declarations
 * (command-table.ts).
 */
import { EVENT_KINDS } from '@ageverify/protocol';
import { AppError } from '../errors/app-error';
import { cliMessage } from './cli-wording';
import { commandIndex, parseArgs as parseWith, readOptions, usageText, type CommandContext } from './command-table';
import { KEY_COMMANDS } from './commands/keys';
import { RECEIPT_COMMANDS } from './commands/receipts';
import { TENANT_COMMANDS } from './commands/tenants';
import { USER_COMMANDS } from './commands/users';
import { WEBHOOK_COMMANDS } from './commands/webhooks';
import { CLI_ERRORS } from './errors';

export type { CommandContext } from './command-table';

export interface CommandResult {
  exitCode: number;
  stdout: string;
  stderr: string;
}

/** In the order `help` lists them. */
const COMMANDS = [...TENANT_COMMANDS.slice(0, 1), ...KEY_COMMANDS, ...WEBHOOK_COMMANDS, ...RECEIPT_COMMANDS, ...TENANT_COMMANDS.slice(1), ...USER_COMMANDS];
const INDEX = commandIndex(COMMANDS);
/** Options that take no value: the flags of every command, and --help. */
const FLAGS = new Set([
  'help',
  ...COMMANDS.flatMap((command) =>
    Object.entries(command.options)
      .filter(([, spec]) => spec.type === 'flag')
      .map(([name]) => name),
  ),
]);

export const USAGE = usageText(
  COMMANDS,
  // engine check runs the models on files and opens no database, so cli/main.ts answers it first.
  `engine check --mode L1|L2 --challenge-age N [--selfie FILE] [--document FILE]   (runs the verification engine on files; no database)\n\n` +
    `Event kinds: ${EVENT_KINDS.join(', ')}\nDatabase: DATABASE_URL (PostgreSQL) or the embedded DATA_DIR (default ./.data).`,
);

export function parseArgs(argv: string[]): { words: string[]; options: Map<string, string[]> } {
  return parseWith(argv, FLAGS);
}

export async function runCommand(ctx: CommandContext, argv: string[]): Promise<CommandResult> {
  try {
    const output = await dispatch(ctx, argv);
    return { exitCode: 0, stdout: `${JSON.stringify(output, null, 2)}\n`, stderr: '' };
  } catch (error) {
    // A refusal (bad input, unknown tenant, forbidden destination) exits 1; anything else is a failure.
    if (error instanceof AppError && error.status < 500) return { exitCode: 1, stdout: '', stderr: `error: ${cliMessage(error)}\n` };
    return { exitCode: 2, stdout: '', stderr: `error: ${(error as Error).message}\n` };
  }
}

async function dispatch(ctx: CommandContext, argv: string[]): Promise<unknown> {
  const { words, options } = parseArgs(argv);
  const name = words.join(' ');
  const found = INDEX.get(name);
  if (!found) throw name ? CLI_ERRORS.UNKNOWN_COMMAND({ command: name, usage: USAGE }) : CLI_ERRORS.COMMAND_REQUIRED({ usage: USAGE });
  return found.command.run(ctx, readOptions(found.command, words, options), found.verb);
}
