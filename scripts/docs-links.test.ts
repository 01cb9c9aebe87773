/**
 * The documentation stands alone in a clone: no pointer to files the repository does not hold (the
 * interface contract and design notes kept beside it, research notes), and every relative link in
 * the docs reaches a file or folder of the repository.
 */
import { expect, test } from 'bun:test';
import { existsSync, readFileSync, readdirSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';

const root = join(import.meta.dir, '..');

function markdownUnder(dir: string): string[] {
  return readdirSync(join(root, dir), { recursive: true, withFileTypes: true })
    .filter((entry) => entry.isFile() && entry.name.endsWith('.md'))
    .map((entry) => relative(root, join(entry.parentPath, entry.name)));
}

const DOCS = ['README.md', 'CONTRIBUTING.md', 'sdk/README.md', 'server-sdk/README.md', 'examples/merchant/README.md', ...markdownUnder('docs')].filter((file) =>
  existsSync(join(root, file)),
);

const OUTSIDE = [/\.\.\/shared\b/, /interface-spec\.md/, /\bDESIGN\.md\b/, /\bresearch\/[\w-]+\.md\b/];

test.each(DOCS)('%s points at nothing outside the repository', (file) => {
  const text = readFileSync(join(root, file), 'utf8');
  for (const pattern of OUTSIDE) expect(text).not.toMatch(pattern);
});

test.each(DOCS)('%s: every relative link reaches a file of the repository', (file) => {
  const text = readFileSync(join(root, file), 'utf8');
  const targets = [...text.matchAll(/\]\(([^)\s]+)\)/g)].map((match) => match[1]!).filter((target) => !/^[a-z]+:/.test(target) && !target.startsWith('#'));
  const missing = targets.filter((target) => {
    const path = join(root, dirname(file), target.split('#')[0]!);
    return !path.startsWith(root) || !existsSync(path);
  });
  expect(missing).toEqual([]);
});
