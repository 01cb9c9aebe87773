/**
 * Expiry sweeper benchmark (issue 14): PENDING sessions past their deadline, inserted in one
 * statement, then one sweep (the code the server's sweeper runs) on PostgreSQL; prints expiries/s.
 * Figures only, nothing asserted.
 *
 *   BENCH_DATABASE_URL=postgres://postgres@127.0.0.1:5432/test bun bench/expiry-throughput.ts [--sessions 3000]
 */
import { sql } from 'drizzle-orm';
import { systemClock } from '../backend/src/clock';
import { openPostgres } from '../backend/src/db/database';
import { sweepExpiredSessions } from '../backend/src/modules/sessions/expiry-sweeper';
import { createTenant } from '../backend/src/modules/tenants/service';
import { createThrowawayPostgres } from '../backend/src/testing/test-databases';
import { fmt } from './support/load';

const i = process.argv.indexOf('--sessions');
const SESSIONS = i === -1 ? 3000 : Number(process.argv[i + 1]);
const adminUrl = process.env.BENCH_DATABASE_URL ?? process.env.TEST_DATABASE_URL;
if (!adminUrl) {
  console.error('Set BENCH_DATABASE_URL (or TEST_DATABASE_URL) to a PostgreSQL server, e.g. postgres://postgres@127.0.0.1:5432/test');
  process.exit(2);
}

const throwaway = await createThrowawayPostgres(adminUrl);
const database = await openPostgres(throwaway.url, { max: 10 });
try {
  const tenant = await createTenant(database.db, systemClock, { name: 'Bench', domains: [], sandbox: false });
  const now = systemClock.now();
  await database.db.execute(sql`
    insert into sessions (id, tenant_id, pair_id, sandbox, state, return_url, verification_mode, challenge_age, face_match_enabled,
                          session_token_hash, handoff_token_hash, created_with, created_at, expires_at)
    select 'ses_due_' || g, ${tenant.tenantId}, ${tenant.pairId}, false, 'PENDING', 'https://bench.example.com/', 'L1', 25, true,
           md5(g::text), md5('h' || g), 'publishable', ${now.toISOString()}::timestamptz - interval '11 minutes', ${now.toISOString()}::timestamptz - interval '1 minute'
    from generate_series(1, ${SESSIONS}) g`);
  const started = performance.now();
  const expired = await sweepExpiredSessions(database.db, now);
  const seconds = (performance.now() - started) / 1000;
  console.log(
    `\nExpiry sweep (PostgreSQL): ${fmt(expired)} sessions expired in ${seconds.toFixed(2)} s = ${fmt(expired / seconds)} expiries/s (each with its session.timeout event)`,
  );
} finally {
  await database.close();
  await throwaway.drop();
}
