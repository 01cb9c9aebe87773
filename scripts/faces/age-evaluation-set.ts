/**
 * `bun scripts/faces/age-evaluation-set.ts --repos DIR --out OUT_DIR`: builds issue 19's face age
 * evaluation set with under-18s for `bun run accuracy --faces OUT_DIR` (docs/verification.md "L1 on
 * a set with under-18s").
 *
 * Two sources, read from clones and never committed here (DIR holds one clone per repository,
 * named `owner+name`; a bare clone works too):
 * - FairFace (Kärkkäinen & Joo 2021, CC BY 4.0): the 1000 validation crops (224 × 224) kept in
 *   `KrispChips/fairface-audit-pipeline` `extra_val/`, labelled from the official
 *   `fairface_label_val.csv` (copy in `Fortunanto/048100`): age group, gender and race as FairFace's
 *   annotators judged them. "3-9" becomes age_min 3, age_max 9; "more than 70" 70 to 120.
 * - All-Age-Faces (Cheng et al. 2019; no licence stated, evaluation use only), from
 *   `middleyuan/All-Age-Faces-Dataset` `original images/`: exact ages in the file name
 *   (`%05dA%02d.jpg`), female for ids 00000–07380 and male above (the dataset's README). A fixed
 *   sample: 8 women and 8 men of each age from 2 to 25, 12 of each in the bands 26–29, 30–39, …,
 *   70–80; within each, the file names sorted by their SHA-1.
 */
import { createHash } from 'node:crypto';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { cloneGitDir, git, requiredOption } from '../clones';

const USAGE = 'usage: bun scripts/faces/age-evaluation-set.ts --repos DIR --out OUT_DIR';

const repos = requiredOption('--repos', USAGE);
const out = requiredOption('--out', USAGE);
mkdirSync(out, { recursive: true });
const rows: string[] = ['file,age_min,age_max,gender,group,person'];

// FairFace.
const crops = cloneGitDir(repos, 'KrispChips/fairface-audit-pipeline');
const labelRepo = cloneGitDir(repos, 'Fortunanto/048100');
const labels = new Map(
  git(labelRepo, 'show', 'HEAD:fairface_label_val.csv')
    .toString()
    .trim()
    .split(/\r?\n/)
    .slice(1)
    .map((line) => {
      const [file, age, gender, race] = line.split(',');
      return [file!.replace(/^.*\//, ''), { age: age!, gender: gender!.toLowerCase(), race: race! }] as const;
    }),
);
const fairface = git(crops, 'ls-tree', '-r', '--name-only', 'HEAD', 'extra_val/')
  .toString()
  .split('\n')
  .filter((path) => path.endsWith('.jpg'));
for (const path of fairface) {
  const id = path.slice('extra_val/'.length);
  const label = labels.get(id);
  if (!label) throw new Error(`no FairFace label for ${id}`);
  const [min, max] = label.age === 'more than 70' ? ['70', '120'] : label.age.split('-');
  const file = `fairface_val_${id}`;
  writeFileSync(join(out, file), git(crops, 'show', `HEAD:${path}`));
  rows.push([file, min, max, label.gender, label.race, ''].join(','));
}

// All-Age-Faces.
const aaf = cloneGitDir(repos, 'middleyuan/All-Age-Faces-Dataset');
const folder = 'All-Age-Faces Dataset/original images/';
const bands: [number, number, number][] = [
  ...Array.from({ length: 24 }, (_, i): [number, number, number] => [i + 2, i + 2, 8]),
  [26, 29, 12],
  [30, 39, 12],
  [40, 49, 12],
  [50, 59, 12],
  [60, 69, 12],
  [70, 80, 12],
];
const names = git(aaf, 'ls-tree', '-r', '--name-only', 'HEAD', folder)
  .toString()
  .split('\n')
  .map((path) => path.slice(folder.length))
  .filter((name) => /^\d{5}A\d{2}\.jpg$/.test(name));
const sha1 = (text: string) => createHash('sha1').update(text).digest('hex');
let aafCount = 0;
for (const [from, to, take] of bands) {
  for (const gender of ['female', 'male']) {
    const bucket = names.filter((name) => {
      const age = Number(name.slice(6, 8));
      const female = Number(name.slice(0, 5)) <= 7380;
      return age >= from && age <= to && female === (gender === 'female');
    });
    for (const name of bucket.sort((a, b) => (sha1(a) < sha1(b) ? -1 : 1)).slice(0, take)) {
      const age = name.slice(6, 8).replace(/^0/, '');
      const file = `aaf_${name}`;
      writeFileSync(join(out, file), git(aaf, 'show', `HEAD:${folder}${name}`));
      rows.push([file, age, age, gender, '', ''].join(','));
      aafCount++;
    }
  }
}
writeFileSync(join(out, 'labels.csv'), `${rows.join('\n')}\n`);
console.log(`${fairface.length} FairFace and ${aafCount} All-Age-Faces images, and labels.csv, written to ${out}`);
