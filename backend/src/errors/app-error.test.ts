/** AppError, defineErrors, and the rules every module's registry keeps. */
import { describe, expect, test } from 'bun:test';
import { CHALLENGE_ERROR_CODES, ERROR_CODES, TWO_FACTOR_ERROR_CODES } from '@ageverify/protocol';
import { AUTH_ERRORS } from '../auth/errors';
import { CLI_ERRORS } from '../cli/errors';
import { DASHBOARD_ERRORS } from '../modules/dashboard/errors';
import { ENGINE_ERRORS } from '../modules/engine/errors';
import { IDEMPOTENCY_ERRORS } from '../modules/idempotency/errors';
import { HTTP_ERRORS } from '../http/errors';
import { RATE_LIMIT_ERRORS } from '../modules/rate-limits/errors';
import { RECEIPT_ERRORS } from '../modules/receipts/errors';
import { SESSION_ERRORS } from '../modules/sessions/errors';
import { TENANT_ERRORS } from '../modules/tenants/errors';
import { VERIFY_ERRORS } from '../modules/verify/errors';
import { WEBHOOK_ERRORS } from '../modules/webhooks/errors';
import { AppError, defineErrors, type ErrorFactory } from './app-error';

const REGISTRIES: Record<string, Record<string, Pick<ErrorFactory<unknown>, 'code' | 'status' | 'exposeCode'>>> = {
  AUTH_ERRORS,
  CLI_ERRORS,
  DASHBOARD_ERRORS,
  ENGINE_ERRORS,
  HTTP_ERRORS,
  IDEMPOTENCY_ERRORS,
  RATE_LIMIT_ERRORS,
  RECEIPT_ERRORS,
  SESSION_ERRORS,
  TENANT_ERRORS,
  VERIFY_ERRORS,
  WEBHOOK_ERRORS,
};
const ALL = Object.entries(REGISTRIES).flatMap(([registry, factories]) => Object.values(factories).map((factory) => ({ registry, factory })));

describe('defineErrors', () => {
  const EXAMPLE = defineErrors({
    PLAIN: { status: 409, message: 'already there' },
    WITH_PARAMS: { status: 404, message: (p: { id: string }) => `no thing "${p.id}"` },
    LISTED: { status: 400, message: ['a is required', 'b is required'] },
  });

  test('the key is the code; the error carries status, message and the parameters as details', () => {
    const error = EXAMPLE.WITH_PARAMS({ id: 'x1' });
    expect(error).toBeInstanceOf(AppError);
    expect(error).toMatchObject({ code: 'WITH_PARAMS', status: 404, message: 'no thing "x1"', messages: 'no thing "x1"', details: { id: 'x1' } });
    expect(EXAMPLE.PLAIN()).toMatchObject({ code: 'PLAIN', status: 409, message: 'already there', details: {} });
    expect(EXAMPLE.WITH_PARAMS.code).toBe('WITH_PARAMS');
    expect(EXAMPLE.WITH_PARAMS.status).toBe(404);
  });

  test('a list of messages stays a list (the spec body shows it as an array)', () => {
    expect(EXAMPLE.LISTED().messages).toEqual(['a is required', 'b is required']);
    expect(EXAMPLE.LISTED().message).toBe('a is required; b is required');
  });

  test('headers given where the error is raised travel with it; `is` recognises the code', () => {
    const error = EXAMPLE.PLAIN({ headers: { allow: 'POST' } });
    expect(error.headers).toEqual({ allow: 'POST' });
    expect(EXAMPLE.PLAIN.is(error)).toBe(true);
    expect(EXAMPLE.WITH_PARAMS.is(error)).toBe(false);
    expect(EXAMPLE.PLAIN.is(new Error('already there'))).toBe(false);
  });

  test('an AppError built by hand without a status is a 500', () => {
    expect(new AppError('X', 'y').status).toBe(500);
  });
});

describe('the registries', () => {
  test('every code is unique across modules, so a code alone names one refusal', () => {
    const seen = new Map<string, string>();
    for (const { registry, factory } of ALL) {
      expect(seen.get(factory.code), `${factory.code} in ${registry} and ${seen.get(factory.code)}`).toBeUndefined();
      seen.set(factory.code, registry);
    }
  });

  test('codes are SCREAMING_SNAKE_CASE and statuses are 4xx, or a deliberate 503', () => {
    for (const { factory } of ALL) {
      expect(factory.code).toMatch(/^[A-Z][A-Z0-9]*(_[A-Z0-9]+)*$/);
      expect(factory.status >= 400 && factory.status < 500 ? 'refusal' : factory.status === 503 ? 'unavailable' : factory.code).toMatch(
        /^(refusal|unavailable|INTERNAL_ERROR)$/,
      );
    }
  });

  test('only the code the spec names, and the liveness challenge codes the verify UI acts on (decision 0062), go into the error body of the merchant and verify APIs', () => {
    const exposed = ALL.filter(({ registry, factory }) => factory.exposeCode && registry !== 'DASHBOARD_ERRORS').map(({ factory }) => factory.code);
    expect(SESSION_ERRORS.SESSION_LAUNCH_CONFIGURATION_UNAVAILABLE().exposeCode).toBe(true);
    expect(exposed.toSorted()).toEqual([ERROR_CODES.launchConfigurationUnavailable, ...CHALLENGE_ERROR_CODES].toSorted());
  });

  test('the dashboard API exposes exactly the two-factor codes its own contract names (docs/dashboard-api.md), which the dashboard acts on', () => {
    const exposed = Object.values(DASHBOARD_ERRORS)
      .filter((factory) => factory.exposeCode)
      .map((factory) => factory.code);
    expect(exposed.toSorted()).toEqual(Object.values(TWO_FACTOR_ERROR_CODES).toSorted());
  });
});
