/**
 * POST /api/v1/verify/document-instead (document-instead.ts, decision 0063): a user without a
 * camera moves an L1 session from its face check to the document, only where the session allows
 * it, never past a running check. A stand-in engine reads the document.
 */
import { afterAll, beforeAll, describe, expect, test } from 'bun:test';
import { eq } from 'drizzle-orm';
import { TARGETS } from '../../../testing/test-databases';
import { createTestContext, type TestContext } from '../../../testing/test-app';
import { events, sessions, tenants } from '../../../db/schema';
import { ERROR_EXAMPLES } from '../../../http/openapi-errors';
import { claimCheck, releaseCheck } from './check-claim';
import type { DocumentFindings } from '../model';

type Json = Record<string, any>;
const PATH = '/api/v1/verify/document-instead';
const adultPassport: DocumentFindings = {
  kind: 'document',
  documentType: 'passport',
  reading: {
    source: 'mrz',
    found: true,
    format: 'TD3',
    valid: true,
    invalidFields: [],
    birthDate: '900101',
    expirationDate: '300101',
    documentCode: 'P',
    agreeing: 2,
  },
  portrait: null,
  frames: [],
};
const example = (status: number, name: string) => ERROR_EXAMPLES[PATH]![status]!.find((e) => e.name === name)!.message;

