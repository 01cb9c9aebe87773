/**
 * `bun backend/src/write-openapi.ts FILE`: writes the OpenAPI document the server serves to FILE,
 * for the linters of the test command (scripts/openapi-lint.ts). Built in-process from the same
 * app the server runs, on an in-memory database (no request touches it).
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname } from 'node:path';
import { createApp } from './app';
import { systemClock } from './clock';
import { loadConfig } from './config';
import { openPglite } from './db/database';
import { OPENAPI_PATH } from './http/openapi';
import { createLogger } from './log';

export async function writeOpenApiDocument(file: string): Promise<void> {
  const config = loadConfig({ ...process.env, DATABASE_URL: undefined, DATA_DIR: undefined });
  const database = await openPglite(null);
  try {
    const app = createApp({ ...config, db: database.db, clock: systemClock, logger: createLogger('error'), serverSecret: 'x'.repeat(32) });
    const response = await app.handle(new Request(`http://localhost${OPENAPI_PATH}`));
    if (response.status !== 200) throw new Error(`${OPENAPI_PATH} answered ${response.status}: ${await response.text()}`);
    mkdirSync(dirname(file), { recursive: true });
    writeFileSync(file, `${JSON.stringify(await response.json(), null, 2)}\n`);
  } finally {
    await database.close();
  }
}

if (import.meta.main) {
  const file = process.argv[2];
  if (!file) {
    console.error('usage: bun backend/src/write-openapi.ts FILE');
    process.exit(2);
  }
  await writeOpenApiDocument(file);
}
