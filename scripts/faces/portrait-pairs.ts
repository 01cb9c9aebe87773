/**
 * `bun scripts/faces/portrait-pairs.ts IN_DIR OUT_DIR [--seed N]`: selfie-versus-document-portrait
 * pairs for `bun run accuracy --pairs OUT_DIR/pairs.csv` (issue 21, Deliver 3). IN_DIR has a folder
 * per person (IN_DIR/<person>/<image>.png, as scripts/faces/pairs-from-folders.ts writes them). Each
 * person's first photo (sorted by name, any uniform border trimmed) is printed into the portrait slot of a fictional passport
 * at its real size (34 mm at 10 px/mm, scripts/documents) and the page is photographed
 * (scripts/documents degrade: scale, tilt, blur, noise, JPEG); every other photo is a "selfie".
 * Pairs: each document against every selfie of its person (same) and of every other person
 * (different). The output holds the people's photos: keep it outside the repository unless their
 * licence allows committing them.
 */
import { copyFileSync, mkdirSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import sharp from 'sharp';
import { degrade, mrzLines, randomDegradation, randomIdentity, renderDocument, seededRandom } from '../documents/synthetic-documents';

const args = process.argv.slice(2);
const seedAt = args.indexOf('--seed');
const seed = seedAt >= 0 ? Number(args[seedAt + 1]) : 21;
const [inDir, outDir] = args.filter((_, i) => seedAt < 0 || (i !== seedAt && i !== seedAt + 1));
if (!inDir || !outDir) {
  console.error('usage: bun scripts/faces/portrait-pairs.ts IN_DIR OUT_DIR [--seed N]');
  process.exit(1);
}
const random = seededRandom(seed);
const byName = (a: string, b: string) => a.localeCompare(b, 'en', { numeric: true });
// statSync follows links, so a set can be split into folders of links.
const people = readdirSync(inDir)
  .filter((name) => statSync(join(inDir, name)).isDirectory())
  .sort(byName);
mkdirSync(join(outDir, 'documents'), { recursive: true });
const selfies = new Map<string, string[]>();
for (const person of people) {
  const photos = readdirSync(join(inDir, person))
    .filter((f) => /\.(png|jpe?g)$/i.test(f))
    .sort(byName);
  if (photos.length < 2) continue;
  const identity = randomIdentity(random, 'TD3', new Date('2026-01-01'));
  // The padding pairs-from-folders adds for the detector is no part of a passport photo: trimmed.
  const portrait = await sharp(readFileSync(join(inDir, person, photos[0]!)))
    .trim()
    .toBuffer();
  const page = await renderDocument(identity, mrzLines(identity), portrait);
  writeFileSync(join(outDir, 'documents', `${person}.jpg`), await degrade(page, randomDegradation(random), random));
  mkdirSync(join(outDir, 'selfies', person), { recursive: true });
  selfies.set(
    person,
    photos.slice(1).map((photo) => {
      copyFileSync(join(inDir, person, photo), join(outDir, 'selfies', person, photo));
      return `selfies/${person}/${photo}`;
    }),
  );
}
const rows = ['a,b,same'];
for (const person of selfies.keys()) {
  for (const [other, theirs] of selfies) for (const selfie of theirs) rows.push(`documents/${person}.jpg,${selfie},${other === person}`);
}
writeFileSync(join(outDir, 'pairs.csv'), `${rows.join('\n')}\n`);
console.log(`${selfies.size} people: ${rows.length - 1} pairs in ${join(outDir, 'pairs.csv')}`);
