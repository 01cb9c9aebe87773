/**
 * `bun scripts/documents/viz-date-probe.ts --documents DIR`: how often the engine's own OCR finds a
 * document's birth date printed in its visual zone (the human-readable fields above the MRZ), an
 * experiment for issue 20: a witness of the birth date that is independent of every MRZ crop would
 * tell a misread that repairs an altered check digit from the printed date (decision 0095, "What it
 * does not close"). Reads a labelled set (generate-evaluation-set.ts, or the real specimen sets) with
 * the MRZ model on the whole page in sparse-text mode, enlarged to at least 1600 px wide, leaves out
 * the lines that look like MRZ lines, and looks for the true birth date in the forms documents print
 * it (YYYYMMDD, DDMMYYYY, DD MON YYYY, DD MON YY; separators are outside the model's alphabet, so
 * they read as nothing or a space). Prints one JSON line per page and the rate per set; pages are
 * decoded in memory and nothing is written.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { PSM } from 'tesseract.js';
import { readLabelsCsv } from '../../backend/src/cli/labels-csv';
import { decodeImage } from '../../backend/src/modules/engine/image-decoding';
import { createMrzOcr, ocrText } from '../../backend/src/modules/engine/documents/mrz-ocr';
import { bandPng } from '../../backend/src/modules/engine/documents/mrz-reading';

const { values } = parseArgs({ options: { documents: { type: 'string' } } });
if (!values.documents) throw new Error('--documents DIR is required');
const dir = values.documents;

const MONTHS = ['JAN', 'FEB', 'MAR', 'APR', 'MAY', 'JUN', 'JUL', 'AUG', 'SEP', 'OCT', 'NOV', 'DEC'];
/** The forms of a YYYY-MM-DD date this probe looks for, spaces removed. */
function printedForms(date: string): string[] {
  const [y, m, d] = date.split('-') as [string, string, string];
  const month = MONTHS[Number(m) - 1]!;
  return [`${y}${m}${d}`, `${d}${m}${y}`, `${d}${month}${y}`, `${d}${month}${y.slice(2)}`];
}
/** A line of the MRZ, or what OCR made of one: long, or holding fillers. */
const mrzLike = (line: string) => line.replace(/\s/g, '').length >= 28 || (line.match(/</g)?.length ?? 0) >= 3;

const ocr = await createMrzOcr();
const counts = { pages: 0, found: 0 };
for (const row of readLabelsCsv(join(dir, 'labels.csv'), ['file', 'birth_date', 'valid'])) {
  if (row.layout === 'PDF417' || !/^\d{4}-\d{2}-\d{2}$/.test(row.birth_date ?? '')) continue;
  const image = await decodeImage(readFileSync(join(dir, row.file!)), { maxSide: 1600 });
  const scale = Math.min(3, Math.max(1, 1600 / image.width));
  const text = await ocrText(ocr, await bandPng(image, 0, scale), PSM.SPARSE_TEXT);
  const viz = text
    .split('\n')
    .filter((line) => !mrzLike(line))
    .join('')
    .replace(/\s/g, '');
  const forms = printedForms(row.birth_date!);
  const found = forms.find((form) => viz.includes(form)) ?? null;
  counts.pages++;
  if (found) counts.found++;
  console.log(JSON.stringify({ file: row.file, valid: row.valid, width: image.width, found }));
}
await ocr.terminate();
console.log(`${dir}: the birth date found in the visual zone on ${counts.found}/${counts.pages} pages`);
