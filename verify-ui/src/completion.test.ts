import { describe, expect, test } from 'bun:test';
import { COMPLETE_MESSAGE_TYPE } from '@ageverify/protocol';
import type { CallbackStatus } from '@ageverify/protocol';
import { buildCompleteMessage, messageTargetOrigin, safeRedirectUrl, statusFromRedirect } from './completion';

describe('buildCompleteMessage', () => {
  test('takes timestamp and externalUserId from the callback URL', () => {
    const redirectUrl = 'https://shop.example/return?x=1&sessionId=ses_1&status=verified&timestamp=1700000000000&externalUserId=u-42';
    expect(buildCompleteMessage('ses_1', { redirectUrl, status: 'verified' }, 5)).toEqual({
      type: COMPLETE_MESSAGE_TYPE,
      sessionId: 'ses_1',
      status: 'verified',
      timestamp: 1700000000000,
      externalUserId: 'u-42',
      redirectUrl,
    });
  });

  test('falls back to the given clock and leaves externalUserId out when absent', () => {
    const message = buildCompleteMessage('ses_1', { redirectUrl: 'https://shop.example/cancel?status=cancelled', status: 'cancelled' }, 1234);
    expect(message.timestamp).toBe(1234);
    expect('externalUserId' in message).toBe(false);
  });
});

describe('messageTargetOrigin', () => {
  test('is the callback URL origin, never a wildcard', () => {
    expect(messageTargetOrigin('https://shop.example:8443/a/b?c=d')).toBe('https://shop.example:8443');
    expect(messageTargetOrigin('http://localhost:3000/return')).toBe('http://localhost:3000');
  });
});

describe('safeRedirectUrl', () => {
  const cases: Array<[string | null | undefined, string | null]> = [
    ['https://shop.example/return?status=verified', 'https://shop.example/return?status=verified'],
    ['http://localhost:5173/cb', 'http://localhost:5173/cb'],
    ['http://127.0.0.1/cb', 'http://127.0.0.1/cb'],
    ['http://shop.example/return', null],
    ['javascript:alert(1)', null],
    ['data:text/html,hi', null],
    ['https://user:pass@shop.example/', null],
    ['/relative', null],
    ['', null],
    [null, null],
    [undefined, null],
  ];
  for (const [input, expected] of cases) {
    test(`${JSON.stringify(input)} -> ${JSON.stringify(expected)}`, () => {
      expect(safeRedirectUrl(input)).toBe(expected);
    });
  }
});

describe('statusFromRedirect', () => {
  const cases: Array<[string | null, CallbackStatus | null]> = [
    ['https://shop.example/return?sessionId=ses_1&status=verified&timestamp=1', 'verified'],
    ['https://shop.example/return?status=failed', 'failed'],
    ['https://shop.example/cancel?status=cancelled', 'cancelled'],
    ['https://shop.example/return?status=pending', null],
    ['https://shop.example/return?status=VERIFIED', null],
    ['https://shop.example/return', null],
    ['not a url?status=verified', null],
    [null, null],
  ];
  for (const [input, expected] of cases) {
    test(`${JSON.stringify(input)} -> ${JSON.stringify(expected)}`, () => {
      expect(statusFromRedirect(input)).toBe(expected);
    });
  }
});
