import { describe, expect, test } from 'bun:test';
import { errorMessageOf, isSimulateResult, isVerifySessionView } from './api';

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
  faceMatchEnabled: true,
  sandboxMode: true,
  expiresAt: '2030-01-01T00:00:00.000Z',
  billingBlock: null,
  redirectUrl: null,
};

describe('isVerifySessionView', () => {
  test('accepts the protocol shape', () => {
    expect(isVerifySessionView(view)).toBe(true);
    expect(isVerifySessionView({ ...view, merchantName: null, billingBlock: { code: 'PLAN_LIMIT_REACHED', message: 'm' } })).toBe(true);
  });
  const broken: Array<[string, unknown]> = [
    ['unknown state', { ...view, state: 'DONE' }],
    ['unknown mode', { ...view, verificationMode: 'L3' }],
    ['age as text', { ...view, challengeAge: '25' }],
    ['billing block without message', { ...view, billingBlock: { code: 'PLAN_LIMIT_REACHED' } }],
    ['missing sandboxMode', { ...view, sandboxMode: undefined }],
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
