import { describe, expect, test } from 'bun:test';
import {
  credentialBody,
  errorCodeOf,
  errorMessageOf,
  httpFailure,
  isLivenessChallenge,
  isSessionStatusResult,
  isSimulateResult,
  isVerifySessionView,
  retryAfterMsOf,
} from './api';

describe('errorMessageOf (spec "Error body")', () => {
  const cases: Array<[unknown, string | null]> = [
    [{ statusCode: 404, message: 'Session not found', timestamp: 't', path: '/p' }, 'Session not found'],
    [{ statusCode: 400, message: ['a is wrong', 'b is missing'] }, 'a is wrong; b is missing'],
    [{ message: '' }, null],
    [{ message: [1, null] }, null],
    [{ statusCode: 500 }, null],
    ['Session not found', null],
    [null, null],
  ];
  for (const [body, expected] of cases) {
    test(JSON.stringify(body), () => expect(errorMessageOf(body)).toBe(expected));
  }
});

const view = {
  sessionId: 'ses_1',
  state: 'PENDING',
  merchantName: 'Shop',
  verificationMode: 'L1',
  challengeAge: 25,
  legalMinimumAge: 18,
  faceMatchEnabled: true,
  sandboxMode: true,
  expiresAt: '2030-01-01T00:00:00.000Z',
  billingBlock: null,
  redirectUrl: null,
  handoffUrl: 'https://verify.example.com/verify?sessionId=ses_1&handoffToken=h',
  handoff: false,
};

describe('isVerifySessionView', () => {
  test('accepts the protocol shape', () => {
    expect(isVerifySessionView(view)).toBe(true);
    expect(isVerifySessionView({ ...view, merchantName: null, billingBlock: { code: 'PLAN_LIMIT_REACHED', message: 'm' } })).toBe(true);
    expect(isVerifySessionView({ ...view, handoffUrl: null, handoff: true })).toBe(true);
  });
  const broken: Array<[string, unknown]> = [
    ['unknown state', { ...view, state: 'DONE' }],
    ['unknown mode', { ...view, verificationMode: 'L3' }],
    ['age as text', { ...view, challengeAge: '25' }],
    ['missing legalMinimumAge (issue 23: the document check names it)', { ...view, legalMinimumAge: undefined }],
    ['billing block without message', { ...view, billingBlock: { code: 'PLAN_LIMIT_REACHED' } }],
    ['missing sandboxMode', { ...view, sandboxMode: undefined }],
    ['missing handoff', { ...view, handoff: undefined }],
    ['handoffUrl as a number', { ...view, handoffUrl: 1 }],
    ['not an object', 'PENDING'],
  ];
  for (const [name, value] of broken) test(`rejects ${name}`, () => expect(isVerifySessionView(value)).toBe(false));
});

describe('isSimulateResult', () => {
  test('needs a redirectUrl and a callback status', () => {
    expect(isSimulateResult({ redirectUrl: 'https://shop.example/r', status: 'failed' })).toBe(true);
    expect(isSimulateResult({ redirectUrl: 'https://shop.example/r', status: 'pending' })).toBe(false);
    expect(isSimulateResult({ status: 'verified' })).toBe(false);
  });
});

describe('isSessionStatusResult (POST /verify/status)', () => {
  test('accepts pending and terminal answers', () => {
    expect(isSessionStatusResult({ state: 'PENDING', status: null, redirectUrl: null })).toBe(true);
    expect(isSessionStatusResult({ state: 'VERIFIED', status: 'verified', redirectUrl: 'https://shop.example/r' })).toBe(true);
    expect(isSessionStatusResult({ state: 'EXPIRED', status: 'failed', redirectUrl: 'https://shop.example/r' })).toBe(true);
  });
  const broken: Array<[string, unknown]> = [
    ['unknown state', { state: 'DONE', status: null, redirectUrl: null }],
    ['status pending', { state: 'PENDING', status: 'pending', redirectUrl: null }],
    ['missing status', { state: 'PENDING', redirectUrl: null }],
    ['redirectUrl as a number', { state: 'VERIFIED', status: 'verified', redirectUrl: 1 }],
    ['null', null],
  ];
  for (const [name, value] of broken) test(`rejects ${name}`, () => expect(isSessionStatusResult(value)).toBe(false));
});

