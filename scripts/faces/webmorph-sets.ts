/**
 * `bun scripts/faces/webmorph-sets.ts --repos DIR --out DIR --set london|strangers`: rebuilds the
 * studio photo sets of `debruine/webmorphR.stim` (a clone in DIR, scripts/clones.ts) as a folder
 * per person, which scripts/faces/pairs-from-folders.ts turns into pairs (docs/verification.md,
 * "Face match").
 * - london: the Face Research Lab London Set (CC BY 4.0; DeBruine & Jones 2017), 102 adults, each
 *   `pNNN/neutral.jpg` (`inst/neutral_front/NNN_03.jpg`) and `pNNN/smiling.jpg`
 *   (`inst/smiling_front/NNN_08.jpg`), and one woman on two occasions, `lisa/` (the CC0 sets
 *   `inst/lisa` and `inst/zoom`): the set face match's cohort and its London figures come from.
 * - strangers: one studio photo each of 140 other adults, for false accepts only (issue 21,
 *   decision 0090): the 40 Ontario students of `inst/canada` (CC BY 4.0; DeBruine & Jones 2017,
 *   doi:10.6084/m9.figshare.4220517.v1) and the 100 adults of `inst/3dsk` (CC BY 4.0, derived from
 *   3D.sk images under their licence for educational use; DeBruine & Jones 2020,
 *   doi:10.17605/OSF.IO/A3947).
 * The photos stay outside the repository.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { basename, join } from 'node:path';
import { cloneGitDir, git, requiredOption } from '../clones';

const USAGE = 'usage: bun scripts/faces/webmorph-sets.ts --repos DIR --out DIR --set london|strangers';
const repos = requiredOption('--repos', USAGE);
const out = requiredOption('--out', USAGE);
const set = requiredOption('--set', USAGE);
if (set !== 'london' && set !== 'strangers') {
  console.error(`--set is london or strangers, not ${set}\n${USAGE}`);
  process.exit(2);
}
const stim = cloneGitDir(repos, 'debruine/webmorphR.stim');
const jpegs = (folder: string) =>
  git(stim, 'ls-tree', '-r', '--name-only', 'HEAD', folder)
    .toString()
    .trim()
    .split('\n')
    // The macOS resource forks (`._001_03.jpg`) are no photos.
    .filter((path) => path.endsWith('.jpg') && !basename(path).startsWith('._'));
/** [person folder, file name, path in the repository] of every photo of the set. */
const photos: [string, string, string][] =
  set === 'london'
    ? [
        ...jpegs('inst/neutral_front')
          .filter((path) => /\/\d+_03\.jpg$/.test(path))
          .map((path): [string, string, string] => [`p${basename(path, '_03.jpg')}`, 'neutral.jpg', path]),
        ...jpegs('inst/smiling_front')
          .filter((path) => /\/\d+_08\.jpg$/.test(path))
          .map((path): [string, string, string] => [`p${basename(path, '_08.jpg')}`, 'smiling.jpg', path]),
        ...[...jpegs('inst/lisa'), ...jpegs('inst/zoom')].map((path): [string, string, string] => [
          'lisa',
          `${basename(join(path, '..'))}-${basename(path)}`,
          path,
        ]),
      ]
    : [
        ...jpegs('inst/canada').map((path): [string, string, string] => [`canada-${basename(path, '.jpg')}`, 'photo.jpg', path]),
        ...jpegs('inst/3dsk').map((path): [string, string, string] => [`3dsk-${basename(join(path, '..'))}-${basename(path, '.jpg')}`, 'photo.jpg', path]),
      ];
for (const [person, file, path] of photos) {
  mkdirSync(join(out, person), { recursive: true });
  writeFileSync(join(out, person, file), git(stim, 'show', `HEAD:${path}`));
}
console.log(`${photos.length} photos of ${new Set(photos.map(([person]) => person)).size} people written to ${out}`);
