/**
 * What an entry says changed: `{ field: { from, to } }`, the one shape of every entry, so the
 * dashboard and the exports show any action the same way. Only fields whose value differs are kept.
 */
import type { AuditChange, AuditValue } from '@ageverify/protocol';

export type AuditChanges = Record<string, AuditChange>;
/** `undefined`: the field is not part of the change. */
type Values = Record<string, AuditValue | undefined>;

function same(a: AuditValue, b: AuditValue): boolean {
  if (Array.isArray(a) && Array.isArray(b)) return a.length === b.length && a.every((item, i) => item === b[i]);
  return a === b;
}

/** The fields given in `after`, each from its value in `before` (null when absent), where they differ. */
export function changedFields(before: Values, after: Values): AuditChanges {
  const changes: AuditChanges = {};
  for (const [field, to] of Object.entries(after)) {
    if (to === undefined) continue;
    const from = before[field] ?? null;
    if (!same(from, to)) changes[field] = { from, to };
  }
  return changes;
}

/** Something new: every given field from null. */
export function createdFields(values: Values): AuditChanges {
  return changedFields({}, values);
}

/** Something gone: every given field to null. */
export function removedFields(values: Values): AuditChanges {
  const changes: AuditChanges = {};
  for (const [field, from] of Object.entries(values)) if (from !== undefined && from !== null) changes[field] = { from, to: null };
  return changes;
}
