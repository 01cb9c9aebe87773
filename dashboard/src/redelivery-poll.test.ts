import { describe, expect, test } from 'bun:test';
import type { ReactiveController, ReactiveControllerHost } from 'lit';
import { RedeliveryPoll, redeliveryRunning } from './redelivery-poll';

function fakeHost() {
  const host = {
    controllers: [] as ReactiveController[],
    addController(controller: ReactiveController) {
      host.controllers.push(controller);
    },
    removeController() {},
    requestUpdate() {},
    updateComplete: Promise.resolve(true),
  } satisfies ReactiveControllerHost & Record<string, unknown>;
  return host;
}

const progress = (sent: number, total: number) => ({ redelivery: { requestedAt: '2026-01-01T00:00:00.000Z', sent, total } });
const wait = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe('the redelivery poll (issue 25, item 11)', () => {
  test('a redelivery runs while it has sent fewer events than it took on', () => {
    expect(redeliveryRunning({ redelivery: null })).toBe(false);
    expect(redeliveryRunning(progress(0, 3))).toBe(true);
    expect(redeliveryRunning(progress(2, 3))).toBe(true);
    expect(redeliveryRunning(progress(3, 3))).toBe(false);
  });

  test('ticks while a redelivery runs, once however often the endpoint is followed, and stops when it is done', async () => {
    let ticks = 0;
    const host = fakeHost();
    const poll = new RedeliveryPoll(host, () => void ticks++, 5);
    expect(host.controllers).toEqual([poll]);
    poll.follow({ redelivery: null });
    await wait(30);
    expect(ticks).toBe(0);
    expect(poll.polling).toBe(false);

    poll.follow(progress(0, 3));
    poll.follow(progress(1, 3));
    expect(poll.polling).toBe(true);
    for (let waited = 0; ticks < 2 && waited < 2_000; waited += 5) await wait(5);
    expect(ticks).toBeGreaterThanOrEqual(2);

    poll.follow(progress(3, 3));
    expect(poll.polling).toBe(false);
    // A second timer started by the second follow() would be out of reach of stop() and tick on.
    const stoppedAt = ticks;
    await wait(30);
    expect(ticks).toBe(stoppedAt);
  });

  test('stops when its screen leaves the page', async () => {
    let ticks = 0;
    const poll = new RedeliveryPoll(fakeHost(), () => void ticks++, 5);
    poll.follow(progress(0, 3));
    poll.hostDisconnected();
    expect(poll.polling).toBe(false);
    await wait(30);
    expect(ticks).toBe(0);
  });
});
