/**
 * The submission route end to end with a stand-in engine (findings chosen by the test): decisions
 * applied through the state machine, caps, step-up, the 503 of a full queue and bad input.
 * engine.test.ts runs the real models.
 */
import { afterAll, beforeAll, beforeEach, describe, expect, test } from 'bun:test';
import { eq } from 'drizzle-orm';
import { CHECK_ATTEMPT_LIMITS, CHECK_LIMITS, LIVENESS_CAPTURE } from '@ageverify/protocol';
import { TARGETS } from '../../../testing/test-databases';
import { createTestContext, type TestContext } from '../../../testing/test-app';
import { events, sessions, tenants } from '../../../db/schema';
import { EngineBusy, EngineRefused, EngineTimeout } from '../runtime/engine-pool';
import { MAX_JPEG_SCANS } from '../image-decoding';
import { manyScanJpeg } from '../hostile-jpeg.test-support';
import { CHECK_CLAIM_LEASE_MS, claimCheck, heldBy } from './check-claim';
import { ERROR_EXAMPLES } from '../../../http/openapi-errors';
import type { DocumentFindings, EngineFindings } from '../model';
import type { FaceAnalysis, FaceMeasurement } from '../faces/face-analysis';
import { flatLandmarks, liveHeadFrames } from '../liveness/testing/synthetic-head';
import type { ChallengeMove } from '@ageverify/protocol';

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
    embedding: [1, 0],
    alignedSharpness: 120,
    ...change,
  },
});
const age = (estimatedAge: number, change: Partial<FaceMeasurement> = {}): EngineFindings => ({
  kind: 'age_estimation',
  frames: [face(estimatedAge, change) as never],
});
const passport = (birthDate: string, valid = true): DocumentFindings => ({
  kind: 'document',
  documentType: 'passport',
  reading: { source: 'mrz', found: true, format: 'TD3', valid, invalidFields: [], birthDate, expirationDate: '300101', documentCode: 'P', agreeing: 2 },
  portrait: face(30) as never,
  // Another photo of the same person: similar (0.8), not a copy of the portrait (face-match.ts).
  frames: [face(30, { embedding: [0.8, 0.6] }) as never],
});

