import { afterEach, describe, expect, test } from 'bun:test';
import { request } from './api';
import { LatestCall, Superseded } from './latest-call';

const realFetch = globalThis.fetch;
afterEach(() => {
  globalThis.fetch = realFetch;
});

/** A fetch that answers only when told to, and records the init (its signal) of each request. */
function heldFetch() {
  const held: Array<{ url: string; init: RequestInit; answer: (body: unknown) => void }> = [];
  globalThis.fetch = ((url: string, init: RequestInit) =>
    new Promise<Response>((resolve, reject) => {
      init.signal?.addEventListener('abort', () => reject(new DOMException('aborted', 'AbortError')));
      held.push({ url, init, answer: (body) => resolve(new Response(JSON.stringify(body), { status: 200 })) });
    })) as unknown as typeof fetch;
  return held;
}

describe('only the latest call counts (issue 25, item 9)', () => {
  test('starting a call aborts the one before it', () => {
    const calls = new LatestCall();
    const first = calls.start();
    const second = calls.start();
    expect(first.aborted).toBe(true);
    expect(second.aborted).toBe(false);
    expect(calls.signal).toBe(second);
  });

  test("tenant A's slow answer, arriving after tenant B's, is dropped, and A's read is aborted on the wire", async () => {
    const held = heldFetch();
    const calls = new LatestCall();
    const forA = request<{ tenant: string }>('GET', '/tenants/ten_A/overview', undefined, calls.start());
    const forB = request<{ tenant: string }>('GET', '/tenants/ten_B/overview', undefined, calls.start());
    held[1]!.answer({ tenant: 'B' });
    expect(await forB).toEqual({ tenant: 'B' });
    held[0]!.answer({ tenant: 'A' });
    await expect(forA).rejects.toBeInstanceOf(Superseded);
    expect(held[0]!.init.signal?.aborted).toBe(true);
  });

  test('a change is not aborted on the wire (the server may have done it), but its late answer is dropped', async () => {
    const held = heldFetch();
    const calls = new LatestCall();
    const change = request('POST', '/tenants/ten_A/domains', { domain: 'shop.example' }, calls.start());
    calls.start();
    expect(held[0]!.init.signal).toBeUndefined();
    held[0]!.answer({ domains: ['shop.example'] });
    await expect(change).rejects.toBeInstanceOf(Superseded);
  });

  test('a call whose signal is already aborted sends nothing', async () => {
    const held = heldFetch();
    const calls = new LatestCall();
    const stale = calls.start();
    calls.start();
    await expect(request('GET', '/tenants/ten_A/keys', undefined, stale)).rejects.toBeInstanceOf(Superseded);
    expect(held).toHaveLength(0);
  });

  test('without a signal nothing changes: the latest answer is the answer', async () => {
    const held = heldFetch();
    const plain = request<{ ok: boolean }>('GET', '/me');
    held[0]!.answer({ ok: true });
    expect(await plain).toEqual({ ok: true });
  });
});