for (const target of TARGETS) {
  describe(`POST ${PATH} [${target}]`, () => {
    let ctx: TestContext;
    const jobs: Json[] = [];
    const engine = {
      run: async (job: unknown) => {
        jobs.push(job as Json);
        return { findings: adultPassport, timings: {} };
      },
    };
    /** Publishable keys of tenants with each policy. */
    let open: Json;
    let noStepUp: Json;
    let faceMatch: Json;
    beforeAll(async () => {
      ctx = await createTestContext(target, { engine, l1AgeMargin: 5 });
      const tenant = async (policy: { policyStepUpAllowed: boolean; policyFaceMatchEnabled: boolean }) => {
        const keys = await ctx.tenant({ sandbox: false });
        await ctx.database.db.update(tenants).set(policy).where(eq(tenants.id, keys.tenantId));
        return keys;
      };
      open = await tenant({ policyStepUpAllowed: true, policyFaceMatchEnabled: false });
      noStepUp = await tenant({ policyStepUpAllowed: false, policyFaceMatchEnabled: false });
      faceMatch = await tenant({ policyStepUpAllowed: true, policyFaceMatchEnabled: true });
    });
    afterAll(() => ctx.close());

    const create = async (keys: Json, body: Json = {}) =>
      ctx.json(await ctx.request('POST', '/api/v1/sessions/create', { key: keys.secretKey, body: { returnUrl: 'https://shop.example.com/r', ...body } }));
    const credentials = (session: Json) => ({ sessionId: session.sessionId, sessionToken: session.sessionToken });
    const view = async (session: Json) => ctx.json(await ctx.request('POST', '/api/v1/verify/session', { body: credentials(session) }));
    const instead = (body: Json) => ctx.request('POST', PATH, { body });
    const row = async (id: string) => (await ctx.database.db.select().from(sessions).where(eq(sessions.id, id)))[0]!;
    const submit = (fields: Record<string, string>, parts: string[]) => {
      const form = new FormData();
      for (const [name, value] of Object.entries(fields)) form.append(name, value);
      for (const part of parts) form.append(part, new Blob([new Uint8Array([0xff, 0xd8, 0xff, 0xd9])], { type: 'image/jpeg' }), `${part}.jpg`);
      return ctx.app.handle(new Request('http://localhost:3000/api/v1/verify/checks', { method: 'POST', body: form }));
    };

    test('an L1 face check moves to the document with fresh retries, counts no decision, and the document decides', async () => {
      const session = await create(open);
      expect(await view(session)).toMatchObject({ nextCheck: 'age_estimation', documentInstead: true });
      // Two quality retries of the face check went before; the document gets its own, as after a step-up.
      await ctx.database.db.update(sessions).set({ checkRetries: 2 }).where(eq(sessions.id, session.sessionId));

      const eventsOf = async () => (await ctx.database.db.select().from(events).where(eq(events.sessionId, session.sessionId))).map((e) => e.kind);
      const before = await eventsOf();
      const response = await instead(credentials(session));
      expect(response.status).toBe(200);
      // Not a decision: no lifecycle event (spec "Events" has none for a stage of the check).
      expect(await eventsOf()).toEqual(before);
      const moved = await ctx.json(response);
      expect(moved).toMatchObject({ sessionId: session.sessionId, state: 'PENDING', nextCheck: 'document', documentInstead: false });
      expect(await row(session.sessionId)).toMatchObject({ checkStage: 'document', checkRetries: 0, checkDecisions: 0 });
      // Asked again (a double press): the same answer, nothing changes.
      expect(await ctx.json(await instead(credentials(session)))).toMatchObject({ nextCheck: 'document' });

      // The face check is over: a selfie submission is refused as the wrong check.
      const selfie = await submit({ ...credentials(session), check: 'age_estimation' }, ['selfie']);
      expect(selfie.status).toBe(409);
      expect((await ctx.json(selfie)).message).toBe('This session expects a document check');
      const decided = await submit({ ...credentials(session), check: 'document', documentType: 'passport' }, ['document']);
      expect(await ctx.json(decided)).toMatchObject({ decision: 'verified', status: 'verified' });
      expect(jobs.at(-1)).toMatchObject({ kind: 'document', faceMatch: false });
      expect(await eventsOf()).toContain('verification.completed');
    });

    test('the phone (handoffToken) may ask too', async () => {
      const session = await create(open);
      const response = await instead({ sessionId: session.sessionId, handoffToken: session.handoffToken });
      expect(response.status).toBe(200);
      expect((await ctx.json(response)).nextCheck).toBe('document');
    });

    test('an account without step-up: not offered, and refused with 403', async () => {
      const session = await create(noStepUp);
      expect((await view(session)).documentInstead).toBe(false);
      const response = await instead(credentials(session));
      expect(response.status).toBe(403);
      expect((await ctx.json(response)).message).toBe(example(403, 'stepUpNotAllowed'));
      expect((await row(session.sessionId)).checkStage).toBeNull();
    });

    test('face match on: not offered, and refused with 403 (it needs a live selfie)', async () => {
      const session = await create(faceMatch);
      expect((await view(session)).documentInstead).toBe(false);
      const response = await instead(credentials(session));
      expect(response.status).toBe(403);
      expect((await ctx.json(response)).message).toBe(example(403, 'faceMatchOn'));
      expect((await row(session.sessionId)).checkStage).toBeNull();
    });

    test('an L2 session already expects the document: not offered; asking changes nothing', async () => {
      const session = await create(open, { verificationMode: 'L2' });
      expect(await view(session)).toMatchObject({ nextCheck: 'document', documentInstead: false });
      expect(await ctx.json(await instead(credentials(session)))).toMatchObject({ nextCheck: 'document' });
      expect((await row(session.sessionId)).checkStage).toBeNull();
    });

    test('never past a running check: 409 while one holds the session, then allowed once it let go', async () => {
      const session = await create(open);
      const claim = await claimCheck(ctx.database.db, session.sessionId, ctx.clock.now());
      if (!claim.claimed) throw new Error('expected the claim');
      const refused = await instead(credentials(session));
      expect(refused.status).toBe(409);
      expect((await ctx.json(refused)).message).toBe(example(409, 'checkInProgress'));
      expect((await row(session.sessionId)).checkStage).toBeNull();
      await releaseCheck(ctx.database.db, session.sessionId, claim.claimId);
      expect((await instead(credentials(session))).status).toBe(200);
    });

    test('a finished, an expired or a billing-blocked session is refused in the error body', async () => {
      const finished = await create(open);
      await instead(credentials(finished));
      await submit({ ...credentials(finished), check: 'document', documentType: 'passport' }, ['document']);
      const late = await instead(credentials(finished));
      expect(late.status).toBe(409);
      expect(await ctx.json(late)).toMatchObject({ statusCode: 409, message: 'Session is already completed (status verified)' });

      const blocked = await create(open);
      await ctx.database.db
        .update(sessions)
        .set({ billingBlock: { code: 'PLAN_LIMIT_REACHED', message: 'Plan limit reached' } })
        .where(eq(sessions.id, blocked.sessionId));
      const refused = await instead(credentials(blocked));
      expect(refused.status).toBe(403);
      expect((await view(blocked)).documentInstead).toBe(false);

      const expiring = await create(open);
      ctx.clock.advance(11 * 60_000);
      const expired = await instead(credentials(expiring));
      expect(expired.status).toBe(409);
      expect((await ctx.json(expired)).message).toBe('Session has expired');
    });
  });
}
