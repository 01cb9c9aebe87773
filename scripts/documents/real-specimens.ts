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
 *
 * `--second` builds the second set instead, `real-specimens-second.csv` (rows 201 and on, gathered
 * in stop 41 and labelled by eye only): no engine or model has read it, so it is the held-out check
 * for a change made on what the first set showed (decision 0081).
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { sniffImageType } from '../../backend/src/modules/engine/image-decoding';
import { cloneGitDir, git, requiredOption } from '../clones';
import { FIRST_SET, SECOND_SET, specimenRows } from './real-specimen-rows';

const USAGE = 'usage: bun scripts/documents/real-specimens.ts --repos DIR --out OUT_DIR [--second]';

const repos = requiredOption('--repos', USAGE);
const out = requiredOption('--out', USAGE);
mkdirSync(out, { recursive: true });
const rows = specimenRows(process.argv.includes('--second') ? SECOND_SET : FIRST_SET);
const labels = ['file,document_type,birth_date,valid,layout,degradation'];
/**
 * The service takes JPEG, PNG and WebP only; a specimen stored in another format (206 is a Windows
 * bitmap named .jpg) is converted to PNG without loss, as a user's camera or file picker would
 * hand the verify UI an image it can send. Its row names it .png.
 */
function accepted(bytes: Buffer, file: string): Buffer {
  if (sniffImageType(bytes)) return bytes;
  if (!file.endsWith('.png')) throw new Error(`${file}: not JPEG, PNG or WebP; name it .png and it is converted`);
  const png = Bun.spawnSync(['ffmpeg', '-loglevel', 'error', '-i', 'pipe:0', '-f', 'image2pipe', '-c:v', 'png', 'pipe:1'], { stdin: bytes });
  if (!png.success) throw new Error(`${file}: ffmpeg could not convert it: ${png.stderr.toString()}`);
  return png.stdout;
}

for (const row of rows) {
  const bytes = git(cloneGitDir(repos, row.source_repo!), 'show', `${row.source_commit}:${row.source_path}`);
  writeFileSync(join(out, row.file!), accepted(bytes, row.file!));
  // The capture kind stands in the degradation column, so the accuracy report splits by it.
  labels.push([row.file, row.document_type, row.birth_date, row.genuine, row.layout, row.capture].join(','));
}
writeFileSync(join(out, 'labels.csv'), `${labels.join('\n')}\n`);
console.log(`${rows.length} specimen images (${rows.filter((row) => row.genuine === 'true').length} genuine) and labels.csv written to ${out}`);
