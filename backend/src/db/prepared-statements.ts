/**
 * Every parameterised query drizzle sends through postgres.js becomes a named prepared statement
 * (issue 14). drizzle-orm 0.45 only asks postgres.js to prepare a query built with `.prepare(name)`
 * (`prepare: name !== undefined`); every other query goes out unnamed, and an unnamed statement
 * with parameters costs postgres.js two round trips each time (Parse/Describe/Flush, then
 * Bind/Execute/Sync) because it must learn the parameter types first. A named statement is
 * described once per connection and then costs one round trip.
 *
 * postgres.js caches statements per connection by query text, so the cache is bounded by the
 * number of distinct query texts the code builds (a few dozen; multi-row inserts add one per row
 * count) and is dropped whenever a connection is recycled (`max_lifetime`). A statement whose plan
 * goes stale after a migration is re-prepared by postgres.js itself (its `retryRoutines`).
 * Queries without parameters (migrations, DDL) are left unnamed: they cost one round trip anyway.
 *
 * This patches drizzle's session class, so it applies to every postgres.js database of the process;
 * PGlite runs in-process and has no round trips to save.
 */
import { PostgresJsSession } from 'drizzle-orm/postgres-js/session';

let installed = false;

export function prepareEveryParameterisedQuery(): void {
  if (installed) return;
  installed = true;
  const prototype = PostgresJsSession.prototype as unknown as { prepareQuery: (query: { params: unknown[] }, ...rest: unknown[]) => { prepare: boolean } };
  const original = prototype.prepareQuery;
  prototype.prepareQuery = function (this: unknown, query, ...rest) {
    const prepared = original.call(this, query, ...rest);
    if (query.params.length > 0) prepared.prepare = true;
    return prepared;
  };
}
