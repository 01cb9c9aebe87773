/**
 * `bun scripts/faces/face-cohort.ts IN_DIR`: builds face match's cohort (decision 0068) from a folder
 * per person (IN_DIR/<person>/<image>.png, as scripts/faces/pairs-from-folders.ts writes them): each
 * photo's faceres and aligned recognition descriptors, measured by the engine's own analysis, into
 * backend/models/face-cohort/london.cohort (face-cohort.ts reads it). Built from the Face Research
 * Lab London Set (CC-BY 4.0; see that folder's README for how to rebuild the input folders).
 */
import { readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { analyseFace, loadFaceModels } from '../../backend/src/modules/engine/faces/face-analysis';
import { FACE_COHORT_FILE } from '../../backend/src/modules/engine/faces/face-cohort';
import { decodeImage } from '../../backend/src/modules/engine/image-decoding';

const inDir = process.argv[2];
if (!inDir) {
  console.error('usage: bun scripts/faces/face-cohort.ts IN_DIR');
  process.exit(2);
}
const byName = (a: string, b: string) => a.localeCompare(b, 'en', { numeric: true });
const models = await loadFaceModels({}, { withCohort: false });
const people: string[] = [];
const rows: Float32Array[] = [];
let faceres = 0;
let recognition = 0;
for (const person of readdirSync(inDir)
  .filter((name) => statSync(join(inDir, name)).isDirectory())
  .sort(byName)) {
  for (const file of readdirSync(join(inDir, person)).sort(byName)) {
    // As `bun run accuracy --pairs` measures a photo (decoded to at most 640 px).
    const image = await decodeImage(readFileSync(join(inDir, person, file)), { maxSide: 640 });
    const face = (await analyseFace(models, image, { descriptor: true, recognition: true, age: false, passive: false })).face;
    if (!face?.descriptor || !face.recognition) {
      console.warn(`${person}/${file}: no face, left out`);
      continue;
    }
    faceres = face.descriptor.length;
    recognition = face.recognition.length;
    people.push(person);
    rows.push(Float32Array.from([...face.descriptor, ...face.recognition]));
  }
}
const header = Buffer.from(`${JSON.stringify({ people, faceres, recognition })}\n`);
const body = Buffer.alloc(rows.length * (faceres + recognition) * 4);
rows.forEach((row, i) => {
  for (let j = 0; j < row.length; j++) body.writeFloatLE(row[j]!, (i * (faceres + recognition) + j) * 4);
});
writeFileSync(FACE_COHORT_FILE, Buffer.concat([header, body]));
console.log(`${people.length} photos of ${new Set(people).size} people written to ${FACE_COHORT_FILE}`);
