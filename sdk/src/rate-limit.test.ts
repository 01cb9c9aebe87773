import { describe, expect, test } from 'bun:test';
import { AttemptLimiter, RATE_LIMIT_STORAGE_KEY, RATE_LIMIT_WINDOW_MS, decideAttempt, rateLimitError } from './rate-limit';
import { MemoryStorage } from './testing/fake-environment';

const T0 = 1_700_000_000_000;

describe('decideAttempt (pure)', () => {
  test.each([
    ['no history', [], T0, true],
    ['four recent attempts', [T0 - 4, T0 - 3, T0 - 2, T0 - 1], T0, true],
    ['five recent attempts', [T0 - 5, T0 - 4, T0 - 3, T0 - 2, T0 - 1], T0, false],
    ['five attempts, the oldest exactly one window ago', [T0 - RATE_LIMIT_WINDOW_MS, T0 - 3, T0 - 2, T0 - 1, T0], T0, true],
    ['five old attempts', [1, 2, 3, 4, 5], T0, true],
    ['five attempts in the future (clock set back)', [T0 + 1, T0 + 2, T0 + 3, T0 + 4, T0 + 5], T0, true],
  ])('%s → allowed %p', (_name, history, now, allowed) => {
    expect(decideAttempt(history, now).allowed).toBe(allowed);
  });

  test('the retry time is when the oldest counted attempt leaves the window', () => {
    const decision = decideAttempt([T0 - 10_000, T0 - 9_000, T0 - 8_000, T0 - 7_000, T0 - 6_000], T0);
    expect(decision).toEqual({ allowed: false, retryAfterMs: 50_000 });
  });

  test('an allowed decision records now and drops expired times', () => {
    expect(decideAttempt([T0 - 70_000, T0 - 1_000], T0)).toEqual({ allowed: true, attempts: [T0 - 1_000, T0] });
  });
});

describe('AttemptLimiter with a fake clock', () => {
  function limiter(storage?: () => MemoryStorage | null) {
    const area = new MemoryStorage();
    const clock = { now: T0 };
    const memory = { attempts: [] as number[] };
    return { clock, memory, limiter: new AttemptLimiter(storage ?? (() => area), () => clock.now, memory) };
  }

  test('5 attempts per minute; the 6th within 60 s is refused; a sliding window frees one slot at a time', () => {
    const area = new MemoryStorage();
    const { clock, limiter: l } = limiter(() => area);
    for (let i = 0; i < 5; i += 1) {
      expect(l.tryAttempt().allowed).toBe(true);
      clock.now += 10_000; // attempts at 0, 10, 20, 30, 40 s
    }
    clock.now = T0 + 59_999;
    expect(l.tryAttempt()).toEqual({ allowed: false, retryAfterMs: 1 });
    clock.now = T0 + 60_000; // the attempt at 0 s has left the window
    expect(l.tryAttempt().allowed).toBe(true);
    expect(l.tryAttempt().allowed).toBe(false); // the one at 10 s still counts
    clock.now = T0 + 70_000;
    expect(l.tryAttempt().allowed).toBe(true);
  });

  test('refused attempts are not recorded', () => {
    const { clock, limiter: l } = limiter();
    for (let i = 0; i < 5; i += 1) l.tryAttempt();
    for (let i = 0; i < 10; i += 1) expect(l.tryAttempt().allowed).toBe(false);
    clock.now += RATE_LIMIT_WINDOW_MS;
    expect(l.tryAttempt().allowed).toBe(true);
  });

  test('attempts are kept in localStorage, so a new page (redirect mode) sees them', () => {
    const area = new MemoryStorage();
    const clock = { now: T0 };
    const first = new AttemptLimiter(
      () => area,
      () => clock.now,
      { attempts: [] },
    );
    for (let i = 0; i < 5; i += 1) first.tryAttempt();
    expect(JSON.parse(area.getItem(RATE_LIMIT_STORAGE_KEY) ?? '[]')).toHaveLength(5);
    const afterReload = new AttemptLimiter(
      () => area,
      () => clock.now,
      { attempts: [] },
    );
    expect(afterReload.tryAttempt().allowed).toBe(false);
  });

  test.each([
    ['missing storage', () => null],
    [
      'storage that throws on access',
      () => {
        throw new Error('SecurityError');
      },
    ],
  ])('%s falls back to memory', (_name, storage) => {
    const { limiter: l, memory } = limiter(storage as () => MemoryStorage | null);
    for (let i = 0; i < 5; i += 1) expect(l.tryAttempt().allowed).toBe(true);
    expect(memory.attempts).toHaveLength(5);
    expect(l.tryAttempt().allowed).toBe(false);
  });

  test('storage whose setItem fails (quota) still limits, from memory', () => {
    const area = new MemoryStorage();
    area.setItem = () => {
      throw new Error('QuotaExceededError');
    };
    const { limiter: l } = limiter(() => area);
    for (let i = 0; i < 5; i += 1) expect(l.tryAttempt().allowed).toBe(true);
    expect(l.tryAttempt().allowed).toBe(false);
  });

  test.each(['not json', '{"a":1}', '"x"', '[1,"2",null]', 'null'])('corrupt stored value %p counts as no history', (stored) => {
    const area = new MemoryStorage();
    area.setItem(RATE_LIMIT_STORAGE_KEY, stored);
    const { limiter: l } = limiter(() => area);
    expect(l.tryAttempt().allowed).toBe(true);
  });
});

test('the rate limit error says "Rate limit" and when to retry', () => {
  const error = rateLimitError(12_300);
  expect(error.code).toBe('RATE_LIMITED');
  expect(error.message).toContain('Rate limit');
  expect(error.message).toContain('at most 5 verification attempts per minute');
  expect(error.message).toContain('13 s');
  expect(error.retryAfterMs).toBe(12_300);
});
