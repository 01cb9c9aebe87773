/**
 * The SDK's client-side rate limit (spec "Limits": 5 verification attempts per minute per user).
 *
 * A sliding window of attempt times. It is kept in localStorage so that it survives the page loads
 * of redirect mode and is shared by tabs; where storage is missing or refuses (private modes,
 * blocked cookies, quota) a memory copy takes over for the life of the page. It is a courtesy limit
 * that spares the account's shared server bucket (300 per minute), not a security control.
 *
 * "Decide, then apply": {@link decideAttempt} is pure; {@link AttemptLimiter} reads and writes.
 */
import { AgeVerifyError } from './errors';
import type { StorageLike } from './environment';

export const RATE_LIMIT_ATTEMPTS = 5;
export const RATE_LIMIT_WINDOW_MS = 60_000;
export const RATE_LIMIT_STORAGE_KEY = 'ageverify:attempts';

export type AttemptDecision = { allowed: true; attempts: number[] } | { allowed: false; retryAfterMs: number };

/**
 * Decides whether one more attempt fits at `now`, given the times of earlier attempts. Times outside
 * `(now - window, now]` are dropped, including future ones left by a clock that was set back.
 */
export function decideAttempt(previous: readonly number[], now: number): AttemptDecision {
  const recent = previous.filter((time) => time > now - RATE_LIMIT_WINDOW_MS && time <= now).sort((a, b) => a - b);
  if (recent.length >= RATE_LIMIT_ATTEMPTS) {
    // The oldest attempt that still counts leaves the window first.
    const oldest = recent[recent.length - RATE_LIMIT_ATTEMPTS] ?? now;
    return { allowed: false, retryAfterMs: oldest + RATE_LIMIT_WINDOW_MS - now };
  }
  recent.push(now);
  return { allowed: true, attempts: recent };
}

export function rateLimitError(retryAfterMs: number): AgeVerifyError {
  const seconds = Math.max(1, Math.ceil(retryAfterMs / 1000));
  return new AgeVerifyError(
    'RATE_LIMITED',
    `Rate limit reached: expected at most ${RATE_LIMIT_ATTEMPTS} verification attempts per minute, got one more. ` + `Try again in ${seconds} s.`,
    { retryAfterMs },
  );
}

/** Memory copy of the attempts, shared by every AgeVerify instance on the page. */
const pageMemory: { attempts: number[] } = { attempts: [] };

export class AttemptLimiter {
  /** Set once storage has failed, so reads and writes stay on the same (memory) copy. */
  private memoryOnly = false;

  constructor(
    private readonly storage: () => StorageLike | null,
    private readonly now: () => number,
    private readonly memory: { attempts: number[] } = pageMemory,
  ) {}

  /** Records an attempt if it is allowed; the decision says when to retry otherwise. */
  tryAttempt(): AttemptDecision {
    const decision = decideAttempt(this.read(), this.now());
    if (decision.allowed) this.write(decision.attempts);
    return decision;
  }

  private read(): number[] {
    if (!this.memoryOnly) {
      try {
        const storage = this.storage();
        if (storage) return parseTimes(storage.getItem(RATE_LIMIT_STORAGE_KEY));
      } catch {
        // SecurityError and friends: fall through to memory.
      }
      this.memoryOnly = true;
    }
    return this.memory.attempts;
  }

  private write(attempts: number[]): void {
    // Always kept in memory too, so a storage failure on this write loses nothing.
    this.memory.attempts = attempts;
    if (this.memoryOnly) return;
    try {
      const storage = this.storage();
      if (storage) {
        storage.setItem(RATE_LIMIT_STORAGE_KEY, JSON.stringify(attempts));
        return;
      }
    } catch {
      // Quota exceeded or storage revoked.
    }
    this.memoryOnly = true;
  }
}

/** Reads the stored list, ignoring anything that is not a list of finite numbers (another script, an old format). */
function parseTimes(stored: string | null): number[] {
  if (!stored) return [];
  try {
    const parsed: unknown = JSON.parse(stored);
    return Array.isArray(parsed) ? parsed.filter((time): time is number => typeof time === 'number' && Number.isFinite(time)) : [];
  } catch {
    return [];
  }
}
