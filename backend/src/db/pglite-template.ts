/**
 * A fresh PGlite cluster costs 3–8 s of initdb (it creates and fills a whole cluster). We pay it once per machine:
 * the first embedded start dumps an empty, initialised cluster to a cached tarball, and every later
 * empty folder (a new DATA_DIR, every test database) is unpacked from it in ~0.4 s.
 */
import { mkdirSync, readFileSync, renameSync, existsSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { PGlite } from '@electric-sql/pglite';

const repoRoot = join(dirname(fileURLToPath(import.meta.url)), '../../..');
const pgliteVersion: string = JSON.parse(readFileSync(join(repoRoot, 'node_modules/@electric-sql/pglite/package.json'), 'utf8')).version;

/** Keyed by the PGlite version: a new PGlite may change the on-disk format. */
export function templatePath(cacheDir = process.env.PGLITE_TEMPLATE_DIR ?? join(repoRoot, 'node_modules/.cache/ageverify')): string {
  return join(cacheDir, `pglite-${pgliteVersion}-empty.tgz`);
}

let pending: Promise<Blob> | null = null;

/** The template tarball, created on first use. */
export function loadTemplate(path = templatePath()): Promise<Blob> {
  pending ??= (async () => {
    if (!existsSync(path)) {
      const fresh = await PGlite.create();
      const dump = await fresh.dumpDataDir('gzip');
      await fresh.close();
      mkdirSync(dirname(path), { recursive: true });
      // Write then rename, so a concurrent process never reads half a tarball.
      const partial = `${path}.${process.pid}.partial`;
      await Bun.write(partial, dump);
      renameSync(partial, path);
    }
    return new Blob([readFileSync(path)]);
  })();
  return pending;
}
