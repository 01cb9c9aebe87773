import { describe, expect, test } from 'bun:test';
import { decideBillingBlock, monthStart, type PlanFacts } from './billing-gate';

const plan = (overrides: Partial<PlanFacts> = {}): PlanFacts => ({
  planActive: true,
  planMonthlyAllowance: null,
  planSandboxAllowance: null,
  planPortalUrl: null,
  ...overrides,
});

describe('decideBillingBlock', () => {
  test('unlimited active plan never blocks', () => expect(decideBillingBlock(plan(), false, 1e6)).toBeNull());
  test('inactive plan requires a subscription', () => expect(decideBillingBlock(plan({ planActive: false }), false, 0)?.code).toBe('SUBSCRIPTION_REQUIRED'));
  test('allowance reached blocks live sessions', () => {
    expect(decideBillingBlock(plan({ planMonthlyAllowance: 3 }), false, 2)).toBeNull();
    expect(decideBillingBlock(plan({ planMonthlyAllowance: 3 }), false, 3)?.code).toBe('PLAN_LIMIT_REACHED');
  });
  test('sandbox has its own allowance and ignores the live plan state', () => {
    expect(decideBillingBlock(plan({ planActive: false, planSandboxAllowance: 5 }), true, 4)).toBeNull();
    expect(decideBillingBlock(plan({ planSandboxAllowance: 5 }), true, 5)?.code).toBe('SANDBOX_LIMIT_REACHED');
  });
  test('the portal URL is carried when configured', () => {
    expect(decideBillingBlock(plan({ planActive: false, planPortalUrl: 'https://billing.example.com' }), false, 0)).toMatchObject({
      portalUrl: 'https://billing.example.com',
    });
  });
  test('months start at 00:00 UTC on the 1st', () => expect(monthStart(new Date('2026-03-31T23:59:59Z')).toISOString()).toBe('2026-03-01T00:00:00.000Z'));
});
