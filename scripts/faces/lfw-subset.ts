/**
 * `bun scripts/faces/lfw-subset.ts --repos DIR --out DIR`: rebuilds face match's in-the-wild
 * evaluation set (issue 21; docs/verification.md, "Face match", "On news photos"): 695 photos of 147
 * people of Labeled Faces in the Wild, chosen for its many Black people (85 with two photos or
 * more), from the copy of LFW in `shorth13/faces` (a clone in DIR, scripts/clones.ts). Writes a
 * folder per person, as scripts/faces/pairs-from-folders.ts reads them, and `groups.csv`.
 *
 * lfw-subset.csv names each photo with its SHA-256, checked here, and each person's group as
 * public knowledge describes them (LFW has no such labels; they are not self-reported). LFW comes
 * without a licence, for research: the photos are read from the clone, never committed.
 */
import { createHash } from 'node:crypto';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { basename, join } from 'node:path';
import { cloneGitDir, git, requiredOption } from '../clones';

const USAGE = 'usage: bun scripts/faces/lfw-subset.ts --repos DIR --out DIR';
const repos = requiredOption('--repos', USAGE);
const out = requiredOption('--out', USAGE);
const lfw = cloneGitDir(repos, 'shorth13/faces');
const groups = new Map<string, string>();
const rows = readFileSync(join(import.meta.dir, 'lfw-subset.csv'), 'utf8')
  .trim()
  .split('\n')
  .slice(1);
for (const row of rows) {
  const [path, person, group, sha256] = row.split(',') as [string, string, string, string];
  const bytes = git(lfw, 'show', `HEAD:${path}`);
  const digest = createHash('sha256').update(bytes).digest('hex');
  if (digest !== sha256) throw new Error(`${path}: SHA-256 ${digest}, expected ${sha256}`);
  mkdirSync(join(out, person), { recursive: true });
  writeFileSync(join(out, person, basename(path)), bytes);
  groups.set(person, group);
}
writeFileSync(join(out, 'groups.csv'), `person,group\n${[...groups].map(([person, group]) => `${person},${group}`).join('\n')}\n`);
console.log(`${rows.length} photos of ${groups.size} people written to ${out}`);
