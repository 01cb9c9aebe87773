/**
 * Inserts a PENDING session with its session.started event, as POST /sessions/create would, for
 * tests and benchmarks that need many sessions without going through HTTP. The tokens are
 * placeholders: such sessions are completed through session-state.ts, not the verify UI.
 */
import { SESSION_LIFETIME_MS } from '@ageverify/protocol';
import type { Db } from '../db/database';
import { sessions } from '../db/schema';
import { newId } from '../ids';
import { recordEvent } from '../modules/events/outbox';

export interface SeedSessionInput {
  tenantId: string;
  pairId: string;
  now: Date;
  sandbox?: boolean;
  externalUserId?: string | null;
  returnUrl?: string;
}

export async function seedStartedSession(db: Db, input: SeedSessionInput): Promise<{ sessionId: string; startedEventId: string }> {
  const sessionId = newId('session');
  const startedEventId = await db.transaction(async (tx) => {
    const [row] = await tx
      .insert(sessions)
      .values({
        id: sessionId,
        tenantId: input.tenantId,
        pairId: input.pairId,
        sandbox: input.sandbox ?? false,
        state: 'PENDING',
        returnUrl: input.returnUrl ?? 'https://shop.example.com/done',
        externalUserId: input.externalUserId ?? null,
        verificationMode: 'L1',
        challengeAge: 25,
        faceMatchEnabled: true,
        sessionTokenHash: newId('sessionToken'),
        handoffTokenHash: newId('handoffToken'),
        createdWith: 'secret',
        createdAt: input.now,
        expiresAt: new Date(input.now.getTime() + SESSION_LIFETIME_MS),
      })
      .returning();
    return recordEvent(tx, { kind: 'session.started', session: row!, occurredAt: input.now, createdAt: input.now });
  });
  return { sessionId, startedEventId };
}
