/** Refusals of the audit trail's routes (docs/dashboard-api.md "Audit trail"): each says which filter is wrong and why. */
import { defineErrors } from '../../errors/app-error';

export const AUDIT_ERRORS = defineErrors({
  /** One message per wrong query parameter (the service's error body carries a list then). */
  FILTER_INVALID: { status: 400, message: (p: { problems: string[] }) => p.problems },
  EXPORT_TOO_LARGE: {
    status: 400,
    message: (p: { count: number; max: number }) => `the filters match ${p.count} entries; an export holds at most ${p.max}: choose a shorter range`,
  },
});