describe('credentialBody (the API takes exactly one token)', () => {
  test('desktop and phone bodies carry only their own token', () => {
    expect(credentialBody({ sessionId: 's', sessionToken: 't' })).toStrictEqual({ sessionId: 's', sessionToken: 't' });
    expect(credentialBody({ sessionId: 's', handoffToken: 'h' })).toStrictEqual({ sessionId: 's', handoffToken: 'h' });
  });
  test('extra fields do not ride along', () => {
    const loose = { sessionId: 's', handoffToken: 'h', outcome: 'verified', returnUrl: 'https://evil.example' };
    expect(credentialBody(loose)).toStrictEqual({ sessionId: 's', handoffToken: 'h' });
  });
});

describe('retryAfterMsOf (spec "Limits": X-RateLimit-Retry-After in seconds)', () => {
  const cases: Array<[Record<string, string>, number | undefined]> = [
    [{ 'X-RateLimit-Retry-After': '42' }, 42_000],
    [{ 'X-RateLimit-Retry-After': '0.5' }, 500],
    [{ 'Retry-After': '7' }, 7_000],
    [{ 'Retry-After': 'Wed, 21 Oct 2015 07:28:00 GMT' }, undefined],
    [{ 'X-RateLimit-Retry-After': '-1' }, undefined],
    [{ 'X-RateLimit-Retry-After': '' }, undefined],
    [{}, undefined],
  ];
  for (const [headers, expected] of cases) {
    test(JSON.stringify(headers), () => expect(retryAfterMsOf(new Headers(headers))).toBe(expected));
  }
});

describe('isLivenessChallenge (protocol/src/liveness.ts)', () => {
  const good = { challengeId: 'chl_1', moves: ['left', 'right'], expiresAt: '2026-11-25T12:01:30.000Z' };
  test("accepts the route's answer", () => expect(isLivenessChallenge(good)).toBe(true));
  const bad: Array<[string, unknown]> = [
    ['null', null],
    ['no id', { ...good, challengeId: '' }],
    ['no moves', { ...good, moves: [] }],
    ['a move the UI cannot show', { ...good, moves: ['left', 'up'] }],
    ['moves not a list', { ...good, moves: 'left,right' }],
    ['no expiry', { ...good, expiresAt: undefined }],
    ['an expiry that is not a date', { ...good, expiresAt: 'soon' }],
  ];
  for (const [name, value] of bad) test(`refuses ${name}`, () => expect(isLivenessChallenge(value)).toBe(false));
});

describe("errorCodeOf and httpFailure (the error body's code)", () => {
  const noHeaders = { get: () => null };
  test('the code is read where the body carries one', () =>
    expect(errorCodeOf({ statusCode: 409, message: 'm', code: 'CHALLENGE_NOT_CURRENT' })).toBe('CHALLENGE_NOT_CURRENT'));
  for (const body of [null, 'text', { code: 7 }, { code: '' }, { message: 'm' }])
    test(`no code in ${JSON.stringify(body)}`, () => expect(errorCodeOf(body)).toBeUndefined());
  test('a 409 refusal keeps message and code', () =>
    expect(httpFailure(409, { message: 'The challenge has expired', code: 'CHALLENGE_EXPIRED' }, noHeaders)).toEqual({
      kind: 'http',
      status: 409,
      message: 'The challenge has expired',
      code: 'CHALLENGE_EXPIRED',
    }));
  test('a body without a code gives a failure without one', () =>
    expect(httpFailure(404, { message: 'Session not found' }, noHeaders)).not.toHaveProperty('code'));
});
