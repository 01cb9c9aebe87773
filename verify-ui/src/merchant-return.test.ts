import { describe, expect, test } from 'bun:test';
import { COMPLETE_MESSAGE_TYPE, type SimulateResult } from '@ageverify/protocol';
import { CLOSE_CHECK_MS, MerchantReturn, RESULT_SCREEN_MS, ReturnChannel, type OpenerWindow } from './merchant-return';

const result: SimulateResult = {
  status: 'verified',
  redirectUrl: 'https://shop.example:8443/return?sessionId=ses_1&status=verified&timestamp=1700000000000',
};

/** Fake timers and window; records what the page was asked to do, and when. */
class Harness {
  time = 0;
  windowClosesWhenAsked = true;
  windowClosed = false;
  opener: OpenerWindow | null = null;
  readonly navigations: Array<[number, string]> = [];
  readonly closes: number[] = [];
  readonly refusals: number[] = [];
  private timers: Array<{ id: number; at: number; callback: () => void }> = [];
  private nextId = 1;
  readonly merchantReturn = new MerchantReturn({
    opener: () => this.opener,
    navigate: (url) => void this.navigations.push([this.time, url]),
    closeWindow: () => {
      this.closes.push(this.time);
      if (this.windowClosesWhenAsked) this.windowClosed = true;
    },
    isWindowClosed: () => this.windowClosed,
    setTimeout: (callback, ms) => {
      const id = this.nextId++;
      this.timers.push({ id, at: this.time + ms, callback });
      return id;
    },
    clearTimeout: (id) => {
      this.timers = this.timers.filter((timer) => timer.id !== id);
    },
    now: () => 42,
    onCloseRefused: () => void this.refusals.push(this.time),
  });

  get pendingTimers(): number {
    return this.timers.length;
  }

  advance(ms: number): void {
    const end = this.time + ms;
    for (;;) {
      const due = this.timers.filter((t) => t.at <= end).sort((a, b) => a.at - b.at)[0];
      if (!due) break;
      this.timers = this.timers.filter((t) => t !== due);
      this.time = due.at;
      due.callback();
    }
    this.time = end;
  }
}

/** An opener that records its messages, or throws like one that can no longer be reached. */
function fakeOpener(behaviour: 'answers' | 'throws'): OpenerWindow & { messages: Array<[unknown, string]> } {
  const messages: Array<[unknown, string]> = [];
  return {
    messages,
    postMessage(message, targetOrigin) {
      if (behaviour === 'throws') throw new Error('opener is gone');
      messages.push([message, targetOrigin]);
    },
  };
}

describe('MerchantReturn, redirect channel', () => {
  test('without an opener this tab goes to the callback URL once the result screen has been up', () => {
    const h = new Harness();
    expect(h.merchantReturn.start('ses_1', result, false)).toBe(ReturnChannel.redirect);
    h.advance(RESULT_SCREEN_MS - 1);
    expect(h.navigations).toEqual([]);
    h.advance(1);
    expect(h.navigations).toEqual([[RESULT_SCREEN_MS, result.redirectUrl]]);
    expect(h.pendingTimers).toBe(0);
  });

  test('auto_return=true goes at once', () => {
    const h = new Harness();
    h.merchantReturn.start('ses_1', result, true);
    h.advance(0);
    expect(h.navigations).toEqual([[0, result.redirectUrl]]);
  });

  test('an opener that cannot be reached falls back to the redirect', () => {
    const h = new Harness();
    h.opener = fakeOpener('throws');
    expect(h.merchantReturn.start('ses_1', result, false)).toBe(ReturnChannel.redirect);
    h.advance(RESULT_SCREEN_MS);
    expect(h.navigations).toEqual([[RESULT_SCREEN_MS, result.redirectUrl]]);
    expect(h.closes).toEqual([]);
  });

  test('"Continue" goes now and the scheduled navigation does not follow', () => {
    const h = new Harness();
    h.merchantReturn.start('ses_1', result, false);
    h.advance(100);
    h.merchantReturn.goTo(result.redirectUrl);
    h.advance(RESULT_SCREEN_MS);
    expect(h.navigations).toEqual([[100, result.redirectUrl]]);
  });

  test('cancel() drops the pending navigation', () => {
    const h = new Harness();
    h.merchantReturn.start('ses_1', result, false);
    h.merchantReturn.cancel();
    h.advance(RESULT_SCREEN_MS * 2);
    expect(h.navigations).toEqual([]);
  });
});

describe('MerchantReturn, opener channel', () => {
  test('the opener gets the complete message, addressed to the callback origin only, and this window closes', () => {
    const h = new Harness();
    const opener = fakeOpener('answers');
    h.opener = opener;
    expect(h.merchantReturn.start('ses_1', result, false)).toBe(ReturnChannel.opener);
    expect(opener.messages).toEqual([
      [
        { type: COMPLETE_MESSAGE_TYPE, sessionId: 'ses_1', status: 'verified', timestamp: 1700000000000, redirectUrl: result.redirectUrl },
        'https://shop.example:8443',
      ],
    ]);
    h.advance(RESULT_SCREEN_MS);
    expect(h.closes).toEqual([RESULT_SCREEN_MS]);
    h.advance(CLOSE_CHECK_MS);
    expect(h.refusals).toEqual([]);
    expect(h.navigations).toEqual([]);
  });

  test('a refused window.close() is reported after CLOSE_CHECK_MS, so the page can show its way back', () => {
    const h = new Harness();
    h.opener = fakeOpener('answers');
    h.windowClosesWhenAsked = false;
    h.merchantReturn.start('ses_1', result, true);
    h.advance(0);
    expect(h.closes).toEqual([0]);
    h.advance(CLOSE_CHECK_MS - 1);
    expect(h.refusals).toEqual([]);
    h.advance(1);
    expect(h.refusals).toEqual([CLOSE_CHECK_MS]);
  });

  test('"Close window" closes now and the scheduled close does not follow', () => {
    const h = new Harness();
    h.opener = fakeOpener('answers');
    h.windowClosesWhenAsked = false;
    h.merchantReturn.start('ses_1', result, false);
    h.advance(200);
    h.merchantReturn.closeWindow();
    h.advance(RESULT_SCREEN_MS);
    expect(h.closes).toEqual([200]);
    expect(h.refusals).toEqual([200 + CLOSE_CHECK_MS]);
  });
});
