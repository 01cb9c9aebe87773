/**
 * The audit trail never holds a secret (issue 23: "what changed (never a secret)"): not a secret API
 * key, a webhook signing secret, a password or its hash, a session or handoff token. Entries record
 * that a secret changed by their action alone (`endpoint.secret_rotated`, `key.created`), never
 * its value.
 *
 * Callers choose the fields they record; this is the second line, run on every entry before it is
 * written (record.ts): a field whose name says secret loses its value, and a text shaped like one
 * of our credentials (a secret key pasted into a key's label, say) loses that part. It redacts
 * rather than refuses, so a merchant's odd label never fails the change it describes.
 */
import type { AuditChange, AuditValue } from '@ageverify/protocol';

/** Field names that would hold a secret, whatever their value looks like. */
const SECRET_FIELD = /secret|password|passwd|token|hash|credential|cookie|private|otp|recovery/i;

/** Texts shaped like a credential this service issues or stores, each with what it is. */
const SECRET_SHAPES: ReadonlyArray<readonly [name: string, pattern: RegExp]> = [
  ['secret API key', /sk_(?:live|test)_[0-9A-Za-z]+/g],
  ['webhook signing secret', /whsec_[A-Za-z0-9+/=]+/g],
  ['password hash', /\$(?:argon2(?:id|i|d)|2[aby]|scrypt)\$\S+/g],
  ['session or handoff token', /\b(?:st|ht)_[0-9A-Za-z]{24}\.[\w-]{43}/g],
];

export const REDACTED = '[redacted]';

export function isSecretFieldName(field: string): boolean {
  return SECRET_FIELD.test(field);
}

/** The text with every part shaped like a credential replaced by `[redacted: <what it was>]`. */
export function redactText(text: string): string {
  let out = text;
  for (const [name, pattern] of SECRET_SHAPES) out = out.replace(pattern, `[redacted: ${name}]`);
  return out;
}

function redactValue(value: AuditValue): AuditValue {
  if (typeof value === 'string') return redactText(value);
  if (Array.isArray(value)) return value.map(redactText);
  return value;
}

export interface RedactableEntry {
  targetId: string | null;
  targetLabel: string | null;
  changes: Record<string, AuditChange>;
}

/** The entry as it may be stored: no field named like a secret keeps its value, no text keeps a credential. */
export function withoutSecrets<T extends RedactableEntry>(entry: T): T {
  const changes: Record<string, AuditChange> = {};
  for (const [field, change] of Object.entries(entry.changes)) {
    changes[field] = isSecretFieldName(field)
      ? { from: change.from === null ? null : REDACTED, to: change.to === null ? null : REDACTED }
      : { from: redactValue(change.from), to: redactValue(change.to) };
  }
  return {
    ...entry,
    targetId: entry.targetId === null ? null : redactText(entry.targetId),
    targetLabel: entry.targetLabel === null ? null : redactText(entry.targetLabel),
    changes,
  };
}
