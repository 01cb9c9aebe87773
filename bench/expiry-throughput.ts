/**
 * Expiry sweeper benchmark (issue 14): PENDING sessions past their deadline, inserted in one
 * statement, then one sweep (the code the server's sweeper runs) on PostgreSQL; prints expiries/s.
 * Then the shutdown bound (issue 14, item 3): a second backlog, a sweep asked to stop 200 ms in,
 * and how long it took to return (it finishes the batch in flight; every batch commits whole).
 * Figures only, nothing asserted.
 *
 *   BENCH_DATABASE_URL=postgres://postgres@127.0.0.1:5432/test bun bench/expiry-throughput.ts [--sessions 3000] [--batch 2000]
 */
import { sql } from 'drizzle-orm';
import { systemClock } from '../backend/src/clock';
import { openPostgres } from '../backend/src/db/database';
import { EXPIRY_BATCH_SIZE, sweepExpiredSessions } from '../backend/src/modules/sessions/expiry-sweeper';
import { createTenant } from '../backend/src/modules/tenants/service';
import { createThrowawayPostgres } from '../backend/src/testing/test-databases';
import { fmt } from './support/load';

const argValue = (name: string, fallback: number) => {
  const at = process.argv.indexOf(`--${name}`);
  return at === -1 ? fallback : Number(process.argv[at + 1]);
};
const SESSIONS = argValue('sessions', 3000);
const BATCH = argValue('batch', EXPIRY_BATCH_SIZE);
const adminUrl = process.env.BENCH_DATABASE_URL ?? process.env.TEST_DATABASE_URL;
if (!adminUrl) {
  console.error('Set BENCH_DATABASE_URL (or TEST_DATABASE_URL) to a PostgreSQL server, e.g. postgres://postgres@127.0.0.1:5432/test');
  process.exit(2);
}

const throwaway = await createThrowawayPostgres(adminUrl);
const database = await openPostgres(throwaway.url, { max: 10 });
try {
  const tenant = await createTenant(database.db, systemClock, { name: 'Bench', domains: [], sandbox: false });
  const seedDue = async (prefix: string, count: number, now: Date) => {
    await database.db.execute(sql`
      insert into sessions (id, tenant_id, pair_id, sandbox, state, return_url, verification_mode, challenge_age, face_match_enabled,
                            session_token_hash, handoff_token_hash, created_with, created_at, expires_at)
      select ${prefix} || g, ${tenant.tenantId}, ${tenant.pairId}, false, 'PENDING', 'https://bench.example.com/', 'L1', 25, true,
             md5(${prefix} || g), md5('h' || ${prefix} || g), 'publishable', ${now.toISOString()}::timestamptz - interval '11 minutes', ${now.toISOString()}::timestamptz - interval '1 minute'
      from generate_series(1, ${count}) g`);
  };
  const now = systemClock.now();
  await seedDue('ses_due_', SESSIONS, now);
  const started = performance.now();
  const expired = await sweepExpiredSessions(database.db, now, { batchSize: BATCH });
  const seconds = (performance.now() - started) / 1000;
  console.log(
    `\nExpiry sweep (PostgreSQL, ${fmt(BATCH)} per batch): ${fmt(expired)} sessions expired in ${seconds.toFixed(2)} s = ${fmt(expired / seconds)} expiries/s (each with its session.timeout event)`,
  );

  // Shutdown with a backlog: the sweeper is asked to stop 200 ms into a sweep of the same size.
  await seedDue('ses_backlog_', SESSIONS, now);
  let stopping = false;
  const sweepStarted = performance.now();
  const sweep = sweepExpiredSessions(database.db, now, { batchSize: BATCH, shouldStop: () => stopping });
  await Bun.sleep(200);
  stopping = true;
  const stopAsked = performance.now();
  const beforeStop = await sweep;
  const [left] = (await database.db.execute(sql`select count(*)::int as n from sessions where state = 'PENDING'`)) as unknown as { n: number }[];
  console.log(
    `Shutdown during a backlog: returned ${fmt(performance.now() - stopAsked)} ms after the stop request (${fmt(stopAsked - sweepStarted)} ms in); ${fmt(beforeStop)} expired in whole batches, ${fmt(left?.n ?? 0)} left PENDING for the next sweep`,
  );
} finally {
  await database.close();
  await throwaway.drop();
}
