import { expect, test } from 'bun:test';
import { databaseMismatchWarning, healthUrl, probeServer, type ServerHealth } from './server-database-check';
import { freePort } from '../testing/free-port';

const ours = { kind: 'pglite' as const, id: 'aaaaaaaaaaaaaaaa' };

test.each<[string, ServerHealth | null, RegExp | null]>([
  ['no server answers', null, null],
  ['a server that does not report its database (older version, another program)', {}, null],
  ['a malformed report', { database: { kind: 'pglite' } }, null],
  ['the same database', { database: { kind: 'pglite', id: 'aaaaaaaaaaaaaaaa' } }, null],
  [
    'another embedded folder',
    { database: { kind: 'pglite', id: 'bbbbbbbbbbbbbbbb' } },
    /server on port 3000 uses another embedded database folder \(id bbbbbbbbbbbbbbbb\), not this embedded database in \/x\/\.data/,
  ],
  ['PostgreSQL', { database: { kind: 'postgres', id: 'aaaaaaaaaaaaaaaa' } }, /uses a PostgreSQL database .*same DATA_DIR or DATABASE_URL/],
])('%s', (_name, server, expected) => {
  const warning = databaseMismatchWarning(ours, 'embedded database in /x/.data', 3000, server);
  if (expected === null) expect(warning).toBeNull();
  else expect(warning).toMatch(expected);
});

test.each([
  ['0.0.0.0', 'http://127.0.0.1:3000/healthz'],
  ['::', 'http://127.0.0.1:3000/healthz'],
  ['127.0.0.2', 'http://127.0.0.2:3000/healthz'],
  ['::1', 'http://[::1]:3000/healthz'],
])('HOST=%s is probed at %s', (host, url) => {
  expect(healthUrl(host, 3000)).toBe(url);
});

test('a port where nothing listens answers null quickly', async () => {
  const port = freePort();
  const began = performance.now();
  expect(await probeServer(`http://127.0.0.1:${port}/healthz`)).toBeNull();
  expect(performance.now() - began).toBeLessThan(1000);
});