const licence = (): DocumentFindings => ({
  kind: 'document',
  documentType: 'driving_licence',
  reading: { source: 'pdf417', found: true, valid: true, birthDate: '1990-01-31', expirationDate: '2030-01-31' },
  portrait: face(30) as never,
  // Another photo of the same person: similar (0.8), not a copy of the portrait (face-match.ts).
  frames: [face(30, { embedding: [0.8, 0.6] }) as never],
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
    /** The moves of the last challenge a submission answered (submit fetches one for its selfies). */
    let lastMoves: ChallengeMove[] = [];
    /**
     * A queued finding with one selfie frame stands for a live user: the engine reports that frame's
     * measurements on every frame of a head following the last challenge (synthetic-head.ts), so the
     * liveness gate really runs. Tests of the gate itself queue their own frames.
     */
    const asLive = (findings: EngineFindings, selfies: number): EngineFindings =>
      findings.frames.length === 1 && selfies === CHECK_LIMITS.maxSelfieFrames
        ? { ...findings, frames: liveHeadFrames(findings.frames[0] as FaceAnalysis, lastMoves).frames }
        : findings;
    const engine = {
      run: async (job: unknown) => {
        jobs.push(job);
        jobStarted();
        if (gate) await gate;
        const findings = next.shift();
        if (!findings) throw new Error('test engine: no findings queued');
        if (findings instanceof Error) throw findings;
        return { findings: asLive(findings, (job as { selfies?: unknown[] }).selfies?.length ?? 0), timings: {} };
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
    /** The session's liveness challenge, asked for with the submission's own credentials. */
    const challengeFor = async (fields: Record<string, string>): Promise<Json | null> => {
      const { sessionId, sessionToken, handoffToken } = fields;
      const response = await ctx.request('POST', '/api/v1/verify/challenges', { body: { sessionId, ...(sessionToken ? { sessionToken } : { handoffToken }) } });
      // Refused (a wrong token, a blocked session): the submission goes without one and is refused in turn.
      return response.status === 200 ? ctx.json(response) : null;
    };
    const STEPS = [
      ...Array.from({ length: LIVENESS_CAPTURE.baselineFrames }, () => 0),
      ...Array.from({ length: LIVENESS_CAPTURE.framesPerMove }, () => 1),
      ...Array.from({ length: LIVENESS_CAPTURE.framesPerMove }, () => 2),
    ];
    /**
     * Selfies answer a fresh liveness challenge, as the verify UI sends them (a full capture,
     * tagged by step), unless the fields carry their own challengeId or `{ selfie: n }` is sent
     * with `challenge: false`.
     */
    const submit = async (fields: Record<string, string>, parts: Record<string, number> = { selfie: 1 }, options: { challenge?: boolean } = {}) => {
      const form = new FormData();
      for (const [name, value] of Object.entries(fields)) form.append(name, value);
      const challenge = (parts.selfie ?? 0) > 0 && options.challenge !== false && !('challengeId' in fields) ? await challengeFor(fields) : null;
      if (challenge) {
        lastMoves = challenge.moves;
        form.append('challengeId', challenge.challengeId);
        form.append('selfieSteps', STEPS.join(','));
        parts = { ...parts, selfie: STEPS.length };
      }
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

    /** A tenant that does not allow step-up, and a session of it. */
    const strictSession = async (body: Json = {}) => {
      const strict = await ctx.tenant({ sandbox: true, domains: ['strict-cap.example.com'], name: 'Strict cap' });
      await ctx.database.db.update(tenants).set({ policyStepUpAllowed: false }).where(eq(tenants.id, strict.tenantId));
      return ctx.json(
        await ctx.request('POST', '/api/v1/sessions/create', { key: strict.publishableKey, body: { returnUrl: 'https://strict-cap.example.com/r', ...body } }),
      );
    };
    /** Frames of a flat picture: every frame the frontal mesh, shifted a little, whatever the step. */
    const flatFrames = (change: Partial<FaceMeasurement> = {}): EngineFindings => ({
      kind: 'age_estimation',
      frames: STEPS.map((_, i) => ({ ...face(40, change), face: { ...face(40, change).face, landmarks: flatLandmarks(i * 3, 1 + i * 0.01) } }) as never),
    });

    test('quality retries count down; at the cap of an L1 session whose tenant allows step-up, the user goes on with a document, with retries of its own (decision 0062)', async () => {
      const session = await create();
      const credentials = { sessionId: session.sessionId, sessionToken: session.sessionToken, check: 'age_estimation' };
      for (let left = CHECK_ATTEMPT_LIMITS.qualityRetries - 1; left >= 1; left--) {
        next.push(age(40, { brightness: 10 }));
        expect(await ctx.json(await submit(credentials))).toEqual({ decision: 'retry', hint: 'too_dark', part: 'selfie', attemptsLeft: left });
      }
      next.push(age(40, { sharpness: 1 }));
      expect(await ctx.json(await submit(credentials))).toEqual({ decision: 'step_up', next: 'document' });
      const stepped = await row(session.sessionId);
      expect([stepped.state, stepped.checkStage, stepped.checkRetries]).toEqual(['PENDING', 'document', 0]);
      next.push({ ...passport('900101'), reading: null });
      expect(await ctx.json(await submit({ ...credentials, check: 'document', documentType: 'passport' }, { document: 1, selfie: 1 }))).toMatchObject({
        decision: 'retry',
        part: 'document',
        attemptsLeft: CHECK_ATTEMPT_LIMITS.qualityRetries - 1,
      });
    });

    test('without step-up the cap fails the session: too_many_attempts after quality retries', async () => {
      const session = await strictSession();
      const credentials = { sessionId: session.sessionId, sessionToken: session.sessionToken, check: 'age_estimation' };
      for (let i = 0; i < CHECK_ATTEMPT_LIMITS.qualityRetries - 1; i++) {
        next.push(age(40, { brightness: 10 }));
        expect((await ctx.json(await submit(credentials))).decision).toBe('retry');
      }
      next.push({ kind: 'age_estimation', frames: [{ faceCount: 0, face: null }] });
      expect(await ctx.json(await submit(credentials))).toMatchObject({ decision: 'failed', reason: 'too_many_attempts' });
      expect((await row(session.sessionId)).failureReason).toBe('too_many_attempts');
    });

    test('a flat picture moved between frames is a retry (challenge_not_followed); without step-up, the cap fails it as liveness_failed', async () => {
      const session = await strictSession();
      const credentials = { sessionId: session.sessionId, sessionToken: session.sessionToken, check: 'age_estimation' };
      for (let left = CHECK_ATTEMPT_LIMITS.qualityRetries - 1; left >= 1; left--) {
        next.push(flatFrames());
        expect(await ctx.json(await submit(credentials))).toEqual({ decision: 'retry', hint: 'challenge_not_followed', part: 'selfie', attemptsLeft: left });
      }
      next.push(flatFrames());
      expect(await ctx.json(await submit(credentials))).toMatchObject({ decision: 'failed', reason: 'liveness_failed' });
      const failed = (await ctx.database.db.select().from(events).where(eq(events.sessionId, session.sessionId))).find((e) => e.kind === 'verification.failed');
      expect(JSON.stringify(failed?.data)).toContain('liveness_failed');
    });

    test('the head turned the other way than asked, or another face in the turns, is a retry; the age decides nothing then', async () => {
      const session = await create();
      const credentials = { sessionId: session.sessionId, sessionToken: session.sessionToken, check: 'age_estimation' };
      // An estimate well over the bar: only the liveness gate stands between it and verified.
      const reversed = (moves: ChallengeMove[]): EngineFindings => ({
        kind: 'age_estimation',
        frames: liveHeadFrames(face(60) as FaceAnalysis, [...moves].reverse()).frames,
      });
      const challenge = (await challengeFor(credentials))!;
      next.push(reversed(challenge.moves));
      expect(
        await ctx.json(await submit({ ...credentials, challengeId: challenge.challengeId, selfieSteps: STEPS.join(',') }, { selfie: STEPS.length })),
      ).toMatchObject({ decision: 'retry', hint: 'challenge_not_followed' });
      const second = (await challengeFor(credentials))!;
      const live = liveHeadFrames(face(60) as FaceAnalysis, second.moves).frames;
      next.push({ kind: 'age_estimation', frames: live.map((frame, i) => (i < 2 ? frame : { ...frame, face: { ...frame.face!, embedding: [0, 1] } })) });
      expect(
        await ctx.json(await submit({ ...credentials, challengeId: second.challengeId, selfieSteps: STEPS.join(',') }, { selfie: STEPS.length })),
      ).toMatchObject({ decision: 'retry', hint: 'face_changed' });
      expect((await row(session.sessionId)).state).toBe('PENDING');
    });

    describe('the liveness challenge (decision 0062)', () => {
      const credentialsOf = (session: Json) => ({ sessionId: session.sessionId, sessionToken: session.sessionToken, check: 'age_estimation' });
      const answer = (session: Json, challengeId: string) =>
        submit({ ...credentialsOf(session), challengeId, selfieSteps: STEPS.join(',') }, { selfie: STEPS.length });

      test('is issued bound to the session: a random order of both turns and an expiry', async () => {
        const session = await create();
        const challenge = (await challengeFor(credentialsOf(session)))!;
        expect(challenge.moves.toSorted()).toEqual(['left', 'right']);
        expect(Date.parse(challenge.expiresAt) - ctx.clock.now().getTime()).toBe(LIVENESS_CAPTURE.ttlSeconds * 1000);
        const stored = await row(session.sessionId);
        expect([stored.challengeId, stored.challengeMoves]).toEqual([challenge.challengeId, challenge.moves]);
      });

      test('selfies without a challenge: 400 CHALLENGE_REQUIRED before the engine', async () => {
        const session = await create();
        const before = jobs.length;
        const response = await submit(credentialsOf(session), { selfie: 2 }, { challenge: false });
        expect(response.status).toBe(400);
        expect(await ctx.json(response)).toMatchObject({ code: 'CHALLENGE_REQUIRED', message: [openApiMessage('challengeRequired')[0]] });
        expect(jobs.length).toBe(before);
      });

      test('is used once: a replay is 409 CHALLENGE_NOT_CURRENT, never reaches the engine and costs no attempt', async () => {
        const session = await create();
        const challenge = (await challengeFor(credentialsOf(session)))!;
        lastMoves = challenge.moves;
        next.push(age(27, { brightness: 10 }));
        expect((await ctx.json(await answer(session, challenge.challengeId))).decision).toBe('retry');
        const before = jobs.length;
        const replay = await answer(session, challenge.challengeId);
        expect(replay.status).toBe(409);
        expect(await ctx.json(replay)).toMatchObject({ code: 'CHALLENGE_NOT_CURRENT' });
        expect(jobs.length).toBe(before);
        expect((await row(session.sessionId)).checkRetries).toBe(1);
      });

      test('a challenge replaced by a newer one is refused (CHALLENGE_NOT_CURRENT); the newer one works', async () => {
        const session = await create();
        const older = (await challengeFor(credentialsOf(session)))!;
        const newer = (await challengeFor(credentialsOf(session)))!;
        expect(await ctx.json(await answer(session, older.challengeId))).toMatchObject({ statusCode: 409, code: 'CHALLENGE_NOT_CURRENT' });
        lastMoves = newer.moves;
        next.push(age(31));
        expect(await ctx.json(await answer(session, newer.challengeId))).toMatchObject({ decision: 'verified' });
      });

      test('a late challenge is 409 CHALLENGE_EXPIRED, and the claim is let go so a new one can run', async () => {
        const session = await create();
        const challenge = (await challengeFor(credentialsOf(session)))!;
        ctx.clock.advance(LIVENESS_CAPTURE.ttlSeconds * 1000 + 1);
        const late = await answer(session, challenge.challengeId);
        expect(late.status).toBe(409);
        expect(await ctx.json(late)).toMatchObject({ code: 'CHALLENGE_EXPIRED', message: 'This liveness challenge has expired; ask for a new one' });
        const stored = await row(session.sessionId);
        expect([stored.checkClaimId, stored.checkRetries]).toEqual([null, 0]);
        next.push(age(31));
        expect((await ctx.json(await submit(credentialsOf(session)))).decision).toBe('verified');
      });

      test('no challenge for a session that is over', async () => {
        const session = await create();
        next.push(age(31));
        expect((await ctx.json(await submit(credentialsOf(session)))).decision).toBe('verified');
        const response = await ctx.request('POST', '/api/v1/verify/challenges', { body: { sessionId: session.sessionId, sessionToken: session.sessionToken } });
        expect(response.status).toBe(409);
        expect((await ctx.json(response)).message).toBe('Session is already completed (status verified)');
      });

      test('a document check with face match needs one for its selfies; its face match counts only for a live head', async () => {
        const session = await create({ verificationMode: 'L2', faceMatchEnabled: true });
        const fields = { sessionId: session.sessionId, sessionToken: session.sessionToken, check: 'document', documentType: 'passport' };
        expect(await ctx.json(await submit(fields, { document: 1, selfie: 1 }, { challenge: false }))).toMatchObject({ code: 'CHALLENGE_REQUIRED' });
        next.push({ ...passport('900101'), frames: flatFrames({ embedding: [0.8, 0.6] }).frames });
        expect(await ctx.json(await submit(fields, { document: 1, selfie: 1 }))).toMatchObject({
          decision: 'retry',
          hint: 'challenge_not_followed',
          part: 'selfie',
        });
        next.push(passport('900101'));
        expect(await ctx.json(await submit(fields, { document: 1, selfie: 1 }))).toMatchObject({ decision: 'verified' });
      });

      test('a document check with face match off needs none: its selfies are not looked at', async () => {
        const other = await ctx.tenant({ sandbox: true, domains: ['nofm.example.com'], name: 'No face match here' });
        await ctx.database.db.update(tenants).set({ policyFaceMatchEnabled: false }).where(eq(tenants.id, other.tenantId));
        const session = await ctx.json(
          await ctx.request('POST', '/api/v1/sessions/create', {
            key: other.publishableKey,
            body: { returnUrl: 'https://nofm.example.com/r', verificationMode: 'L2' },
          }),
        );
        next.push({ ...passport('900101'), portrait: null, frames: [] });
        const fields = { sessionId: session.sessionId, sessionToken: session.sessionToken, check: 'document', documentType: 'passport' };
        expect(await ctx.json(await submit(fields, { document: 1 }))).toMatchObject({ decision: 'verified' });
      });
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
      // One challenge for all of them, as an attacker racing one capture would send it.
      const challenge = (await challengeFor({ sessionId: session.sessionId, sessionToken: session.sessionToken }))!;
      lastMoves = challenge.moves;
      const fields = {
        sessionId: session.sessionId,
        sessionToken: session.sessionToken,
        check: 'age_estimation',
        challengeId: challenge.challengeId,
        selfieSteps: STEPS.join(','),
      };
      try {
        const responses = await Promise.all(
          Array.from({ length: parallel }, () =>
            submit(fields, { selfie: STEPS.length }).then((response) => {
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
        // (The capture of a liveness challenge: submit sends its full frame count.)
        expect(await ctx.json(response)).toMatchObject({ decision: 'verified' });
        const job = jobs.at(-1) as Json;
        expect(job).toMatchObject({ kind: 'document', documentType: 'driving_licence', faceMatch: true });
        // The parts arrive in their own slots: the back as document, the front as documentFront, the
        // selfies in their order. The bytes differ per part, so a swap of any two fails here.
        expect([...job.document]).toEqual(partBytes('document', 0));
        expect([...job.documentFront]).toEqual(partBytes('documentFront', 0));
        expect(job.selfies.map((selfie: Uint8Array) => [...selfie])).toEqual(STEPS.map((_, i) => partBytes('selfie', i)));
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
        (s) =>
          submit(
            { sessionId: s.sessionId, sessionToken: s.sessionToken, check: 'age_estimation' },
            { selfie: CHECK_LIMITS.maxSelfieFrames + 1 },
            { challenge: false },
          ),
        400,
        new RegExp(`at most ${CHECK_LIMITS.maxSelfieFrames} selfie parts`),
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
