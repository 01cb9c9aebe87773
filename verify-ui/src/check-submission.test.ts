import { describe, expect, test } from 'bun:test';
import { CHECK_LIMITS, parseSelfieSteps, type CheckResult } from '@ageverify/protocol';
import { checkFormData, interpretCheckResponse, isCheckResult, type CheckSubmission } from './check-submission';
import type { ChallengeFrames } from './liveness-capture';

const jpeg = () => new Blob([new Uint8Array([0xff, 0xd8, 0xff])], { type: 'image/jpeg' });
/** The frames of one liveness challenge (protocol/src/liveness.ts), `steps` one per frame. */
const challengeFrames = (steps: number[], challengeId = 'chl_1'): ChallengeFrames => ({ challengeId, frames: steps.map(jpeg), steps });
const desktop = { sessionId: 'ses_1', sessionToken: 'tok' };
const noHeaders = { get: () => null };

describe('checkFormData (protocol/src/checks.ts wire format)', () => {
  test('L1: credentials, check, the challenge and its steps, then the selfie frames in order', () => {
    const form = checkFormData({ credentials: desktop, check: 'age_estimation', selfie: challengeFrames([0, 1, 2]), document: null });
    expect([...form.keys()]).toEqual(['sessionId', 'sessionToken', 'check', 'challengeId', 'selfieSteps', 'selfie', 'selfie', 'selfie']);
    expect(form.get('check')).toBe('age_estimation');
    expect(form.get('challengeId')).toBe('chl_1');
    expect(form.get('selfieSteps')).toBe('0,1,2');
    expect((form.getAll('selfie') as File[]).map((file) => file.name)).toEqual(['selfie-1.jpg', 'selfie-2.jpg', 'selfie-3.jpg']);
    expect(form.has('documentType')).toBe(false);
  });

  test('a whole challenge: LIVENESS_CAPTURE frames, the steps as the protocol parses them', () => {
    const steps = [0, 0, 1, 1, 1, 2, 2, 2];
    const form = checkFormData({ credentials: desktop, check: 'age_estimation', selfie: challengeFrames(steps), document: null });
    expect(form.getAll('selfie')).toHaveLength(CHECK_LIMITS.maxSelfieFrames);
    expect(parseSelfieSteps(form.get('selfieSteps') as string)).toEqual(steps);
  });

  test('document with face match: one submission carries the document and the selfie', () => {
    const form = checkFormData({
      credentials: { sessionId: 'ses_1', handoffToken: 'h' },
      check: 'document',
      documentType: 'passport',
      selfie: challengeFrames([0]),
      document: jpeg(),
    });
    expect([...form.keys()]).toEqual(['sessionId', 'handoffToken', 'check', 'documentType', 'challengeId', 'selfieSteps', 'document', 'selfie']);
    expect(form.get('documentType')).toBe('passport');
    expect(form.has('sessionToken')).toBe(false);
  });

  test('document without face match sends no selfie part', () => {
    const form = checkFormData({ credentials: desktop, check: 'document', documentType: 'driving_licence', selfie: null, document: jpeg() });
    expect(form.getAll('selfie')).toEqual([]);
    expect(form.has('challengeId')).toBe(false);
    expect(form.has('selfieSteps')).toBe(false);
    expect((form.get('document') as File).name).toBe('document.jpg');
  });

  test('a licence with face match: the back as document, the front as documentFront, then the selfie', async () => {
    const back = new Blob([new Uint8Array([0xff, 0xd8, 0xff, 1])], { type: 'image/jpeg' });
    const front = new Blob([new Uint8Array([0xff, 0xd8, 0xff, 2])], { type: 'image/png' });
    const form = checkFormData({
      credentials: desktop,
      check: 'document',
      documentType: 'driving_licence',
      selfie: challengeFrames([0]),
      document: back,
      documentFront: front,
    });
    expect([...form.keys()]).toEqual([
      'sessionId',
      'sessionToken',
      'check',
      'documentType',
      'challengeId',
      'selfieSteps',
      'document',
      'documentFront',
      'selfie',
    ]);
    expect((form.get('document') as File).size).toBe(4);
    expect(new Uint8Array(await (form.get('documentFront') as File).arrayBuffer())[3]).toBe(2);
    expect((form.get('documentFront') as File).name).toBe('document-front.png');
  });

  const misuse: Array<[string, CheckSubmission, RegExp]> = [
    [
      'a front with a passport',
      { credentials: desktop, check: 'document', documentType: 'passport', selfie: challengeFrames([0]), document: jpeg(), documentFront: jpeg() },
      /documentFront image only with a driving licence/,
    ],
    ['document without image', { credentials: desktop, check: 'document', documentType: 'passport', selfie: null, document: null }, /document image/],
    ['document without type', { credentials: desktop, check: 'document', selfie: null, document: jpeg() }, /documentType/],
    ['L1 without a selfie', { credentials: desktop, check: 'age_estimation', selfie: null, document: null }, /at least one selfie frame/],
    ['L1 without frames', { credentials: desktop, check: 'age_estimation', selfie: challengeFrames([]), document: null }, /at least one selfie frame/],
    [
      'too many frames',
      {
        credentials: desktop,
        check: 'age_estimation',
        selfie: challengeFrames(Array.from({ length: CHECK_LIMITS.maxSelfieFrames + 1 }, () => 0)),
        document: null,
      },
      new RegExp(`at most ${CHECK_LIMITS.maxSelfieFrames} selfie frames, got ${CHECK_LIMITS.maxSelfieFrames + 1}`),
    ],
    [
      'fewer steps than frames',
      { credentials: desktop, check: 'age_estimation', selfie: { ...challengeFrames([0, 1, 2]), steps: [0, 1] }, document: null },
      /one challenge step per selfie frame, got 2 steps for 3 frames/,
    ],
    ['frames without a challenge', { credentials: desktop, check: 'age_estimation', selfie: challengeFrames([0], ''), document: null }, /challengeId/],
  ];
  for (const [name, submission, message] of misuse) test(`refuses ${name}`, () => expect(() => checkFormData(submission)).toThrow(message));
});

