/**
 * The README's /healthz and /readyz examples have the shape the server answers with (issue 23:
 * the /healthz example had drifted). Each `GET /path` line's JSON example is compared, key by key
 * and value type by value type, with the in-process app's answer.
 */
import { afterAll, beforeAll, expect, test } from 'bun:test';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { embeddedIdentity } from '../backend/src/db/database-identity';
import { createTestContext, type TestContext } from '../backend/src/testing/test-app';

const readme = readFileSync(join(import.meta.dir, '..', 'README.md'), 'utf8');
let ctx: TestContext;
beforeAll(async () => {
  // As main.ts gives it: which database this is (db/database-identity.ts).
  ctx = await createTestContext('pglite', { databaseIdentity: embeddedIdentity(join(import.meta.dir, '..', '.data')) });
});
afterAll(() => ctx.close());

/** The first inline-code JSON example after "`GET {path}`" in the README. */
function documented(path: string): unknown {
  const at = readme.indexOf(`\`GET ${path}\``);
  if (at === -1) throw new Error(`README does not document GET ${path}`);
  const example = readme.slice(at).match(/`(\{.*?\})`/s);
  if (!example) throw new Error(`README has no JSON example after GET ${path}`);
  return JSON.parse(example[1]!.replace(/\s*\n\s*/g, ' '));
}

/** Keys and value types, recursively: "3f9a…" and a real hash are both strings. */
function shape(value: unknown): unknown {
  if (value && typeof value === 'object')
    return Object.fromEntries(
      Object.entries(value)
        .map(([key, inner]) => [key, shape(inner)])
        .sort(),
    );
  return typeof value;
}

for (const path of ['/healthz', '/readyz']) {
  test(`README's GET ${path} example has the server's shape`, async () => {
    const response = await ctx.app.handle(new Request(`http://localhost:3000${path}`));
    expect(response.status).toBe(200);
    expect(shape(documented(path))).toEqual(shape(await response.json()));
  });
}
