/**
 * Prefixed random ids of the webhook tables (docs/decisions-on-open-points.md "IDs": prefix + 128 bits, base62),
 * and the endpoint signing secret in the Standard Webhooks form `whsec_<base64 of 32 bytes>`, so
 * the official Standard Webhooks libraries accept it unchanged (signing.ts).
 */
import { randomBytes } from 'node:crypto';
import { randomBase62 } from '../../ids';

const PREFIXES = {
  delivery: 'dlv',
  attempt: 'att',
  redelivery: 'rdl',
} as const;

export function webhookId(kind: keyof typeof PREFIXES): string {
  return `${PREFIXES[kind]}_${randomBase62(22)}`;
}

export function newWebhookSecret(): string {
  return `whsec_${randomBytes(32).toString('base64')}`;
}