describe('isCheckResult', () => {
  const good: CheckResult[] = [
    { decision: 'verified', status: 'verified', redirectUrl: 'https://m.example/r' },
    { decision: 'failed', status: 'failed', reason: 'too_many_attempts', redirectUrl: 'https://m.example/r' },
    { decision: 'retry', hint: 'too_dark', part: 'selfie', attemptsLeft: 2 },
    { decision: 'step_up', next: 'document' },
  ];
  for (const result of good) test(`accepts ${JSON.stringify(result)}`, () => expect(isCheckResult(result)).toBe(true));
  const bad: unknown[] = [
    null,
    { decision: 'verified', status: 'failed', redirectUrl: 'x' },
    { decision: 'failed', status: 'failed', reason: 'because', redirectUrl: 'x' },
    { decision: 'failed', status: 'failed', reason: 'age_not_met' },
    { decision: 'retry', hint: 'engine_internal_code', part: 'selfie', attemptsLeft: 1 },
    { decision: 'retry', hint: 'too_dark', part: 'passport', attemptsLeft: 1 },
    { decision: 'retry', hint: 'too_dark', attemptsLeft: 1 },
    { decision: 'retry', hint: 'too_dark', attemptsLeft: -1 },
    { decision: 'step_up', next: 'age_estimation' },
    { decision: 'maybe' },
  ];
  for (const value of bad) test(`refuses ${JSON.stringify(value)}`, () => expect(isCheckResult(value)).toBe(false));
});

describe('interpretCheckResponse', () => {
  test('a 200 CheckResult', () =>
    expect(interpretCheckResponse(200, '{"decision":"step_up","next":"document"}', noHeaders)).toEqual({
      ok: true,
      value: { decision: 'step_up', next: 'document' },
    }));
  test('a 200 with another body is invalid', () =>
    expect(interpretCheckResponse(200, '{}', noHeaders)).toEqual({ ok: false, failure: { kind: 'invalid-response', status: 200 } }));
  test('status 0 is the network', () => expect(interpretCheckResponse(0, '', noHeaders)).toEqual({ ok: false, failure: { kind: 'network' } }));
  test('413 with the error body', () =>
    expect(interpretCheckResponse(413, '{"statusCode":413,"message":"Too large"}', noHeaders)).toEqual({
      ok: false,
      failure: { kind: 'http', status: 413, message: 'Too large' },
    }));
  test("409 keeps the body's code (a refused liveness challenge)", () =>
    expect(interpretCheckResponse(409, '{"statusCode":409,"message":"The challenge has expired","code":"CHALLENGE_EXPIRED"}', noHeaders)).toEqual({
      ok: false,
      failure: { kind: 'http', status: 409, message: 'The challenge has expired', code: 'CHALLENGE_EXPIRED' },
    }));
  test('429 keeps Retry-After', () =>
    expect(interpretCheckResponse(429, 'busy', { get: (name: string) => (name === 'retry-after' ? '3' : null) })).toEqual({
      ok: false,
      failure: { kind: 'http', status: 429, message: null, retryAfterMs: 3000 },
    }));
});
