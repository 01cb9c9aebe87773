/**
 * `bun scripts/documents/real-specimens.ts --repos DIR --out OUT_DIR`: builds issue 20's set of real
 * specimen documents for `bun run accuracy --documents OUT_DIR`.
 *
 * The images are government specimens (and ICAO's own figures) kept as test images by other MRZ
 * projects; their repositories' licences cover the code, and none says where its images came from,
 * so they are read from those repositories and never committed here. `real-specimens.csv` beside
 * this script names each image's repository, commit and path, the repository's licence, and its
 * label: the MRZ as printed (transcribed by eye and checked with the check digits), the birth date
 * the page prints, and whether the engine should accept it (`genuine`): a specimen of a state that
 * does not exist (UTO), with a placeholder code, or whose printed check digits fail is never
 * accepted, and is counted with the altered documents. DIR holds one clone per repository, named
 * `owner+name` (`git clone https://github.com/owner/name DIR/owner+name`); a bare clone works too.
 */
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

const USAGE = 'usage: bun scripts/documents/real-specimens.ts --repos DIR --out OUT_DIR';

function option(name: string): string {
  const at = process.argv.indexOf(name);
  const value = at === -1 ? undefined : process.argv[at + 1];
  if (!value) {
    console.error(USAGE);
    process.exit(2);
  }
  return value;
}

/** The git directory of a clone: a work tree's .git, a bare clone, or a mirror's `repo` folder. */
function gitDir(clone: string): string {
  for (const candidate of [join(clone, '.git'), join(clone, 'repo'), join(clone, 'repo', '.git'), clone]) {
    if (existsSync(join(candidate, 'HEAD')) && existsSync(join(candidate, 'objects'))) return candidate;
  }
  throw new Error(`${clone} is not a git clone`);
}

function parseCsv(text: string): Record<string, string>[] {
  const [header, ...lines] = text.trim().split('\n');
  const names = header!.split(',');
  return lines.map((line) => Object.fromEntries(line.split(',').map((value, i) => [names[i]!, value])));
}

const repos = option('--repos');
const out = option('--out');
mkdirSync(out, { recursive: true });
const rows = parseCsv(readFileSync(join(import.meta.dir, 'real-specimens.csv'), 'utf8'));
const labels = ['file,document_type,birth_date,valid,layout,degradation'];
for (const row of rows) {
  const dir = gitDir(join(repos, row.source_repo!.replace('/', '+')));
  const show = Bun.spawnSync(['git', '--git-dir', dir, 'show', `${row.source_commit}:${row.source_path}`]);
  if (show.exitCode !== 0) throw new Error(`${row.source_repo}@${row.source_commit}:${row.source_path}: ${show.stderr.toString().trim()}`);
  writeFileSync(join(out, row.file!), show.stdout);
  // The capture kind stands in the degradation column, so the accuracy report splits by it.
  labels.push([row.file, row.document_type, row.birth_date, row.genuine, row.layout, row.capture].join(','));
}
writeFileSync(join(out, 'labels.csv'), `${labels.join('\n')}\n`);
console.log(`${rows.length} specimen images (${rows.filter((row) => row.genuine === 'true').length} genuine) and labels.csv written to ${out}`);
