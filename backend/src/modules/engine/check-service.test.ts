/**
 * The submission route end to end with a stand-in engine (findings chosen by the test): decisions
 * applied through the state machine, caps, step-up, the 503 of a full queue and bad input.
 * engine.test.ts runs the real models.
 */
import { afterAll, beforeAll, beforeEach, describe, expect, test } from 'bun:test';
import { eq } from 'drizzle-orm';
import { CHECK_ATTEMPT_LIMITS } from '@ageverify/protocol';
import { TARGETS } from '../../testing/test-databases';
import { createTestContext, type TestContext } from '../../testing/test-app';
import { events, sessions, tenants } from '../../db/schema';
import { EngineBusy, EngineRefused, EngineTimeout } from './engine-pool';
import { MAX_JPEG_SCANS } from './image-decoding';
import { manyScanJpeg } from './hostile-jpeg.test-support';
import { CHECK_CLAIM_LEASE_MS, claimCheck, heldBy } from './check-claim';
import { ERROR_EXAMPLES } from '../../http/openapi-errors';
import type { DocumentFindings, EngineFindings } from './model';
import type { FaceMeasurement } from './face-analysis';

type Json = Record<string, any>;
const face = (estimatedAge: number, change: Partial<FaceMeasurement> = {}) => ({
  faceCount: 1,
  face: {
    box: [0.3, 0.25, 0.4, 0.5],
    widthPx: 256,
    detectorScore: 0.9,
    yaw: 0,
    pitch: 0,
    roll: 0,
    brightness: 120,
    sharpness: 200,
    estimatedAge,
    antispoof: 0.8,
    liveness: 0.9,
    descriptor: [1, 0],
    ...change,
  },
});
const age = (estimatedAge: number, change: Partial<FaceMeasurement> = {}): EngineFindings => ({
  kind: 'age_estimation',
  frames: [face(estimatedAge, change) as never],
});
const passport = (birthDate: string, valid = true): EngineFindings => ({
  kind: 'document',
  documentType: 'passport',
  reading: { source: 'mrz', found: true, format: 'TD3', valid, invalidFields: [], birthDate, expirationDate: '300101', documentCode: 'P', agreeing: 2 },
  portrait: face(30) as never,
  // Another photo of the same person: similar (0.8), not a copy of the portrait (face-match.ts).
  frames: [face(30, { descriptor: [0.8, 0.6] }) as never],
});

const licence = (): DocumentFindings => ({
  kind: 'document',
  documentType: 'driving_licence',
  reading: { source: 'pdf417', found: true, valid: true, birthDate: '1990-01-31', expirationDate: '2030-01-31' },
  portrait: face(30) as never,
  // Another photo of the same person: similar (0.8), not a copy of the portrait (face-match.ts).
  frames: [face(30, { descriptor: [0.8, 0.6] }) as never],
});
/** The refusal the OpenAPI document shows for a licence problem, to compare with the real answer. */
const openApiMessage = (name: string) => ERROR_EXAMPLES['/api/v1/verify/checks']![400]!.find((example) => example.name === name)!.message;

