/**
 * Account-side values shared by the backend and the dashboard: dashboard roles, the
 * permission a 403 names, id prefixes.
 */

/** A suspended tenant's keys answer 403. */
export const TENANT_STATUSES = ['active', 'suspended'] as const;
export type TenantStatus = (typeof TENANT_STATUSES)[number];

/** Keys come in pairs: `pk_…` (publishable, browser-safe) and `sk_…` (secret, server-side). */
export const KEY_TYPES = ['publishable', 'secret'] as const;
export type KeyType = (typeof KEY_TYPES)[number];

/** Dashboard roles: owners and admins manage users and keys and receive pause emails. */
export const USER_ROLES = ['owner', 'admin', 'developer'] as const;
export type UserRole = (typeof USER_ROLES)[number];
