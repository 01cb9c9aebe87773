/**
 * Readiness (issue 15, item 2): can this instance reach its database right now? A cheap
 * `select 1` with a short deadline, its answer cached for about a second so that probes from a
 * load balancer and /healthz never add load to a database that is struggling.
 */
import { sql } from 'drizzle-orm';
import type { Db } from './database';

export type DatabaseState = 'up' | 'down' | 'unknown';

export interface Readiness {
  /** Probes the database (or answers from the cache); never throws, never waits longer than the deadline. */
  check(): Promise<DatabaseState>;
  /** The last answer, without probing: for /healthz, which must not depend on the database. */
  lastKnown(): DatabaseState;
}

export interface ReadinessOptions {
  /** How long an answer is reused. */
  cacheMs?: number;
  /** How long the probe may take before the database counts as down. */
  timeoutMs?: number;
  /** Monotonic milliseconds; injected so tests move time instead of sleeping. */
  now?: () => number;
}

export function createReadiness(probe: () => Promise<unknown>, options: ReadinessOptions = {}): Readiness {
  const { cacheMs = 1_000, timeoutMs = 2_000, now = () => performance.now() } = options;
  let state: DatabaseState = 'unknown';
  let checkedAt = Number.NEGATIVE_INFINITY;
  let inFlight: Promise<DatabaseState> | null = null;

  const run = async (): Promise<DatabaseState> => {
    let timer: ReturnType<typeof setTimeout> | undefined;
    const deadline = new Promise<'down'>((resolve) => {
      timer = setTimeout(() => resolve('down'), timeoutMs);
    });
    try {
      return await Promise.race([
        probe().then(
          (): DatabaseState => 'up',
          (): DatabaseState => 'down',
        ),
        deadline,
      ]);
    } finally {
      clearTimeout(timer);
    }
  };

  return {
    check() {
      if (now() - checkedAt < cacheMs) return Promise.resolve(state);
      // Concurrent probes share one query.
      inFlight ??= run().then((result) => {
        state = result;
        checkedAt = now();
        inFlight = null;
        return result;
      });
      return inFlight;
    },
    lastKnown: () => state,
  };
}

export function databaseReadiness(db: Db, options?: ReadinessOptions): Readiness {
  return createReadiness(() => db.execute(sql`select 1`), options);
}
