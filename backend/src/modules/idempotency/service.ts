/**
 * Stored results of idempotent requests (issue 15, item 4). `runIdempotent` is the whole flow:
 *
 *   look the key up ── replay ──▶ the stored result, `Idempotent-Replayed: true`
 *        │          ── conflict ─▶ 400, the key was used with another request
 *        ▼ proceed
 *   run the operation; in its transaction, `store` claims the key
 *        │ claimed ─▶ commit: result and session together (a crash never leaves one alone)
 *        ▼ taken by a concurrent request (it committed first)
 *   roll back, look again ─▶ replay its result, or 400 if its request was another
 *
 * Concurrent requests with one key: the first to commit wins; on PostgreSQL the other waits on the
 * key's row, rolls back its own work and replays the winner's result. Only successful results are
 * stored: a request that failed committed nothing, so running it again is safe.
 */
import { createCipheriv, createDecipheriv, randomBytes } from 'node:crypto';
import { and, eq, lte } from 'drizzle-orm';
import type { Db, DbOrTx } from '../../db/database';
import { idempotencyKeys } from '../../db/schema';
import { hmacSha256 } from '../../crypto';
import { IDEMPOTENCY_ERRORS } from './errors';
import { IDEMPOTENCY_TTL_MS, decideIdempotency } from './decide';

export interface IdempotentRequest {
  tenantId: string;
  key: string;
  requestHash: string;
  now: Date;
  serverSecret: string;
}

export interface IdempotentResult<T> {
  statusCode: number;
  body: T;
  replayed: boolean;
}

/** Called by the operation inside its transaction, with the result it is about to return. */
export type StoreResult<T> = (tx: DbOrTx, statusCode: number, body: T) => Promise<void>;

/** Thrown inside the operation's transaction so that it rolls back; never leaves this module. */
class KeyTaken extends Error {}

export async function runIdempotent<T>(
  db: Db,
  request: IdempotentRequest,
  operation: (store: StoreResult<T>) => Promise<T>,
  successStatus: number,
): Promise<IdempotentResult<T>> {
  const replayed = await lookUp<T>(db, request);
  if (replayed) return replayed;
  const store: StoreResult<T> = async (tx, statusCode, body) => {
    const expiresAt = new Date(request.now.getTime() + IDEMPOTENCY_TTL_MS);
    const values = {
      tenantId: request.tenantId,
      key: request.key,
      requestHash: request.requestHash,
      statusCode,
      sealedResponse: seal(request, JSON.stringify(body)),
      createdAt: request.now,
      expiresAt,
    };
    // A live row of another request blocks here until that request commits or rolls back; an
    // expired row is replaced.
    const claimed = await tx
      .insert(idempotencyKeys)
      .values(values)
      .onConflictDoUpdate({ target: [idempotencyKeys.tenantId, idempotencyKeys.key], set: values, setWhere: lte(idempotencyKeys.expiresAt, request.now) })
      .returning({ key: idempotencyKeys.key });
    if (claimed.length === 0) throw new KeyTaken();
  };
  try {
    return { statusCode: successStatus, body: await operation(store), replayed: false };
  } catch (error) {
    if (!(error instanceof KeyTaken)) throw error;
    return (await lookUp<T>(db, request)) ?? inProgress();
  }
}

async function lookUp<T>(db: Db, request: IdempotentRequest): Promise<IdempotentResult<T> | null> {
  const [stored] = await db
    .select()
    .from(idempotencyKeys)
    .where(and(eq(idempotencyKeys.tenantId, request.tenantId), eq(idempotencyKeys.key, request.key)));
  const decision = decideIdempotency(stored, request.requestHash, request.now);
  if (decision.kind === 'proceed') return null;
  if (decision.kind === 'conflict') throw IDEMPOTENCY_ERRORS.IDEMPOTENCY_KEY_REUSED();
  return { statusCode: stored!.statusCode, body: JSON.parse(unseal(request, stored!.sealedResponse)) as T, replayed: true };
}

function inProgress(): never {
  throw IDEMPOTENCY_ERRORS.IDEMPOTENCY_KEY_IN_PROGRESS();
}

/** Deletes results older than 24 h (run by the expiry sweeper). */
export async function purgeExpiredIdempotencyKeys(db: Db, now: Date): Promise<number> {
  const deleted = await db.delete(idempotencyKeys).where(lte(idempotencyKeys.expiresAt, now)).returning({ key: idempotencyKeys.key });
  return deleted.length;
}

// The stored result holds the sessionToken, a bearer token, and the schema keeps no secret in clear:
// AES-256-GCM under a key derived from SERVER_SECRET, bound to the tenant and key (associated data)
// so a sealed result cannot be moved to another row.
const sealingKey = (secret: string) => hmacSha256(secret, 'idempotency-response-v1');
const associatedData = (request: IdempotentRequest) => Buffer.from(`${request.tenantId}\n${request.key}`);

function seal(request: IdempotentRequest, plaintext: string): string {
  const iv = randomBytes(12);
  const cipher = createCipheriv('aes-256-gcm', sealingKey(request.serverSecret), iv);
  cipher.setAAD(associatedData(request));
  const ciphertext = Buffer.concat([cipher.update(plaintext, 'utf8'), cipher.final()]);
  return [iv, ciphertext, cipher.getAuthTag()].map((part) => part.toString('base64url')).join('.');
}

function unseal(request: IdempotentRequest, sealed: string): string {
  const [iv, ciphertext, tag] = sealed.split('.').map((part) => Buffer.from(part, 'base64url'));
  const decipher = createDecipheriv('aes-256-gcm', sealingKey(request.serverSecret), iv!);
  decipher.setAAD(associatedData(request));
  decipher.setAuthTag(tag!);
  return Buffer.concat([decipher.update(ciphertext!), decipher.final()]).toString('utf8');
}
