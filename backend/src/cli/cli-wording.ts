/**
 * How the CLI words an error. Services speak in values ("nothing to change: give a url, events or a
 * pairId"); where the right words depend on the CLI's syntax — its flags, its "unlimited" and
 * "default" — the CLI says it its own way. Every other error prints as the service worded it.
 */
import type { AppError, ErrorFactory } from '../errors/app-error';
import { TENANT_ERRORS } from '../modules/tenants/errors';
import { WEBHOOK_ERRORS } from '../modules/webhooks/errors';

type Wording = (error: AppError) => string;

/** Keeps the wording typed by the factory's parameters. */
function reword<P>(factory: ErrorFactory<P>, words: (params: P) => string): [string, Wording] {
  return [factory.code, (error) => words(error.details as P)];
}

const CLI_WORDING: ReadonlyMap<string, Wording> = new Map([
  reword(WEBHOOK_ERRORS.NOTHING_TO_CHANGE, () => 'nothing to change: give --url, --events or --pair'),
  reword(WEBHOOK_ERRORS.SIGNING_SECRET_REQUIRED, () => '--secret is required'),
  reword(TENANT_ERRORS.ALLOWANCE_INVALID, ({ name, value }) => `${name} allowance must be a whole number ≥ 0 (or "unlimited"), got ${value}`),
  reword(TENANT_ERRORS.RATE_LIMIT_INVALID, ({ name, value }) => `${name} limit must be a whole number from 1 to 1000000 (or "default"), got ${value}`),
]);

export function cliMessage(error: AppError): string {
  return CLI_WORDING.get(error.code)?.(error) ?? error.message;
}

/** For tests: the codes the CLI rewords. */
export const REWORDED_CODES: readonly string[] = [...CLI_WORDING.keys()];
