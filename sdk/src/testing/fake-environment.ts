/**
 * A fake browser for unit tests: clock, timers, fetch, location, window.open, message events and
 * storage, all in memory. Time moves only when a test calls `advance()`.
 */
import type { Environment, MessageEventLike, RequestInitLike, ResponseLike, StorageLike, WindowHandle } from '../environment';

export const SERVICE = 'https://verify.example.com';
export const BASE_URL = `${SERVICE}/api/v1`;
export const VERIFY_ORIGIN = SERVICE;

export interface RecordedRequest {
  url: string;
  init: RequestInitLike;
  body: Record<string, unknown>;
}

export class FakeWindow implements WindowHandle {
  closed = false;
  focused = 0;
  readonly visited: string[] = [];
  readonly location = { replace: (url: string) => void this.visited.push(url) };
  close(): void {
    this.closed = true;
  }
  focus(): void {
    this.focused += 1;
  }
}

export class MemoryStorage implements StorageLike {
  readonly items = new Map<string, string>();
  getItem(key: string): string | null {
    return this.items.has(key) ? (this.items.get(key) as string) : null;
  }
  setItem(key: string, value: string): void {
    this.items.set(key, value);
  }
}

interface Timer {
  id: number;
  at: number;
  every?: number;
  callback: () => void;
}

type Responder = (request: RecordedRequest) => ResponseLike | Promise<ResponseLike>;

export function jsonResponse(status: number, body: unknown, headers: Record<string, string> = {}): ResponseLike {
  return textResponse(status, JSON.stringify(body), headers);
}

export function textResponse(status: number, text: string, headers: Record<string, string> = {}, statusText = ''): ResponseLike {
  const lower = new Map(Object.entries(headers).map(([k, v]) => [k.toLowerCase(), v] as [string, string]));
  return {
    status,
    ok: status >= 200 && status < 300,
    statusText,
    headers: { get: (name) => lower.get(name.toLowerCase()) ?? null },
    text: async () => text,
  };
}

/** A 201 create answer, as the spec's session creation result. */
export function created(overrides: Record<string, unknown> = {}): ResponseLike {
  return jsonResponse(201, {
    sessionId: 'ses_123',
    sessionToken: 'tok.abc~def',
    verifyUrl: `${VERIFY_ORIGIN}/verify?sessionId=ses_123&sessionToken=tok.abc~def`,
    expiresAt: '2030-01-01T00:10:00.000Z',
    testMode: false,
    sandboxMode: false,
    externalUserId: null,
    faceMatchEnabled: true,
    handoffToken: 'hand_1',
    ...overrides,
  });
}

export class FakeBrowser {
  time = 1_700_000_000_000;
  readonly requests: RecordedRequest[] = [];
  readonly assigned: string[] = [];
  readonly opened: { url: string; target: string; features: string; win: FakeWindow }[] = [];
  readonly storageArea = new MemoryStorage();
  readonly thrownLater: unknown[] = [];
  popupBlocked = false;
  respond: Responder = () => created();
  private listeners: ((event: MessageEventLike) => void)[] = [];
  private timers: Timer[] = [];
  private nextTimer = 1;

  get listenerCount(): number {
    return this.listeners.length;
  }

  /** The latest window opened by the SDK. */
  get win(): FakeWindow {
    const last = this.opened[this.opened.length - 1];
    if (!last) throw new Error('no window was opened');
    return last.win;
  }

  post(origin: string, data: unknown): void {
    for (const listener of this.listeners.slice()) listener({ origin, data });
  }

  /** Moves the clock, firing due timers in order. */
  advance(ms: number): void {
    const end = this.time + ms;
    for (;;) {
      const due = this.timers.filter((t) => t.at <= end).sort((a, b) => a.at - b.at)[0];
      if (!due) break;
      this.time = Math.max(this.time, due.at);
      if (due.every) due.at += due.every;
      else this.timers = this.timers.filter((t) => t !== due);
      // Like a browser: an exception in a timer callback does not stop other timers.
      try {
        due.callback();
      } catch (error) {
        this.thrownLater.push(error);
      }
    }
    this.time = end;
  }

  environment(overrides: Partial<Environment> = {}): Partial<Environment> {
    const env: Environment = {
      fetch: async (url, init) => {
        const request = { url, init, body: JSON.parse(init.body) as Record<string, unknown> };
        this.requests.push(request);
        return this.respond(request);
      },
      assign: (url) => void this.assigned.push(url),
      open: (url, target, features) => {
        if (this.popupBlocked) return null;
        const win = new FakeWindow();
        this.opened.push({ url, target, features, win });
        return win;
      },
      listen: (listener) => {
        this.listeners.push(listener);
        return () => {
          this.listeners = this.listeners.filter((l) => l !== listener);
        };
      },
      storage: () => this.storageArea,
      frame: () => ({ left: 100, top: 50, width: 1200, height: 900 }),
      now: () => this.time,
      setTimeout: (callback, ms) => this.addTimer(callback, ms),
      clearTimeout: (id) => this.removeTimer(id),
      setInterval: (callback, ms) => this.addTimer(callback, ms, ms),
      clearInterval: (id) => this.removeTimer(id),
      scriptUrl: undefined,
    };
    return { ...env, ...overrides };
  }

  /** Runs zero-delay timers, where the SDK rethrows errors from merchant callbacks. */
  flushThrown(): void {
    for (const timer of this.timers.filter((t) => t.at <= this.time && !t.every)) {
      this.timers = this.timers.filter((t) => t !== timer);
      try {
        timer.callback();
      } catch (error) {
        this.thrownLater.push(error);
      }
    }
  }

  private addTimer(callback: () => void, ms: number, every?: number): number {
    const id = this.nextTimer++;
    this.timers.push({ id, at: this.time + ms, every, callback });
    return id;
  }

  private removeTimer(id: unknown): void {
    this.timers = this.timers.filter((t) => t.id !== id);
  }

  get pendingTimers(): number {
    return this.timers.length;
  }
}
