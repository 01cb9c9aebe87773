/**
 * Error codes of the provisioning CLI: argument errors, worded with the CLI's flags, and the
 * refusals of the server bridge (cli/server-bridge.ts). Module errors keep their own codes; the CLI
 * rewords a few of them in cli/cli-wording.ts.
 */
import { defineErrors } from '../errors/app-error';

export const CLI_ERRORS = defineErrors({
  /** No command at all: the usage is the whole message. */
  COMMAND_REQUIRED: { status: 400, message: (p: { usage: string }) => p.usage },
  UNKNOWN_COMMAND: { status: 400, message: (p: { command: string; usage: string }) => `unknown command "${p.command}"\n\n${p.usage}` },
  UNKNOWN_OPTION: { status: 400, message: (p: { option: string; command: string }) => `unknown option --${p.option} for "${p.command}"` },
  OPTION_NEEDS_VALUE: { status: 400, message: (p: { option: string }) => `--${p.option} needs a value` },
  OPTION_REQUIRED: { status: 400, message: (p: { option: string }) => `--${p.option} is required (see \`bun run cli help\`)` },
  /** One option needs another (--owner needs --password). */
  OPTION_NEEDS_OPTION: { status: 400, message: (p: { option: string; needs: string }) => `--${p.option} needs --${p.needs}` },
  /** Neither of two alternatives was given; `hint` says what each one does. */
  ONE_OF_OPTIONS_REQUIRED: { status: 400, message: (p: { hint: string }) => `give ${p.hint}` },
  INVALID_CHOICE: {
    status: 400,
    message: (p: { option: string; choices: readonly string[]; value: string }) => `--${p.option} must be ${p.choices.join(' or ')}, got "${p.value}"`,
  },
  NOT_A_WHOLE_NUMBER: {
    status: 400,
    message: (p: { option: string; value: string; or?: string }) => `--${p.option} must be a whole number${p.or ? ` ≥ 0 or "${p.or}"` : ''}, got "${p.value}"`,
  },
  ADMIN_TOKEN_INVALID: { status: 401, message: 'Invalid admin token' },
});
