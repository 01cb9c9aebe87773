/**
 * Work that must wait until a transaction has committed, and must not be part of it.
 *
 * Why (issue 14): a NOTIFY inside a transaction takes PostgreSQL's global notify lock at commit,
 * so every transaction that notifies commits one at a time. Measured with 16 writers doing
 * INSERT + COMMIT: 1,081–1,519 commits/s without NOTIFY, 429–462 with it; session creates of a
 * tenant with a subscribed endpoint paid exactly that. The webhook wake-up is only a hint (the
 * worker polls anyway), so it is sent after the commit, outside the transaction.
 *
 * `db.transaction` of a database opened by db/database.ts is wrapped once (`enableAfterCommit`):
 * callbacks registered with `afterCommit(tx, …)` run after its COMMIT succeeded, never after a
 * rollback or a failed commit. A transaction not started by a wrapped database (or a nested one,
 * a savepoint) is not known here: `afterCommit` answers false and the caller does the work inside.
 */
import type { Db, DbOrTx } from './db-types';

type AfterCommitWork = (db: Db) => void;

const openTransactions = new WeakMap<object, { db: Db; work: AfterCommitWork[] }>();
const wrapped = new WeakSet<object>();

export function enableAfterCommit(db: Db): Db {
  if (wrapped.has(db)) return db;
  wrapped.add(db);
  const transaction = db.transaction.bind(db);
  db.transaction = (async (run: Parameters<Db['transaction']>[0], config?: Parameters<Db['transaction']>[1]) => {
    const work: AfterCommitWork[] = [];
    const result = await transaction(async (tx) => {
      openTransactions.set(tx, { db, work });
      return run(tx);
    }, config);
    for (const item of work) item(db);
    return result;
  }) as Db['transaction'];
  return db;
}

/** Registers `work` to run once `tx` has committed; false when `tx` is not a known top-level transaction. */
export function afterCommit(tx: DbOrTx, work: AfterCommitWork): boolean {
  const open = openTransactions.get(tx);
  if (!open) return false;
  open.work.push(work);
  return true;
}
