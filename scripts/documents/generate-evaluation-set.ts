/**
 * A labelled set of synthetic documents for `bun run accuracy --documents DIR`. Needs Debian `fonts-ocr-b`.
 * - Default: passports (TD3) and ID cards (TD1) with phone-photo degradations, one in ten with one
 *   check digit altered (must be refused), and AAMVA licence barcodes.
 * - `--hard` (issue 20): TD3, TD1 and TD2 documents and MRV-A / MRV-B visas, each photographed with
 *   one degradation kind of hard-degradation.ts (perspective, clutter, glare, shadow, EXIF rotation,
 *   low resolution, all combined, or the base alone), JPEG quality 40–70; one in ten altered. No licences.
 * labels.csv: `file,document_type,birth_date,valid,layout,degradation`.
 * Run: bun scripts/documents/generate-evaluation-set.ts --out DIR [--count N] [--seed S] [--hard]
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { hardDegradation, hardItem, renderHardPhoto } from './hard-degradation';
import { degrade, mrzLines, randomDegradation, randomIdentity, renderDocument, seededRandom } from './synthetic-documents';
import { renderLicenceBarcode } from './synthetic-licences';

const args = process.argv.slice(2);
const option = (name: string, fallback: string) => {
  const index = args.indexOf(`--${name}`);
  return index >= 0 && args[index + 1] ? args[index + 1]! : fallback;
};
const out = option('out', '');
if (!out) {
  console.error('Usage: bun scripts/documents/generate-evaluation-set.ts --out DIR [--count N] [--seed S] [--hard]');
  process.exit(1);
}
// Without the font, librsvg draws the MRZ in a fallback face and every figure measured on the set is
// about another font; refuse rather than write such a set.
if (!Bun.spawnSync(['fc-list', 'OCR B']).stdout.toString().trim()) {
  console.error('The OCR-B font is not installed (Debian: apt-get install -y fonts-ocr-b); the MRZ would be drawn in another font.');
  process.exit(1);
}
const hard = args.includes('--hard');
const count = Number(option('count', '60'));
const random = seededRandom(Number(option('seed', '1')));
const today = new Date();
mkdirSync(out, { recursive: true });
const labels = ['file,document_type,birth_date,valid,layout,degradation'];

/** The MRZ lines, with the date-of-birth check digit altered when asked: TD1 line 2 position 6, every other layout's position 19. */
function linesFor(id: ReturnType<typeof randomIdentity>, altered: boolean): string[] {
  const lines = mrzLines(id);
  if (altered) {
    const position = id.format === 'TD1' ? 6 : 19;
    const original = lines[1]!;
    lines[1] = original.slice(0, position) + String((Number(original[position]) + 1 + Math.floor(random() * 8)) % 10) + original.slice(position + 1);
  }
  return lines;
}

for (let i = 0; i < count; i++) {
  if (hard) {
    const item = hardItem(i);
    const id = randomIdentity(random, item.format, today);
    const file = `${String(i).padStart(4, '0')}-${item.format.toLowerCase()}-${item.kind}.jpg`;
    const lines = linesFor(id, item.altered);
    const page = await renderDocument(id, lines);
    writeFileSync(join(out, file), await renderHardPhoto(page, item.format, lines[0]!.length, hardDegradation(item.kind, random), random));
    labels.push(`${file},${item.documentType},${id.birthDate},${!item.altered},${item.format},${item.kind}`);
    continue;
  }
  // The default set draws exactly what it drew before the hard mode (same seeds, same images).
  const kind = i % 6 === 5 ? 'driving_licence' : i % 2 === 0 ? 'passport' : 'id_card';
  const id = randomIdentity(random, kind === 'id_card' ? 'TD1' : 'TD3', today);
  const file = `${String(i).padStart(4, '0')}-${kind}.${kind === 'driving_licence' ? 'png' : 'jpg'}`;
  if (kind === 'driving_licence') {
    writeFileSync(join(out, file), await renderLicenceBarcode({ birthDate: id.birthDate, expiryDate: id.expiryDate }));
    labels.push(`${file},${kind},${id.birthDate},true,PDF417,none`);
    continue;
  }
  const altered = i % 10 === 3;
  const lines = linesFor(id, altered);
  const page = await renderDocument(id, lines);
  writeFileSync(join(out, file), await degrade(page, randomDegradation(random), random));
  labels.push(`${file},${kind},${id.birthDate},${!altered},${id.format},phone`);
}
writeFileSync(join(out, 'labels.csv'), `${labels.join('\n')}\n`);
console.log(`${count} documents and labels.csv written to ${out}`);
