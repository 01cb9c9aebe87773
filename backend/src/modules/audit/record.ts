/**
 * Writing an audit entry. `recordAudit` takes the change's own transaction: the change and its
 * entry commit together or not at all (decision 0056), so the trail neither misses a change that
 * happened nor shows one that rolled back.
 */
import type { AuditAction } from '@ageverify/protocol';
import type { DbOrTx } from '../../db/database';
import { auditLog } from '../../db/schema';
import { newId } from '../../ids';
import type { AuditContext } from './audit-context';
import type { AuditChanges } from './changes';
import { withoutSecrets } from './no-secrets';

export interface AuditEntry {
  tenantId: string;
  action: AuditAction;
  targetId: string | null;
  /** A human name for the target (a key pair's label, an endpoint's URL, a member's email). */
  targetLabel?: string | null;
  changes: AuditChanges;
}

export async function recordAudit(tx: DbOrTx, audit: AuditContext, entry: AuditEntry): Promise<void> {
  const safe = withoutSecrets({ targetId: entry.targetId, targetLabel: entry.targetLabel ?? null, changes: entry.changes });
  const actor = audit.actor;
  await tx.insert(auditLog).values({
    id: newId('audit'),
    tenantId: entry.tenantId,
    occurredAt: audit.at,
    actorType: actor.type,
    actorUserId: actor.type === 'user' ? actor.userId : null,
    actorEmail: actor.type === 'user' ? actor.email : null,
    ip: audit.ip,
    action: entry.action,
    targetId: safe.targetId,
    targetLabel: safe.targetLabel,
    changes: safe.changes,
  });
}
