/**
 * Feature modules import each other one way (README, Architecture; docs/decisions/0017): a module
 * that imports another which imports it back cannot be read or changed alone. Production files
 * only: tests and test kits (`testing/`) may drive any module.
 */
import { describe, expect, test } from 'bun:test';
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve, sep } from 'node:path';

const MODULES = import.meta.dir;

function productionFiles(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) return name === 'testing' ? [] : productionFiles(path);
    return name.endsWith('.ts') && !name.endsWith('.test.ts') ? [path] : [];
  });
}

/** The module (first folder under modules/) a file belongs to, or null outside modules/. */
function moduleOf(path: string): string | null {
  const rel = relative(MODULES, path);
  if (rel.startsWith('..')) return null;
  const [first, ...rest] = rel.split(sep);
  return rest.length > 0 ? first! : null;
}

function resolveImport(from: string, specifier: string): string | null {
  const base = resolve(dirname(from), specifier);
  for (const candidate of [base, `${base}.ts`, join(base, 'index.ts')]) {
    if (existsSync(candidate) && statSync(candidate).isFile()) return candidate;
  }
  return null;
}

/** module → the modules it imports, each with one file that does it (for the failure message). */
function moduleGraph(): Map<string, Map<string, string>> {
  const graph = new Map<string, Map<string, string>>();
  for (const file of productionFiles(MODULES)) {
    const from = moduleOf(file);
    if (!from) continue;
    for (const match of readFileSync(file, 'utf8').matchAll(/from\s+'(\.[^']*)'/g)) {
      const target = resolveImport(file, match[1]!);
      const to = target ? moduleOf(target) : null;
      if (!to || to === from) continue;
      if (!graph.has(from)) graph.set(from, new Map());
      if (!graph.get(from)!.has(to)) graph.get(from)!.set(to, relative(MODULES, file));
    }
  }
  return graph;
}

function cycles(graph: Map<string, Map<string, string>>): string[] {
  const found: string[] = [];
  const state = new Map<string, 'open' | 'done'>();
  const path: string[] = [];
  const visit = (node: string) => {
    state.set(node, 'open');
    path.push(node);
    for (const next of graph.get(node)?.keys() ?? []) {
      if (state.get(next) === 'open') {
        const loop = [...path.slice(path.indexOf(next)), next];
        found.push(loop.map((m, i) => (i < loop.length - 1 ? `${m} (${graph.get(m)!.get(loop[i + 1]!)})` : m)).join(' → '));
      } else if (!state.has(next)) visit(next);
    }
    path.pop();
    state.set(node, 'done');
  };
  for (const node of graph.keys()) if (!state.has(node)) visit(node);
  return found;
}

describe('module import graph', () => {
  test('no feature module imports one that imports it back, directly or through others', () => {
    expect(cycles(moduleGraph())).toEqual([]);
  });

  test('the check sees the one-way chain sessions → events → webhooks → notifications', () => {
    const graph = moduleGraph();
    expect(graph.get('sessions')?.has('events')).toBe(true);
    expect(graph.get('events')?.has('webhooks')).toBe(true);
    expect(graph.get('webhooks')?.has('notifications')).toBe(true);
  });
});
