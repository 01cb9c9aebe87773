/** CLI commands of dashboard users: the operator's recovery of a lost second factor (two-factor-reset.ts), audited with actor "cli". */
import { cliAudit } from '../../modules/audit';
import { resetTwoFactor } from '../../modules/dashboard/two-factor-reset';
import { defineCommand } from '../command-table';

export const USER_COMMANDS = [
  defineCommand({
    command: 'user two-factor-off',
    summary: "Turns a user's two-factor sign-in off (lost authenticator and recovery codes) and ends their sessions; check who asks first.",
    options: { email: { type: 'string', required: true, value: 'EMAIL' } },
    run: ({ db, clock }, values) => resetTwoFactor(db, values.email, cliAudit(clock)),
  }),
];
