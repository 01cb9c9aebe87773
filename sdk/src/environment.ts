/**
 * Everything the SDK takes from the browser, in one place, so tests can pass fakes instead of a DOM
 * (docs/engineering-habits.md habit 2: the clock is injected too). The browser implementation reads `window` only when
 * a member is used, so importing the SDK never touches globals.
 */
import { LOADED_FROM } from './base-url';

/** The part of a fetch Response the SDK reads. */
export interface ResponseLike {
  readonly status: number;
  readonly ok: boolean;
  readonly statusText: string;
  readonly headers: { get(name: string): string | null };
  text(): Promise<string>;
}

export interface RequestInitLike {
  method: string;
  headers: Record<string, string>;
  body: string;
  credentials: 'omit';
  mode: 'cors';
  signal?: AbortSignal;
}

/** The part of a window opened with window.open that the SDK uses. */
export interface WindowHandle {
  readonly closed: boolean;
  readonly location: { replace(url: string): void };
  close(): void;
  focus(): void;
}

export interface MessageEventLike {
  readonly origin: string;
  readonly data: unknown;
}

export interface StorageLike {
  getItem(key: string): string | null;
  setItem(key: string, value: string): void;
}

/** Size and position of the current browser window, to center the popup over it. */
export interface WindowFrame {
  left: number;
  top: number;
  width: number;
  height: number;
}

export type TimerId = unknown;

export interface Environment {
  fetch(url: string, init: RequestInitLike): Promise<ResponseLike>;
  /** Navigates the current page (location.assign). */
  assign(url: string): void;
  /** window.open; null when a popup blocker refused. */
  open(url: string, target: string, features: string): WindowHandle | null;
  /** Listens for `message` events on the current window; returns the function that stops listening. */
  listen(listener: (event: MessageEventLike) => void): () => void;
  /** localStorage, or null where it is missing or refused (private modes, blocked cookies). */
  storage(): StorageLike | null;
  frame(): WindowFrame | undefined;
  now(): number;
  setTimeout(callback: () => void, ms: number): TimerId;
  clearTimeout(id: TimerId): void;
  setInterval(callback: () => void, ms: number): TimerId;
  clearInterval(id: TimerId): void;
  /** Where the SDK script was loaded from (for the default baseUrl). */
  scriptUrl: string | undefined;
}

/**
 * The real browser. Members are arrow functions that call the globals with the right receiver:
 * `const f = window.fetch; f(url)` throws "Illegal invocation" in browsers.
 */
export function browserEnvironment(): Environment {
  return {
    fetch: (url, init) => fetch(url, init),
    assign: (url) => window.location.assign(url),
    open: (url, target, features) => window.open(url, target, features),
    listen(listener) {
      const handler = (event: MessageEvent) => listener(event);
      window.addEventListener('message', handler);
      return () => window.removeEventListener('message', handler);
    },
    storage() {
      try {
        // Reading the property itself throws a SecurityError when storage is blocked.
        return window.localStorage || null;
      } catch {
        return null;
      }
    },
    frame() {
      const left = window.screenX;
      const top = window.screenY;
      const width = window.outerWidth;
      const height = window.outerHeight;
      return typeof width === 'number' && width > 0 ? { left, top, width, height } : undefined;
    },
    now: () => Date.now(),
    setTimeout: (callback, ms) => setTimeout(callback, ms),
    clearTimeout: (id) => clearTimeout(id as ReturnType<typeof setTimeout>),
    setInterval: (callback, ms) => setInterval(callback, ms),
    clearInterval: (id) => clearInterval(id as ReturnType<typeof setInterval>),
    scriptUrl: LOADED_FROM,
  };
}
