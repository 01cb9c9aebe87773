/** What the tenant routes of the dashboard API need. */
import type { Clock } from '../../clock';
import type { Db } from '../../db/database';
import type { GuardOptions } from '../webhooks/destinations/destination-guard';
import type { WebhookSettings } from '../webhooks/settings';
import type { AuthSource } from './auth';

export interface TenantRouteDeps {
  db: Db;
  clock: Clock;
  auth: AuthSource;
  publicBaseUrl: string;
  serverSecret: string;
  verifyUrl: string;
  /** Webhook destination rules (the same as the CLI's and every delivery attempt's). */
  guard: GuardOptions;
  webhookSettings: WebhookSettings;
  /** The client's address, for the audit trail (dashboard-access.ts); main.ts reads it from Bun's server. */
  clientIp?: (request: Request) => string | null;
}

/** Keyset cursors: opaque to the client, `[createdAt ISO, id]` inside. */
export function encodeCursor(createdAt: Date, id: string): string {
  return Buffer.from(JSON.stringify([createdAt.toISOString(), id])).toString('base64url');
}

export function decodeCursor(cursor: string): { createdAt: Date; id: string } | null {
  try {
    const value = JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8')) as unknown;
    if (!Array.isArray(value) || value.length !== 2 || typeof value[0] !== 'string' || typeof value[1] !== 'string') return null;
    const createdAt = new Date(value[0]);
    if (Number.isNaN(createdAt.getTime())) return null;
    return { createdAt, id: value[1] };
  } catch {
    return null;
  }
}
