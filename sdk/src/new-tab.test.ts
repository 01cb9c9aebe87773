import { describe, expect, test } from 'bun:test';
import { COMPLETE_MESSAGE_TYPE } from '@ageverify/protocol';
import type { Environment } from './environment';
import { CLOSED_POLL_MS, LATE_MESSAGE_GRACE_MS, popupFeatures, readCompleteMessage, watchVerificationWindow, type WindowOutcome } from './new-tab';
import type { CancelReport } from './session-api';
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

/** Lets promise callbacks (the cancel report's answer) run. */
const flush = () => new Promise<void>((resolve) => setTimeout(resolve, 0));

describe('watchVerificationWindow', () => {
  function watch(report: () => Promise<CancelReport> = async () => ({ kind: 'cancelled' }), win = new FakeWindow()) {
    const browser = new FakeBrowser();
    const outcomes: WindowOutcome[] = [];
    let reports = 0;
    const stop = watchVerificationWindow(browser.environment() as Environment, {
      win,
      verifyUrl: `${VERIFY_ORIGIN}/verify?sessionId=ses_1&sessionToken=t`,
      sessionId: 'ses_1',
      reportClosed: () => {
        reports += 1;
        return report();
      },
      onOutcome: (outcome) => outcomes.push(outcome),
    });
    return { browser, win, outcomes, stop, reports: () => reports };
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

  test('closing the window before any message is reported once, within one poll, after the cancel report', async () => {
    const { browser, win, outcomes, reports } = watch();
    browser.advance(CLOSED_POLL_MS * 3);
    expect(outcomes).toEqual([]);
    win.closed = true;
    browser.advance(CLOSED_POLL_MS);
    expect(reports()).toBe(1);
    await flush();
    expect(outcomes).toEqual([{ kind: 'closed' }]);
    browser.advance(CLOSED_POLL_MS * 10);
    await flush();
    expect(outcomes).toHaveLength(1);
    expect(reports()).toBe(1);
    expect(browser.listenerCount).toBe(0);
    expect(browser.pendingTimers).toBe(0);
  });

  test("the server's callback URL from the cancel report is passed on", async () => {
    const { browser, win, outcomes } = watch(async () => ({ kind: 'cancelled', redirectUrl: 'https://shop.example/c?status=cancelled' }));
    win.closed = true;
    browser.advance(CLOSED_POLL_MS);
    await flush();
    expect(outcomes).toEqual([{ kind: 'closed', redirectUrl: 'https://shop.example/c?status=cancelled' }]);
  });

  test('a window already closed when watching starts is reported without waiting for a poll', async () => {
    const win = new FakeWindow();
    win.closed = true;
    const { outcomes, reports } = watch(undefined, win);
    expect(reports()).toBe(1);
    await flush();
    expect(outcomes).toEqual([{ kind: 'closed' }]);
  });

  test('while the report is on its way, a late completion message still wins', async () => {
    let answer: (report: CancelReport) => void = () => {};
    const { browser, win, outcomes } = watch(() => new Promise((resolve) => (answer = resolve)));
    win.closed = true;
    browser.advance(CLOSED_POLL_MS);
    browser.post(VERIFY_ORIGIN, message());
    expect(outcomes).toEqual([{ kind: 'message', signal: { sessionId: 'ses_1', status: 'verified', timestamp: 1_700_000_000_000 } }]);
    answer({ kind: 'already-completed' });
    await flush();
    browser.advance(LATE_MESSAGE_GRACE_MS * 2);
    expect(outcomes).toHaveLength(1);
    expect(browser.pendingTimers).toBe(0);
  });

  test('409: a completion message within the grace period wins over the cancellation', async () => {
    const { browser, win, outcomes } = watch(async () => ({ kind: 'already-completed' }));
    win.closed = true;
    browser.advance(CLOSED_POLL_MS);
    await flush();
    expect(outcomes).toEqual([]);
    browser.advance(LATE_MESSAGE_GRACE_MS - 1);
    browser.post(VERIFY_ORIGIN, message({ status: 'failed' }));
    expect(outcomes).toMatchObject([{ kind: 'message', signal: { status: 'failed' } }]);
    browser.advance(LATE_MESSAGE_GRACE_MS);
    expect(outcomes).toHaveLength(1);
    expect(browser.pendingTimers).toBe(0);
  });

  test('409 and no message within the grace period: closed after all', async () => {
    const { browser, win, outcomes } = watch(async () => ({ kind: 'already-completed' }));
    win.closed = true;
    browser.advance(CLOSED_POLL_MS);
    await flush();
    browser.advance(LATE_MESSAGE_GRACE_MS - 1);
    expect(outcomes).toEqual([]);
    browser.advance(1);
    expect(outcomes).toEqual([{ kind: 'closed' }]);
    browser.post(VERIFY_ORIGIN, message());
    expect(outcomes).toHaveLength(1);
    expect(browser.listenerCount).toBe(0);
  });

  test('once the server confirmed the cancellation, a later message is ignored', async () => {
    const { browser, win, outcomes } = watch(async () => ({ kind: 'cancelled' }));
    win.closed = true;
    browser.advance(CLOSED_POLL_MS);
    await flush();
    browser.post(VERIFY_ORIGIN, message());
    expect(outcomes).toEqual([{ kind: 'closed' }]);
  });

  test.each([
    ['unconfirmed', async (): Promise<CancelReport> => ({ kind: 'unconfirmed' })],
    ['a rejected report', (): Promise<CancelReport> => Promise.reject(new Error('bug'))],
    [
      'a report that throws',
      (): Promise<CancelReport> => {
        throw new Error('bug');
      },
    ],
  ])('%s still ends as closed', async (_name, report) => {
    const { browser, win, outcomes } = watch(report);
    win.closed = true;
    browser.advance(CLOSED_POLL_MS);
    await flush();
    expect(outcomes).toEqual([{ kind: 'closed' }]);
  });

  test('stop() during the report: no outcome, nothing left behind', async () => {
    const { browser, win, outcomes, stop } = watch(async () => ({ kind: 'already-completed' }));
    win.closed = true;
    browser.advance(CLOSED_POLL_MS);
    stop();
    await flush();
    browser.advance(LATE_MESSAGE_GRACE_MS * 2);
    browser.post(VERIFY_ORIGIN, message());
    expect(outcomes).toEqual([]);
    expect(browser.pendingTimers).toBe(0);
    expect(browser.listenerCount).toBe(0);
  });

  test('after the message, closing the window is not a cancellation (and is not reported)', () => {
    const { browser, win, outcomes, reports } = watch();
    browser.post(VERIFY_ORIGIN, message({ status: 'failed' }));
    win.closed = true;
    browser.advance(CLOSED_POLL_MS * 4);
    browser.post(VERIFY_ORIGIN, message());
    expect(outcomes).toHaveLength(1);
    expect(outcomes[0]).toMatchObject({ kind: 'message', signal: { status: 'failed' } });
    expect(reports()).toBe(0);
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
