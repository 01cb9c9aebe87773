import { describe, expect, test } from 'bun:test';
import { COMPLETE_MESSAGE_TYPE } from '@ageverify/protocol';
import type { Environment } from './environment';
import { CLOSED_POLL_MS, popupFeatures, readCompleteMessage, watchVerificationWindow, type WindowOutcome } from './new-tab';
import { FakeBrowser, FakeWindow, VERIFY_ORIGIN } from './testing/fake-environment';

const message = (overrides: Record<string, unknown> = {}) => ({
  type: COMPLETE_MESSAGE_TYPE,
  sessionId: 'ses_1',
  status: 'verified',
  timestamp: 1_700_000_000_000,
  redirectUrl: 'https://shop.example/done?sessionId=ses_1&status=verified',
  ...overrides,
});

describe('popupFeatures', () => {
  test('centers a popup over the current window', () => {
    expect(popupFeatures({ left: 100, top: 50, width: 1200, height: 900 })).toBe('width=500,height=760,left=450,top=120,resizable=yes,scrollbars=yes');
  });
  test('never places it off screen', () => {
    expect(popupFeatures({ left: 0, top: 0, width: 300, height: 300 })).toContain('left=0,top=0');
  });
  test('without a frame, only the size', () => {
    expect(popupFeatures(undefined)).toBe('width=500,height=760,resizable=yes,scrollbars=yes');
  });
  test('never asks for noopener: the UI needs window.opener to post its result', () => {
    expect(popupFeatures(undefined)).not.toContain('noopener');
  });
});

describe('readCompleteMessage', () => {
  test('reads the spec message', () => {
    expect(readCompleteMessage(message({ externalUserId: 'u1' }), 'ses_1')).toEqual({
      sessionId: 'ses_1',
      status: 'verified',
      timestamp: 1_700_000_000_000,
      externalUserId: 'u1',
    });
  });

  test.each([
    ['a string', 'service:verification:complete'],
    ['null', null],
    ['another type', message({ type: 'service:verification:started' })],
    ['another session', message({ sessionId: 'ses_2' })],
    ['no session', message({ sessionId: undefined })],
    ['an unknown status', message({ status: 'pending' })],
    ['a numeric status', message({ status: 1 })],
  ])('ignores %s', (_name, data) => {
    expect(readCompleteMessage(data, 'ses_1')).toBeUndefined();
  });

  test('drops malformed optional fields instead of passing them on', () => {
    expect(readCompleteMessage(message({ timestamp: '123', externalUserId: 5 }), 'ses_1')).toEqual({ sessionId: 'ses_1', status: 'verified' });
  });
});

describe('watchVerificationWindow', () => {
  function watch() {
    const browser = new FakeBrowser();
    const win = new FakeWindow();
    const outcomes: WindowOutcome[] = [];
    const stop = watchVerificationWindow(browser.environment() as Environment, {
      win,
      verifyUrl: `${VERIFY_ORIGIN}/verify?sessionId=ses_1&sessionToken=t`,
      sessionId: 'ses_1',
      onOutcome: (outcome) => outcomes.push(outcome),
    });
    return { browser, win, outcomes, stop };
  }

  test('a message from the verifyUrl origin completes', () => {
    const { browser, outcomes } = watch();
    browser.post(VERIFY_ORIGIN, message());
    expect(outcomes).toEqual([{ kind: 'message', signal: { sessionId: 'ses_1', status: 'verified', timestamp: 1_700_000_000_000 } }]);
    expect(browser.listenerCount).toBe(0);
    expect(browser.pendingTimers).toBe(0);
  });

  test.each([
    'https://evil.example',
    'https://verify.example.com.evil.example',
    'http://verify.example.com',
    'https://verify.example.com:444',
    'https://sub.verify.example.com',
    'https://shop.example',
    'null',
    '',
  ])('a message from %p is ignored', (origin) => {
    const { browser, outcomes } = watch();
    browser.post(origin, message());
    expect(outcomes).toEqual([]);
    expect(browser.listenerCount).toBe(1);
  });

  test('closing the window before any message is reported once, within one poll', () => {
    const { browser, win, outcomes } = watch();
    browser.advance(CLOSED_POLL_MS * 3);
    expect(outcomes).toEqual([]);
    win.closed = true;
    browser.advance(CLOSED_POLL_MS);
    expect(outcomes).toEqual([{ kind: 'closed' }]);
    browser.advance(CLOSED_POLL_MS * 10);
    expect(outcomes).toHaveLength(1);
    expect(browser.listenerCount).toBe(0);
  });

  test('after the message, closing the window is not a cancellation', () => {
    const { browser, win, outcomes } = watch();
    browser.post(VERIFY_ORIGIN, message({ status: 'failed' }));
    win.closed = true;
    browser.advance(CLOSED_POLL_MS * 4);
    browser.post(VERIFY_ORIGIN, message());
    expect(outcomes).toHaveLength(1);
    expect(outcomes[0]).toMatchObject({ kind: 'message', signal: { status: 'failed' } });
  });

  test('stop() ends listening and polling', () => {
    const { browser, win, outcomes, stop } = watch();
    stop();
    win.closed = true;
    browser.advance(CLOSED_POLL_MS * 4);
    browser.post(VERIFY_ORIGIN, message());
    expect(outcomes).toEqual([]);
    expect(browser.pendingTimers).toBe(0);
  });
});
