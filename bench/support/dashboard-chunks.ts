/**
 * The dashboard's JavaScript as the browser fetches it (issue 23: its first load stays at most
 * 80 KB gzip): the module scripts dashboard/dist/index.html names and every chunk they import
 * statically make the first load; chunks reached only through a dynamic import() (the charts'
 * Chart.js, dashboard/src/chart-canvas.ts) load on demand and are counted apart. Read from the
 * built files themselves, with Bun's import scanner, so whatever rollup decides is what is counted.
 */
import { existsSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { gzipSync } from 'node:zlib';

/** Bytes of gzip (level 9, each file on its own, as each is fetched): 80 KB. */
export const DASHBOARD_FIRST_LOAD_BUDGET = 80_000;

export interface DashboardChunks {
  /** Absolute paths: the page's module scripts, then what they import statically. */
  firstLoad: string[];
  /** Absolute paths of the chunks only a dynamic import reaches (and their own static imports). */
  onDemand: string[];
}

/** null when `dist` has no index.html (not built). */
export function dashboardChunks(dist: string): DashboardChunks | null {
  const page = join(dist, 'index.html');
  if (!existsSync(page)) return null;
  const entries = [...readFileSync(page, 'utf8').matchAll(/<script\b[^>]*\bsrc="\/dashboard\/([^"]+\.js)"/g)].map((match) => join(dist, match[1]!));
  const transpiler = new Bun.Transpiler({ loader: 'js' });
  const known = new Set<string>();
  /** Follows static imports from `roots`; returns the files reached and the dynamic imports met on the way. */
  const walk = (roots: string[]) => {
    const reached: string[] = [];
    const dynamic: string[] = [];
    const queue = [...roots];
    while (queue.length > 0) {
      const file = queue.shift()!;
      if (known.has(file)) continue;
      known.add(file);
      reached.push(file);
      for (const item of transpiler.scan(readFileSync(file, 'utf8')).imports) {
        const target = join(dirname(file), item.path);
        if (item.kind === 'dynamic-import') dynamic.push(target);
        else if (item.kind === 'import-statement') queue.push(target);
      }
    }
    return { reached, dynamic };
  };
  const first = walk(entries);
  const later = walk(first.dynamic);
  return { firstLoad: first.reached, onDemand: later.reached };
}

export function gzipBytes(file: string): number {
  return gzipSync(readFileSync(file), { level: 9 }).byteLength;
}
