/**
 * Who makes a change, from where and when: what every function that changes audited state takes
 * as its last argument (`audit`), so that it can write the entry in the change's own transaction.
 * The dashboard builds it from the signed-in member and the request (dashboard-access.ts), the CLI
 * with `cliAudit`, the service's own workers with `systemAudit`.
 */
import type { Clock } from '../../clock';

export type AuditActor = { type: 'user'; userId: string; email: string } | { type: 'cli' } | { type: 'system' };

export interface AuditContext {
  actor: AuditActor;
  /** The client's address (the socket's peer, as the sign-in limits see it); null for the CLI and the system. */
  ip: string | null;
  /** When the change was asked for: the entry's occurredAt. */
  at: Date;
}

export function userAudit(user: { id: string; email: string }, ip: string | null, at: Date): AuditContext {
  return { actor: { type: 'user', userId: user.id, email: user.email }, ip, at };
}

/**
 * The operator's CLI (issue 23: actor "cli"). It runs on the server's machine, either alone or
 * through the running server's loopback bridge (cli/server-bridge.ts); no client address applies.
 */
export function cliAudit(clock: Clock): AuditContext {
  return { actor: { type: 'cli' }, ip: null, at: clock.now() };
}

/** The service itself (an endpoint paused by the delivery worker), and provisioning with nobody behind it (tests, benches). */
export function systemAudit(at: Date): AuditContext {
  return { actor: { type: 'system' }, ip: null, at };
}
