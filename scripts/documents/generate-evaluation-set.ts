/**
 * A labelled set of synthetic documents for `bun run accuracy --documents DIR`: passports (TD3) and
 * ID cards (TD1) with phone-photo degradations, one in ten with one check digit altered (must be
 * refused), and AAMVA licence barcodes. Needs Debian `fonts-ocr-b`.
 * Run: bun scripts/documents/generate-evaluation-set.ts --out DIR [--count N] [--seed S]
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { degrade, mrzLines, randomDegradation, randomIdentity, renderDocument, seededRandom } from './synthetic-documents';
import { renderLicenceBarcode } from './synthetic-licences';

const args = process.argv.slice(2);
const option = (name: string, fallback: string) => {
  const index = args.indexOf(`--${name}`);
  return index >= 0 && args[index + 1] ? args[index + 1]! : fallback;
};
const out = option('out', '');
if (!out) {
  console.error('Usage: bun scripts/documents/generate-evaluation-set.ts --out DIR [--count N] [--seed S]');
  process.exit(1);
}
const count = Number(option('count', '60'));
const random = seededRandom(Number(option('seed', '1')));
const today = new Date();
mkdirSync(out, { recursive: true });
const labels = ['file,document_type,birth_date,valid'];
for (let i = 0; i < count; i++) {
  const kind = i % 6 === 5 ? 'driving_licence' : i % 2 === 0 ? 'passport' : 'id_card';
  const id = randomIdentity(random, kind === 'id_card' ? 'TD1' : 'TD3', today);
  const file = `${String(i).padStart(4, '0')}-${kind}.${kind === 'driving_licence' ? 'png' : 'jpg'}`;
  if (kind === 'driving_licence') {
    writeFileSync(join(out, file), await renderLicenceBarcode({ birthDate: id.birthDate, expiryDate: id.expiryDate }));
    labels.push(`${file},${kind},${id.birthDate},true`);
    continue;
  }
  const lines = mrzLines(id);
  const altered = i % 10 === 3;
  if (altered) {
    // The date-of-birth check digit of TD3 line 2 (position 19) or TD1 line 2 (position 6).
    const [line, position] = id.format === 'TD3' ? [1, 19] : [1, 6];
    const original = lines[line]!;
    lines[line] = original.slice(0, position) + String((Number(original[position]) + 1 + Math.floor(random() * 8)) % 10) + original.slice(position + 1);
  }
  const page = await renderDocument(id, lines);
  writeFileSync(join(out, file), await degrade(page, randomDegradation(random), random));
  labels.push(`${file},${kind},${id.birthDate},${!altered}`);
}
writeFileSync(join(out, 'labels.csv'), `${labels.join('\n')}\n`);
console.log(`${count} documents and labels.csv written to ${out}`);