for (const target of TARGETS) {
  describe(`POST /api/v1/verify/checks [${target}]`, () => {
    let ctx: TestContext;
    let keys: Json;
    const next: (EngineFindings | Error)[] = [];
    const jobs: unknown[] = [];
    /** When set, the engine holds every job until it resolves, so submissions overlap. */
    let gate: Promise<void> | null = null;
    let jobStarted = () => {};
    const engine = {
      run: async (job: unknown) => {
        jobs.push(job);
        jobStarted();
        if (gate) await gate;
        const findings = next.shift();
        if (!findings) throw new Error('test engine: no findings queued');
        if (findings instanceof Error) throw findings;
        return { findings, timings: {} };
      },
    };
    beforeAll(async () => {
      ctx = await createTestContext(target, { engine, l1AgeMargin: 5 });
      keys = await ctx.tenant({ sandbox: true });
    });
    afterAll(() => ctx.close());
    beforeEach(() => {
      next.length = 0;
    });

    const create = async (body: Json = {}) =>
      ctx.json(
        await ctx.request('POST', '/api/v1/sessions/create', { key: keys.publishableKey, body: { returnUrl: 'https://shop.example.com/return', ...body } }),
      );
    /** Each part's bytes name its part (the last byte) and its place among its kind, so a swap of slots shows. */
    const PART_TAG: Record<string, number> = { document: 0xd0, documentFront: 0xf0, selfie: 0x50 };
    const partBytes = (name: string, i: number) => [0xff, 0xd8, 0xff, i, PART_TAG[name] ?? 0];
    const submit = (fields: Record<string, string>, parts: Record<string, number> = { selfie: 1 }) => {
      const form = new FormData();
      for (const [name, value] of Object.entries(fields)) form.append(name, value);
      for (const [name, count] of Object.entries(parts))
        for (let i = 0; i < count; i++) form.append(name, new Blob([new Uint8Array(partBytes(name, i))], { type: 'image/jpeg' }), `${name}${i}.jpg`);
      return ctx.app.handle(new Request('http://localhost:3000/api/v1/verify/checks', { method: 'POST', body: form }));
    };
    const row = async (id: string) => (await ctx.database.db.select().from(sessions).where(eq(sessions.id, id)))[0]!;

    test('L1: an estimate over challengeAge + margin verifies the session and records verification.completed', async () => {
      const session = await create();
      next.push(age(31));
      const response = await submit({ sessionId: session.sessionId, sessionToken: session.sessionToken, check: 'age_estimation' });
      expect(response.status).toBe(200);
      const result = await ctx.json(response);
      expect(result).toMatchObject({ decision: 'verified', status: 'verified' });
      expect(new URL(result.redirectUrl).searchParams.get('status')).toBe('verified');
      expect((await row(session.sessionId)).state).toBe('VERIFIED');
      const kinds = (await ctx.database.db.select().from(events).where(eq(events.sessionId, session.sessionId))).map((e) => e.kind);
      expect(kinds).toContain('verification.completed');
    });

    test('L1 inside the margin steps up; the session then expects a document, which decides (phone, handoffToken)', async () => {
      const session = await create();
      next.push(age(27));
      const stepped = await ctx.json(await submit({ sessionId: session.sessionId, handoffToken: session.handoffToken, check: 'age_estimation' }));
      expect(stepped).toEqual({ decision: 'step_up', next: 'document' });
      const view = await ctx.json(
        await ctx.request('POST', '/api/v1/verify/session', { body: { sessionId: session.sessionId, handoffToken: session.handoffToken } }),
      );
      expect(view.nextCheck).toBe('document');
      // Another selfie is refused: the stage moved on.
      expect((await submit({ sessionId: session.sessionId, handoffToken: session.handoffToken, check: 'age_estimation' })).status).toBe(409);
      next.push(passport('900101'));
      const decided = await ctx.json(
        await submit(
          { sessionId: session.sessionId, handoffToken: session.handoffToken, check: 'document', documentType: 'passport' },
          { document: 1, selfie: 1 },
        ),
      );
      expect(decided.decision).toBe('verified');
    });

    test('without step-up, L1 below the bar fails with age_not_met, recorded as the event reason', async () => {
      const other = await ctx.tenant({ sandbox: true, domains: ['strict.example.com'], name: 'Strict' });
      await ctx.database.db.update(tenants).set({ policyStepUpAllowed: false }).where(eq(tenants.id, other.tenantId));
      const session = await ctx.json(
        await ctx.request('POST', '/api/v1/sessions/create', { key: other.publishableKey, body: { returnUrl: 'https://strict.example.com/r' } }),
      );
      next.push(age(22));
      const result = await ctx.json(await submit({ sessionId: session.sessionId, sessionToken: session.sessionToken, check: 'age_estimation' }));
      expect(result).toMatchObject({ decision: 'failed', status: 'failed', reason: 'age_not_met' });
      const recorded = await ctx.database.db.select().from(events).where(eq(events.sessionId, session.sessionId));
      const failed = recorded.find((e) => e.kind === 'verification.failed');
      expect(JSON.stringify(failed?.data)).toContain('age_not_met');
    });

    test('quality retries count down; reaching the cap fails the session with too_many_attempts', async () => {
      const session = await create();
      const credentials = { sessionId: session.sessionId, sessionToken: session.sessionToken, check: 'age_estimation' };
      for (let left = CHECK_ATTEMPT_LIMITS.qualityRetries - 1; left >= 1; left--) {
        next.push(age(40, { yaw: 60 }));
        expect(await ctx.json(await submit(credentials))).toEqual({ decision: 'retry', hint: 'face_not_frontal', part: 'selfie', attemptsLeft: left });
      }
      next.push({ kind: 'age_estimation', frames: [{ faceCount: 0, face: null }] });
      expect(await ctx.json(await submit(credentials))).toMatchObject({ decision: 'failed', reason: 'too_many_attempts' });
      expect((await row(session.sessionId)).failureReason).toBe('too_many_attempts');
    });

    test('L2 sessions: a failing check digit is document_invalid; a minor is age_not_met', async () => {
      for (const [findings, reason] of [
        [passport('900101', false), 'document_invalid'],
        [passport('150101'), 'age_not_met'],
      ] as const) {
        const session = await create({ verificationMode: 'L2' });
        next.push(findings);
        const result = await ctx.json(
          await submit(
            { sessionId: session.sessionId, sessionToken: session.sessionToken, check: 'document', documentType: 'passport' },
            { document: 1, selfie: 1 },
          ),
        );
        expect(result).toMatchObject({ decision: 'failed', reason });
      }
    });

    test('a full engine queue answers 503 with Retry-After and the error body', async () => {
      const session = await create();
      next.push(new EngineBusy(2) as never);
      const response = await submit({ sessionId: session.sessionId, sessionToken: session.sessionToken, check: 'age_estimation' });
      expect(response.status).toBe(503);
      expect(response.headers.get('retry-after')).toBe('2');
      expect(await ctx.json(response)).toMatchObject({ statusCode: 503, path: '/api/v1/verify/checks', error: 'Service Unavailable' });
      expect((await row(session.sessionId)).state).toBe('PENDING');
      // The refused job let go of its claim without counting: the next submission runs.
      next.push(age(31));
      expect(await ctx.json(await submit({ sessionId: session.sessionId, sessionToken: session.sessionToken, check: 'age_estimation' }))).toMatchObject({
        decision: 'verified',
      });
      expect((await row(session.sessionId)).checkRetries).toBe(0);
    });

    test('parallel submissions on one session: one reaches the engine and decides, the others get 409 at once', async () => {
      const session = await create();
      const parallel = 6;
      // Different people: without the claim, one verified answer among step-ups would win.
      for (let i = 0; i < parallel; i++) next.push(age(i === parallel - 1 ? 40 : 27));
      const before = jobs.length;
      let settled = 0;
      let open = () => {};
      gate = new Promise<void>((resolve) => {
        open = resolve;
      });
      // The engine answers once every submission has either been refused or reached the engine, so
      // a broken claim shows as several jobs rather than as a hang.
      const maybeOpen = () => {
        if (settled + (jobs.length - before) >= parallel) open();
      };
      jobStarted = maybeOpen;
      try {
        const responses = await Promise.all(
          Array.from({ length: parallel }, () =>
            submit({ sessionId: session.sessionId, sessionToken: session.sessionToken, check: 'age_estimation' }).then((response) => {
              settled++;
              maybeOpen();
              return response;
            }),
          ),
        );
        expect(jobs.length - before).toBe(1);
        const statuses = responses.map((r) => r.status).sort();
        expect(statuses).toEqual([200, 409, 409, 409, 409, 409]);
        const refused = await ctx.json(responses.find((r) => r.status === 409)!);
        expect(refused).toMatchObject({
          statusCode: 409,
          path: '/api/v1/verify/checks',
          message: 'A check is already running on this session; wait for its answer before sending another',
        });
      } finally {
        gate = null;
        jobStarted = () => {};
      }
      const decided = await row(session.sessionId);
      expect(decided.checkDecisions + decided.checkRetries).toBe(1);
      expect(decided.checkClaimId).toBeNull();
      const decisions = (await ctx.database.db.select().from(events).where(eq(events.sessionId, session.sessionId))).filter((e) =>
        e.kind.startsWith('verification.'),
      );
      expect(decisions.length).toBeLessThanOrEqual(1);
    });

    test('a claim left by a crashed instance lapses after its lease; the lapsed holder can no longer decide', async () => {
      const session = await create();
      const credentials = { sessionId: session.sessionId, sessionToken: session.sessionToken, check: 'age_estimation' };
      // An instance claimed the session and died before answering.
      const crashed = await claimCheck(ctx.database.db, session.sessionId, ctx.clock.now());
      expect(crashed.claimed).toBe(true);
      const before = jobs.length;
      const refused = await submit(credentials);
      expect(refused.status).toBe(409);
      expect(jobs.length).toBe(before); // nothing ran: the 409 comes before the engine
      ctx.clock.advance(CHECK_CLAIM_LEASE_MS);
      next.push(age(27));
      expect(await ctx.json(await submit(credentials))).toEqual({ decision: 'step_up', next: 'document' });
      if (crashed.claimed) {
        const stale = await ctx.database.db.update(sessions).set({ checkStage: null }).where(heldBy(session.sessionId, crashed.claimId)).returning();
        expect(stale).toEqual([]);
      }
    });

    describe('hostile images (issue 22, finding 3)', () => {
      const submitImage = (session: Json, image: Uint8Array) => {
        const form = new FormData();
        form.append('sessionId', session.sessionId);
        form.append('sessionToken', session.sessionToken);
        form.append('check', 'age_estimation');
        form.append('selfie', new Blob([image], { type: 'image/jpeg' }), 'selfie.jpg');
        return ctx.app.handle(new Request('http://localhost:3000/api/v1/verify/checks', { method: 'POST', body: form }));
      };

      test('a JPEG with thousands of scans is refused with a 400 that says why, never reaches the engine, and a concurrent genuine check is answered', async () => {
        const [hostile, genuine] = [await create(), await create()];
        const before = jobs.length;
        next.push(age(31));
        // Fairness inside the engine (turns by session, the job time limit) is engine-pool.test.ts's.
        const [refused, answered] = await Promise.all([
          submitImage(hostile, await manyScanJpeg(2646)),
          submit({ sessionId: genuine.sessionId, sessionToken: genuine.sessionToken, check: 'age_estimation' }),
        ]);
        expect(refused.status).toBe(400);
        expect(await ctx.json(refused)).toMatchObject({
          statusCode: 400,
          message: [`part selfie is a JPEG with more than ${MAX_JPEG_SCANS} scans; send a baseline JPEG, PNG or WebP`],
        });
        expect(answered.status).toBe(200);
        expect(await ctx.json(answered)).toMatchObject({ decision: 'verified' });
        // Only the genuine check took the engine; the refusal cost the hostile session no attempt.
        expect(jobs.length - before).toBe(1);
        expect((await row(hostile.sessionId)).checkRetries).toBe(0);
      });

      test('an image the engine refuses (decode over budget) is a 400 with its reason; a job past its time limit is a 503 with Retry-After, never a 500', async () => {
        const session = await create();
        next.push(new EngineRefused('image took more than 3000 ms to decode') as never);
        const refused = await submit({ sessionId: session.sessionId, sessionToken: session.sessionToken, check: 'age_estimation' });
        expect(refused.status).toBe(400);
        expect((await ctx.json(refused)).message).toEqual(['image took more than 3000 ms to decode']);
        next.push(new EngineTimeout(2) as never);
        const timedOut = await submit({ sessionId: session.sessionId, sessionToken: session.sessionToken, check: 'age_estimation' });
        expect(timedOut.status).toBe(503);
        expect(timedOut.headers.get('retry-after')).toBe('2');
        expect((await ctx.json(timedOut)).message).toBe('The verification engine did not finish in time; retry shortly');
        expect((await row(session.sessionId)).state).toBe('PENDING');
      });
    });

    describe('a driving licence with face match on (issue 11: barcode on the back, portrait on the front)', () => {
      const l2 = () => create({ verificationMode: 'L2', faceMatchEnabled: true });
      const fields = (s: Json, documentType = 'driving_licence') => ({
        sessionId: s.sessionId,
        sessionToken: s.sessionToken,
        check: 'document',
        documentType,
      });

      test('back, front and selfie go to the engine as one job; the decision applies', async () => {
        const session = await l2();
        next.push(licence());
        const response = await submit(fields(session), { document: 1, documentFront: 1, selfie: 2 });
        expect(response.status).toBe(200);
        expect(await ctx.json(response)).toMatchObject({ decision: 'verified' });
        const job = jobs.at(-1) as Json;
        expect(job).toMatchObject({ kind: 'document', documentType: 'driving_licence', faceMatch: true });
        // The parts arrive in their own slots: the back as document, the front as documentFront, the
        // selfies in their order. The bytes differ per part, so a swap of any two fails here.
        expect([...job.document]).toEqual(partBytes('document', 0));
        expect([...job.documentFront]).toEqual(partBytes('documentFront', 0));
        expect(job.selfies.map((selfie: Uint8Array) => [...selfie])).toEqual([partBytes('selfie', 0), partBytes('selfie', 1)]);
      });

      test('without the front: 400 with the message the OpenAPI document shows, and no engine job', async () => {
        const session = await l2();
        const before = jobs.length;
        const response = await submit(fields(session), { document: 1, selfie: 1 });
        expect(response.status).toBe(400);
        expect((await ctx.json(response)).message).toEqual(openApiMessage('licenceFront'));
        expect(jobs.length).toBe(before);
        expect((await row(session.sessionId)).checkRetries).toBe(0);
      });

      test('a front with a passport: 400 with the message the OpenAPI document shows', async () => {
        const session = await l2();
        const before = jobs.length;
        const response = await submit(fields(session, 'passport'), { document: 1, documentFront: 1, selfie: 1 });
        expect(response.status).toBe(400);
        expect((await ctx.json(response)).message).toEqual(openApiMessage('frontNotLicence'));
        expect(jobs.length).toBe(before);
      });

      test('two fronts: 400', async () => {
        const response = await submit(fields(await l2()), { document: 1, documentFront: 2, selfie: 1 });
        expect(response.status).toBe(400);
        expect(JSON.stringify((await ctx.json(response)).message)).toMatch(/at most 1 documentFront part/);
      });

      test('face match off: the licence back alone is enough, and a front sent anyway is not passed on', async () => {
        const other = await ctx.tenant({ sandbox: true, domains: ['nofacematch.example.com'], name: 'No face match' });
        await ctx.database.db.update(tenants).set({ policyFaceMatchEnabled: false }).where(eq(tenants.id, other.tenantId));
        const make = async () =>
          ctx.json(
            await ctx.request('POST', '/api/v1/sessions/create', {
              key: other.publishableKey,
              body: { returnUrl: 'https://nofacematch.example.com/return', verificationMode: 'L2' },
            }),
          );
        const first = await make();
        expect(first.faceMatchEnabled).toBe(false);
        next.push({ ...licence(), portrait: null, frames: [] });
        expect((await submit(fields(first), { document: 1 })).status).toBe(200);
        next.push({ ...licence(), portrait: null, frames: [] });
        expect((await submit(fields(await make()), { document: 1, documentFront: 1 })).status).toBe(200);
        expect((jobs.at(-1) as Json).documentFront).toBeNull();
      });
    });

    test('a billing-blocked session never starts a check', async () => {
      const session = await create();
      await ctx.database.db
        .update(sessions)
        .set({ billingBlock: { code: 'SUBSCRIPTION_REQUIRED', message: 'x' } })
        .where(eq(sessions.id, session.sessionId));
      const before = jobs.length;
      const response = await submit({ sessionId: session.sessionId, sessionToken: session.sessionToken, check: 'age_estimation' });
      expect(response.status).toBe(403);
      expect(jobs.length).toBe(before);
    });

    test.each<[string, (s: Json) => Promise<Response>, number, RegExp]>([
      [
        'JSON instead of multipart',
        (s) => ctx.request('POST', '/api/v1/verify/checks', { body: { sessionId: s.sessionId, sessionToken: s.sessionToken, check: 'age_estimation' } }),
        415,
        /multipart\/form-data/,
      ],
      [
        'too many selfie frames',
        (s) => submit({ sessionId: s.sessionId, sessionToken: s.sessionToken, check: 'age_estimation' }, { selfie: 6 }),
        400,
        /at most 5 selfie parts/,
      ],
      ['no selfie', (s) => submit({ sessionId: s.sessionId, sessionToken: s.sessionToken, check: 'age_estimation' }, {}), 400, /at least one selfie/],
      ['an unknown check', (s) => submit({ sessionId: s.sessionId, sessionToken: s.sessionToken, check: 'palm_reading' }), 400, /check must be one of/],
      [
        'a document check on an L1 session',
        (s) => submit({ sessionId: s.sessionId, sessionToken: s.sessionToken, check: 'document', documentType: 'passport' }, { document: 1 }),
        409,
        /expects an age_estimation check/,
      ],
      ['a wrong token', (s) => submit({ sessionId: s.sessionId, sessionToken: 'nope', check: 'age_estimation' }), 401, /Invalid session token/],
      [
        'a body over the limit',
        (_s) =>
          ctx.app.handle(
            new Request('http://localhost:3000/api/v1/verify/checks', {
              method: 'POST',
              headers: { 'content-type': 'multipart/form-data; boundary=x', 'content-length': String(13 * 1024 * 1024) },
              body: 'x',
            }),
          ),
        413,
        /larger than/,
      ],
      [
        'a malformed multipart body',
        () =>
          ctx.app.handle(
            new Request('http://localhost:3000/api/v1/verify/checks', {
              method: 'POST',
              headers: { 'content-type': 'multipart/form-data; boundary=x' },
              body: 'not multipart',
            }),
          ),
        400,
        /Malformed multipart body/,
      ],
    ])('refuses %s with the error body', async (_, send, status, message) => {
      const session = await create();
      const before = jobs.length;
      const response = await send(session);
      expect(response.status).toBe(status);
      const body = await ctx.json(response);
      expect(body).toMatchObject({ statusCode: status, path: '/api/v1/verify/checks' });
      expect(typeof body.timestamp).toBe('string');
      expect(JSON.stringify(body.message)).toMatch(message);
      expect(jobs.length).toBe(before);
    });
  });
}
