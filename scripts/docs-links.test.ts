/**
 * The documentation stands alone in a clone: no pointer to files the repository does not hold (the
 * interface contract and design notes kept beside it, research notes), and every relative link in
 * the docs reaches a file or folder of the repository. The same holds for every committed file: no
 * path of a development machine, no citation of a notes file outside the repository, every
 * `docs/….md` a comment cites exists, and every decision record has a number of its own.
 */
import { spawnSync } from 'node:child_process';
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

/** Paths of a development machine and notes kept outside the repository. */
const OUTSIDE_ANYWHERE: [string, RegExp][] = [
  ['a path on a development machine', /(?<![\w.])\/(?:work|home\/[\w.-]+|root|Users\/[\w.-]+)\//],
  ['the interface contract file', /interface-spec\.md|\bshared\/spec\b/],
  ['a design or style notes file', /\b(?:DESIGN|STYLE)\.md\b/],
  ['a research note', /\bresearch\/[\w-]+\.md\b|\bresearch [\w-]+\.md\b/],
];
/** This file names the patterns it looks for. */
const SELF = relative(root, import.meta.path);

function committedTextFiles(): string[] {
  const listed = spawnSync('git', ['ls-files', '-z'], { cwd: root, encoding: 'utf8' });
  if (listed.status !== 0) throw new Error(`git ls-files failed: ${listed.stderr}`);
  return listed.stdout
    .split('\0')
    .filter((file) => file && file !== SELF && /\.(?:ts|js|mjs|json|md|toml|ya?ml|html|css|sh)$/.test(file) && file !== 'bun.lock')
    .filter((file) => existsSync(join(root, file)));
}

test('no committed file cites a path outside the repository', () => {
  const found: string[] = [];
  for (const file of committedTextFiles()) {
    const lines = readFileSync(join(root, file), 'utf8').split('\n');
    lines.forEach((line, index) => {
      for (const [what, pattern] of OUTSIDE_ANYWHERE) if (pattern.test(line)) found.push(`${file}:${index + 1} cites ${what}: ${line.trim().slice(0, 120)}`);
    });
  }
  expect(found).toEqual([]);
});

test('every docs/….md a committed file cites exists', () => {
  const missing: string[] = [];
  for (const file of committedTextFiles())
    for (const match of readFileSync(join(root, file), 'utf8').matchAll(/(?<![\w./-])docs\/[\w/-]+\.md/g))
      if (!match[0].includes('NNNN') && !existsSync(join(root, match[0]))) missing.push(`${file} cites ${match[0]}`);
  expect(missing).toEqual([]);
});

test('every decision record has its own number', () => {
  const numbers = new Map<string, string[]>();
  for (const name of readdirSync(join(root, 'docs/decisions'))) {
    const number = /^(\d{4})-/.exec(name)?.[1];
    if (number) numbers.set(number, [...(numbers.get(number) ?? []), name]);
  }
  expect(numbers.size).toBeGreaterThan(0);
  expect([...numbers.values()].filter((names) => names.length > 1)).toEqual([]);
});
