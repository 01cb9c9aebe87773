/** The CLI names its flags; the services it calls do not. */
import { describe, expect, test } from 'bun:test';
import type { AppError } from '../errors/app-error';
import { TENANT_ERRORS } from '../modules/tenants/errors';
import { WEBHOOK_ERRORS } from '../modules/webhooks/errors';
import { cliMessage } from './cli-wording';

describe('cliMessage', () => {
  const cases: [string, AppError, string][] = [
    ['an edit without changes', WEBHOOK_ERRORS.NOTHING_TO_CHANGE(), 'nothing to change: give --url, --events or --pair'],
    ['a legacy webhook without secret', WEBHOOK_ERRORS.SIGNING_SECRET_REQUIRED(), '--secret is required'],
    [
      'a negative allowance',
      TENANT_ERRORS.ALLOWANCE_INVALID({ name: 'monthly', value: -1 }),
      'monthly allowance must be a whole number ≥ 0 (or "unlimited"), got -1',
    ],
    [
      'a zero rate limit',
      TENANT_ERRORS.RATE_LIMIT_INVALID({ name: 'validate', value: 0 }),
      'validate limit must be a whole number from 1 to 1000000 (or "default"), got 0',
    ],
  ];
  for (const [name, error, words] of cases) {
    test(`${name}: the CLI's words, the service's own without CLI syntax`, () => {
      expect(cliMessage(error)).toBe(words);
      expect(error.message).not.toMatch(/--|"unlimited"|"default"/);
    });
  }

  test('every other error prints as the service worded it', () => {
    expect(cliMessage(TENANT_ERRORS.TENANT_NOT_FOUND({ tenantId: 'ten_x' }))).toBe('no tenant with id "ten_x"');
  });
});
