/**
 * Idempotency-Key rules (issue 15, item 4), pure: which keys are accepted, what identifies a
 * request, and what to do with a request given what the key already holds. Modelled on Stripe's
 * idempotent requests: the same key and the same request replay the first result; the same key
 * with another request is refused; results are kept 24 h.
 */
import { sha256Hex } from '../../crypto';

export const IDEMPOTENCY_HEADER = 'idempotency-key';
export const REPLAYED_HEADER = 'idempotent-replayed';
export const IDEMPOTENCY_KEY_MAX_LENGTH = 255;
export const IDEMPOTENCY_TTL_MS = 24 * 60 * 60 * 1000;

export const IDEMPOTENCY_MESSAGES = {
  invalidKey: `Idempotency-Key must be 1 to ${IDEMPOTENCY_KEY_MAX_LENGTH} printable ASCII characters without spaces (a UUID is a good choice)`,
  otherRequest: 'This Idempotency-Key was already used with a different request; use a new key for a new request',
  inProgress: 'A request with this Idempotency-Key is in progress; retry after it completes',
} as const;

/** Printable ASCII without space: what survives every proxy unchanged and reads well in logs. */
const KEY = new RegExp(`^[\\x21-\\x7e]{1,${IDEMPOTENCY_KEY_MAX_LENGTH}}$`);

export type KeyCheck = { ok: true; key: string | null } | { ok: false; message: string };

/** The header's value checked: null when absent (the request is not idempotent). */
export function checkIdempotencyKey(raw: string | null): KeyCheck {
  if (raw === null) return { ok: true, key: null };
  return KEY.test(raw) ? { ok: true, key: raw } : { ok: false, message: IDEMPOTENCY_MESSAGES.invalidKey };
}

/**
 * What makes two requests "the same": the body (key order does not matter) and the kind of key
 * that sent it (a sandbox or live, publishable or secret key can get a different result).
 */
export function requestFingerprint(scope: { keyType: string; sandbox: boolean }, body: unknown): string {
  return sha256Hex(canonicalJson({ keyType: scope.keyType, sandbox: scope.sandbox, body }));
}

function canonicalJson(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonicalJson).join(',')}]`;
  if (value && typeof value === 'object') {
    const entries = Object.entries(value as Record<string, unknown>).filter(([, v]) => v !== undefined);
    entries.sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    return `{${entries.map(([k, v]) => `${JSON.stringify(k)}:${canonicalJson(v)}`).join(',')}}`;
  }
  return JSON.stringify(value) ?? 'null';
}

export interface StoredKey {
  requestHash: string;
  expiresAt: Date;
}

export type IdempotencyDecision = { kind: 'proceed' } | { kind: 'replay' } | { kind: 'conflict'; message: string };

/** Decide, then apply (docs/engineering-habits.md "Decide, then apply"): the caller replays, refuses or runs the request. */
export function decideIdempotency(stored: StoredKey | undefined, requestHash: string, now: Date): IdempotencyDecision {
  // An expired key is as good as unused: its row is replaced when the new result is stored.
  if (!stored || stored.expiresAt.getTime() <= now.getTime()) return { kind: 'proceed' };
  if (stored.requestHash !== requestHash) return { kind: 'conflict', message: IDEMPOTENCY_MESSAGES.otherRequest };
  return { kind: 'replay' };
}
