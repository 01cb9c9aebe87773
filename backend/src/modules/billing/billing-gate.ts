/**
 * Billing gate (spec "Session creation result" billingBlock). Decide, then apply:
 * this pure function says whether a new session is gated; the session is still created (201) and
 * carries the block, and the verify UI shows the message instead of starting a check.
 */
import type { BillingBlock } from '@ageverify/protocol';

export interface PlanFacts {
  planActive: boolean;
  planMonthlyAllowance: number | null;
  planSandboxAllowance: number | null;
  planPortalUrl: string | null;
}

export const BILLING_MESSAGES = {
  SUBSCRIPTION_REQUIRED: 'Age verification is not available right now because this merchant has no active subscription. Please contact the merchant.',
  PLAN_LIMIT_REACHED:
    "Age verification is not available right now because this merchant's monthly verification limit has been reached. Please try again later or contact the merchant.",
  SANDBOX_LIMIT_REACHED: 'This sandbox account has used all of its test verifications for this month.',
} as const;

export function decideBillingBlock(plan: PlanFacts, sandbox: boolean, usedThisMonth: number): BillingBlock | null {
  const withPortal = (block: BillingBlock): BillingBlock => (plan.planPortalUrl ? { ...block, portalUrl: plan.planPortalUrl } : block);
  if (sandbox) {
    if (plan.planSandboxAllowance !== null && usedThisMonth >= plan.planSandboxAllowance) {
      return withPortal({ code: 'SANDBOX_LIMIT_REACHED', message: BILLING_MESSAGES.SANDBOX_LIMIT_REACHED });
    }
    return null;
  }
  if (!plan.planActive) return withPortal({ code: 'SUBSCRIPTION_REQUIRED', message: BILLING_MESSAGES.SUBSCRIPTION_REQUIRED });
  if (plan.planMonthlyAllowance !== null && usedThisMonth >= plan.planMonthlyAllowance) {
    return withPortal({ code: 'PLAN_LIMIT_REACHED', message: BILLING_MESSAGES.PLAN_LIMIT_REACHED });
  }
  return null;
}

/** Start of the calendar month (UTC) that `now` falls in: allowances reset monthly. */
export function monthStart(now: Date): Date {
  return new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), 1));
}
