/**
 * The audit trail of the dashboard API (issue 23, Deliver 4; docs/dashboard-api.md "Audit trail",
 * docs/decisions/0056): every change to a tenant's keys, domains, webhook endpoints, members,
 * roles, policy and plan, with who made it, when, from which address and what changed. Shared by
 * the backend (which records and answers it) and the dashboard (which shows and filters it).
 *
 * An action is `<group>.<what happened>`; the group is what the `action` filter accepts besides
 * one action.
 */

export const AUDIT_ACTIONS = [
  'tenant.created',
  'tenant.suspended',
  'tenant.activated',
  'tenant.rate_limits_changed',
  'key.created',
  'key.renamed',
  'key.revoked',
  'key.publishable_revoked',
  'domain.added',
  'domain.removed',
  'endpoint.created',
  'endpoint.updated',
  'endpoint.deleted',
  'endpoint.enabled',
  'endpoint.disabled',
  'endpoint.secret_rotated',
  'endpoint.paused',
  'endpoint.resumed',
  'endpoint.legacy_set',
  'member.invited',
  'member.invitation_cancelled',
  'member.joined',
  'member.role_changed',
  'member.removed',
  'member.two_factor_reset',
  'policy.changed',
  'policy.two_factor_changed',
  'plan.changed',
] as const;
export type AuditAction = (typeof AUDIT_ACTIONS)[number];

export const AUDIT_ACTION_GROUPS = ['tenant', 'key', 'domain', 'endpoint', 'member', 'policy', 'plan'] as const;
export type AuditActionGroup = (typeof AUDIT_ACTION_GROUPS)[number];

export function isAuditAction(value: string): value is AuditAction {
  return (AUDIT_ACTIONS as readonly string[]).includes(value);
}

export function isAuditActionGroup(value: string): value is AuditActionGroup {
  return (AUDIT_ACTION_GROUPS as readonly string[]).includes(value);
}

/** The actions of one group, in AUDIT_ACTIONS order. */
export function auditActionsOf(group: AuditActionGroup): AuditAction[] {
  return AUDIT_ACTIONS.filter((action) => action.startsWith(`${group}.`));
}

/**
 * Who made a change: a dashboard user (their id and their email at the time), the operator's CLI
 * (`cli`), or the service itself (`system`, e.g. a webhook endpoint paused after an hour of rejections).
 */
export const AUDIT_ACTOR_TYPES = ['user', 'cli', 'system'] as const;
export type AuditActorType = (typeof AUDIT_ACTOR_TYPES)[number];

export interface AuditActorView {
  type: AuditActorType;
  /** Null unless `type` is `user`. */
  userId: string | null;
  email: string | null;
}

/** A value before or after a change. Never a secret: secrets are recorded only as the fact that they changed. */
export type AuditValue = string | number | boolean | null | string[];

/** One field's change; `from` is null for what was created, `to` null for what was removed. */
export interface AuditChange {
  from: AuditValue;
  to: AuditValue;
}

export interface AuditEntryView {
  entryId: string;
  occurredAt: string;
  actor: AuditActorView;
  /** The client's address for dashboard changes; null for the CLI and the system. */
  ip: string | null;
  action: AuditAction;
  /** What was changed: a pairId, a domain, an endpointId, a userId, an invitationId or the tenantId. */
  targetId: string | null;
  /** A human name for the target when its id says little: a key pair's label or publishable key, an endpoint's URL, a member's email. */
  targetLabel: string | null;
  /** Field → `{ from, to }`. */
  changes: Record<string, AuditChange>;
}

/** Entries per page: `limit` defaults to this… */
export const AUDIT_PAGE_DEFAULT = 50;
/** …and may be at most this. */
export const AUDIT_PAGE_MAX = 200;

/**
 * `GET /tenants/:tenantId/audit` (owner and admin): newest first. Every filter is optional.
 * `from` and `to` are whole UTC days (YYYY-MM-DD), both inclusive.
 */
export interface AuditQuery {
  /** One action (`key.revoked`) or a group (`key`). */
  action?: AuditAction | AuditActionGroup;
  /** `cli`, `system`, a user's id or a user's email. */
  actor?: string;
  from?: string;
  to?: string;
  cursor?: string;
  /** 1 to AUDIT_PAGE_MAX. */
  limit?: number;
}
export interface AuditResponse {
  entries: AuditEntryView[];
  nextCursor: string | null;
}

/**
 * `GET /tenants/:tenantId/audit/export?format=csv|jsonl` with the filters of AuditQuery (no cursor,
 * no limit): every matching entry, newest first, as an attachment.
 */
export const AUDIT_EXPORT_FORMATS = ['csv', 'jsonl'] as const;
export type AuditExportFormat = (typeof AUDIT_EXPORT_FORMATS)[number];
/** The columns of the CSV export, in order; `changes` holds the entry's changes as JSON. */
export const AUDIT_CSV_COLUMNS = [
  'occurredAt',
  'action',
  'actorType',
  'actorEmail',
  'actorUserId',
  'ip',
  'targetId',
  'targetLabel',
  'changes',
  'entryId',
] as const;
