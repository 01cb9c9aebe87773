/**
 * LISTEN on a NOTIFY channel through whichever client the database was opened with: postgres.js
 * (a dedicated connection that re-listens after a reconnect) or PGlite (in-process). Drizzle does
 * not expose LISTEN, so this reaches for the driver's client; it is the one place that does.
 */
import type { Database } from './database';

export type Unlisten = () => Promise<void>;

export async function listen(database: Pick<Database, 'db'>, channel: string, onNotify: () => void): Promise<Unlisten> {
  const client = (database.db as unknown as { $client: unknown }).$client as {
    listen(channel: string, callback: () => void): Promise<unknown>;
  };
  const handle = await client.listen(channel, onNotify);
  if (typeof handle === 'function') return handle as Unlisten; // PGlite returns the unsubscribe function
  const meta = handle as { unlisten?: () => Promise<void> };
  return async () => {
    await meta.unlisten?.();
  };
}
