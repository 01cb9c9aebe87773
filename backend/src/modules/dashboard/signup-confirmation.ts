/**
 * Sign-up by emailed confirmation (issue 22, finding 9). `POST /signup` used to answer 409 for an
 * email that has an account, which told anyone whether an address was a customer's. Now it answers
 * the same 202 either way and the difference goes by email, to the address's owner only:
 * - a new address gets a link that finishes the sign-up (tenant, owner, signed in);
 * - an address that has an account is told so, with the way to sign in, and nothing is created.
 * The password is hashed in both branches, so the answer takes as long either way.
 *
 * The link's secret works like an invitation's: 32 random bytes in the URL fragment (never sent to
 * a server, never in a log); the row keeps only its SHA-256. Finishing asks for the password chosen
 * at sign-up again, so a forwarded or intercepted link alone opens nothing.
 */
import { randomBytes } from 'node:crypto';
import { and, eq, gt, lte } from 'drizzle-orm';
import type { Clock } from '../../clock';
import { hashPassword, sha256Hex, verifyPassword } from '../../crypto';
import type { Db } from '../../db/database';
import { pendingSignups } from '../../db/schema';
import { newId } from '../../ids';
import { enqueueEmailTo } from '../notifications/email-outbox';
import { findUserByEmail } from '../tenants/accounts';
import { createTenant } from '../tenants/service';
import { DASHBOARD_ERRORS } from './errors';

/** How long the emailed link works. */
export const SIGNUP_LINK_LIFETIME_MS = 24 * 60 * 60 * 1000;

export interface SignupInput {
  tenantName: string;
  email: string;
  password: string;
  name?: string;
}

function secretHash(secret: string): string {
  return sha256Hex(`signup\n${secret}`);
}

/**
 * Records the sign-up and queues the one email that fits the address. Input must be checked
 * before (checkNewAccount): those refusals depend on the input only, never on who has an account.
 */
export async function startSignup(deps: { db: Db; clock: Clock; publicBaseUrl: string }, input: SignupInput): Promise<{ email: string }> {
  const { db, clock } = deps;
  const now = clock.now();
  const email = input.email.trim().toLowerCase();
  const origin = new URL(deps.publicBaseUrl).origin;
  const passwordHash = await hashPassword(input.password);
  const existing = await findUserByEmail(db, email);
  await db.transaction(async (tx) => {
    await tx.delete(pendingSignups).where(lte(pendingSignups.expiresAt, now));
    if (existing) {
      // One such mail per address and hour: repeated tries cannot flood its owner's inbox.
      const hour = Math.floor(now.getTime() / 3_600_000);
      await enqueueEmailTo(
        tx,
        {
          tenantId: null,
          dedupeKey: `signup-taken:${sha256Hex(email).slice(0, 32)}:${hour}`,
          recipients: [email],
          subject: 'Someone tried to create an AgeVerify account with your email',
          text: [
            `Someone (perhaps you) asked to create a new AgeVerify account for "${input.tenantName.trim()}" with ${email}.`,
            'This email already has a user, so nothing was created.',
            '',
            `Sign in instead: ${origin}/dashboard/`,
            'If you forgot your password, ask an owner of your account (or the operator) to reset it.',
            '',
            'If this was not you, you can ignore this email: nothing about your account has changed.',
          ].join('\n'),
        },
        now,
      );
      return;
    }
    const secret = randomBytes(32).toString('base64url');
    const expiresAt = new Date(now.getTime() + SIGNUP_LINK_LIFETIME_MS);
    const id = newId('pendingSignup');
    await tx.insert(pendingSignups).values({
      id,
      secretHash: secretHash(secret),
      email,
      name: input.name?.trim() || null,
      tenantName: input.tenantName.trim(),
      passwordHash,
      createdAt: now,
      expiresAt,
    });
    await enqueueEmailTo(
      tx,
      {
        tenantId: null,
        dedupeKey: `signup:${id}`,
        recipients: [email],
        subject: 'Finish creating your AgeVerify account',
        text: [
          `Someone (perhaps you) asked to create the AgeVerify account "${input.tenantName.trim()}" with ${email}.`,
          '',
          `Finish creating it here (you will be asked for the password you chose): ${origin}/dashboard/confirm#secret=${secret}`,
          '',
          `The link works until ${expiresAt.toISOString()}. If this was not you, ignore this email: nothing is created without it.`,
        ].join('\n'),
      },
      now,
    );
  });
  return { email };
}

/** The sign-up an emailed link names, while it is valid; a wrong, used or expired secret is one 404. */
export async function openSignup(db: Db, clock: Clock, secret: string) {
  const [row] = await db
    .select()
    .from(pendingSignups)
    .where(and(eq(pendingSignups.secretHash, secretHash(secret)), gt(pendingSignups.expiresAt, clock.now())));
  if (!row) throw DASHBOARD_ERRORS.SIGNUP_LINK_INVALID();
  return row;
}

/**
 * Finishes a sign-up: the password must be the one chosen at sign-up. The tenant and its owner are
 * created first (the unique email makes a second use fail there), then every pending sign-up of
 * that address is dropped; a crash in between leaves a link that answers "sign in instead".
 */
/** `ip`: the client's address, for the new tenant's audit entries (its owner is their actor). */
export async function finishSignup(deps: { db: Db; clock: Clock }, pending: Awaited<ReturnType<typeof openSignup>>, password: string, ip: string | null) {
  if (!(await verifyPassword(password, pending.passwordHash))) throw DASHBOARD_ERRORS.SIGNUP_PASSWORD_MISMATCH();
  if (await findUserByEmail(deps.db, pending.email)) {
    await deps.db.delete(pendingSignups).where(eq(pendingSignups.email, pending.email));
    throw DASHBOARD_ERRORS.SIGNUP_ALREADY_FINISHED();
  }
  const created = await createTenant(deps.db, deps.clock, {
    name: pending.tenantName,
    domains: [],
    sandbox: true,
    owner: { email: pending.email, password, name: pending.name ?? undefined },
    audit: { actor: 'owner', ip, at: deps.clock.now() },
  });
  await deps.db.delete(pendingSignups).where(eq(pendingSignups.email, pending.email));
  return { created, email: pending.email };
}
