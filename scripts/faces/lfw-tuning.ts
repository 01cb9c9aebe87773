/**
 * `bun scripts/faces/lfw-tuning.ts --repos DIR --out DIR [--people N] [--photos K] [--skip S]`: builds face
 * match's tuning set (issue 21, decision 0090): photos of Labeled Faces in the Wild people who are
 * NOT in the held-out subset (lfw-subset.csv), so a threshold chosen here is measured on people it
 * never saw. From the copy of LFW in `shorth13/faces` (a clone in DIR, scripts/clones.ts).
 *
 * The people are those with two photos or more, ordered by the SHA-256 of their name (a fixed
 * order that favours no one), the first N of them (default 400), and of each the first K photos
 * (default 4, so that the few people with hundreds of photos do not make most of the pairs).
 * `--skip S` passes over the first S people of that order: `--skip 400` gives a second set of
 * other people, held out from the first (the fresh check of decision 0090).
 * Writes a folder per person, as scripts/faces/pairs-from-folders.ts reads them. LFW comes without
 * a licence, for research: the photos are read from the clone, never committed.
 */
import { createHash } from 'node:crypto';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { basename, join } from 'node:path';
import { cloneGitDir, git, requiredOption } from '../clones';

const USAGE = 'usage: bun scripts/faces/lfw-tuning.ts --repos DIR --out DIR [--people N] [--photos K] [--skip S]';
const repos = requiredOption('--repos', USAGE);
const out = requiredOption('--out', USAGE);
const option = (name: string, fallback: number) => {
  const at = process.argv.indexOf(name);
  const value = at === -1 ? fallback : Number(process.argv[at + 1]);
  if (!Number.isInteger(value) || value < 1) {
    console.error(`${name} takes a whole number of at least 1\n${USAGE}`);
    process.exit(2);
  }
  return value;
};
const peopleWanted = option('--people', 400);
const photosEach = option('--photos', 4);
const skip = process.argv.includes('--skip') ? option('--skip', 1) : 0;

const heldOut = new Set(
  readFileSync(join(import.meta.dir, 'lfw-subset.csv'), 'utf8')
    .trim()
    .split('\n')
    .slice(1)
    .map((row) => row.split(',')[1]!),
);
const lfw = cloneGitDir(repos, 'shorth13/faces');
const photos = new Map<string, string[]>();
for (const path of git(lfw, 'ls-tree', '-r', '--name-only', 'HEAD', 'lfw/').toString().trim().split('\n')) {
  const [, person, file] = path.split('/');
  if (!person || !file?.endsWith('.jpg') || heldOut.has(person)) continue;
  photos.set(person, [...(photos.get(person) ?? []), path]);
}
const digest = (name: string) => createHash('sha256').update(name).digest('hex');
const chosen = [...photos]
  .filter(([, paths]) => paths.length >= 2)
  .sort(([a], [b]) => digest(a).localeCompare(digest(b)))
  .slice(skip, skip + peopleWanted);
let written = 0;
for (const [person, paths] of chosen) {
  mkdirSync(join(out, person), { recursive: true });
  for (const path of paths.sort().slice(0, photosEach)) {
    writeFileSync(join(out, person, basename(path)), git(lfw, 'show', `HEAD:${path}`));
    written++;
  }
}
console.log(`${written} photos of ${chosen.length} people (none of lfw-subset.csv's ${heldOut.size}) written to ${out}`);
