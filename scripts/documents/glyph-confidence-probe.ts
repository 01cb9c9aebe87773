/**
 * `bun scripts/documents/glyph-confidence-probe.ts --documents DIR [--only a.jpg,b.jpg]`: reads a
 * labelled document set (generate-evaluation-set.ts, or the real specimen sets) with the engine's
 * own `readMrz`, and for every page it verifies prints how sure tesseract was of the glyphs the
 * verdict rests on: the six digits of the birth date and their check digit, in the crop whose OCR
 * text passed. An experiment for issue 20's last wrong acceptances (decision 0091's lone passing
 * readings), to tell whether the model's own per-glyph confidence separates a misread that repairs
 * an altered check digit from a right reading. One JSON line per page; nothing is written.
 *
 * The OCR jobs are asked for tesseract's symbol output as well as the text; the symbols of the
 * crop that passed are matched to its birth date by the seven characters (digit look-alikes
 * folded) followed by the sex field, as Doc 9303 places them on every layout.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import type { Page } from 'tesseract.js';
import { readLabelsCsv } from '../../backend/src/cli/labels-csv';
import { decodeImage } from '../../backend/src/modules/engine/image-decoding';
import { createMrzOcr, type MrzOcr } from '../../backend/src/modules/engine/documents/mrz-ocr';
import { readMrz, readText } from '../../backend/src/modules/engine/documents/mrz-reading';
import { AS_DIGIT, checkDigit } from '../../backend/src/modules/engine/documents/mrz-recovery';

const { values } = parseArgs({ options: { documents: { type: 'string' }, only: { type: 'string' } } });
if (!values.documents) throw new Error('--documents DIR is required');
const dir = values.documents;
const only = values.only ? new Set(values.only.split(',')) : null;

/** The page's symbols, in reading order, with their confidence. */
function symbols(page: Page): { text: string; confidence: number }[] {
  return (page.blocks ?? []).flatMap((b) => b.paragraphs.flatMap((p) => p.lines.flatMap((l) => l.words.flatMap((w) => w.symbols))));
}

/** A letter read where a digit is printed, as the engine's repair reads it (mrz-recovery.ts AS_DIGIT). */
const folded = (c: string) => AS_DIGIT[c] ?? c;

/** The confidences of `digits` (birth date and check digit) where the symbols read them before a sex field, or null. */
function glyphConfidences(page: Page, digits: string): number[] | null {
  const all = symbols(page);
  const chars = all.map((s) => folded(s.text));
  const hits: number[] = [];
  for (let i = 0; i + digits.length <= chars.length; i++) {
    if (chars.slice(i, i + digits.length).join('') === digits && /^[MF<XK]$/.test(all[i + digits.length]?.text ?? '')) hits.push(i);
  }
  if (hits.length === 0) return null;
  return all.slice(hits[0]!, hits[0]! + digits.length).map((s) => Math.round(s.confidence * 10) / 10);
}

const ocr = await createMrzOcr();
const jobs: Page[] = [];
const addJob = ocr.addJob.bind(ocr);
(ocr as { addJob: unknown }).addJob = async (action: string, png: Buffer, parameters: unknown) => {
  const result = (await (addJob as (...a: unknown[]) => Promise<{ data: Page }>)(action, png, parameters, { text: true, blocks: true })) as {
    data: Page;
  };
  jobs.push(result.data);
  return result;
};

const rows = readLabelsCsv(join(dir, 'labels.csv'), ['file', 'birth_date', 'valid']);
for (const row of rows) {
  if (only && !only.has(row.file!)) continue;
  if (row.layout === 'PDF417') continue;
  jobs.length = 0;
  const image = await decodeImage(readFileSync(join(dir, row.file!)), { maxSide: 1600 });
  const started = performance.now();
  const reading = await readMrz(ocr as MrzOcr, image);
  const ms = Math.round(performance.now() - started);
  if (!reading.found || !reading.valid || !reading.birthDate) {
    console.log(JSON.stringify({ file: row.file, valid: row.valid, verdict: reading.found ? (reading.valid ? 'valid' : 'failing') : 'none', ms }));
    continue;
  }
  const digits = `${reading.birthDate}${checkDigit(reading.birthDate)}`;
  // The crops whose text alone passed on this birth date: the lone passing readings.
  const passing = jobs.filter((page) => {
    const r = readText(page.text);
    return r && 'found' in r && r.valid && r.birthDate === reading.birthDate;
  });
  const confidences = passing.map((page) => glyphConfidences(page, digits));
  const truth = row.birth_date!.replace(/-/g, '').slice(2);
  console.log(
    JSON.stringify({
      file: row.file,
      valid: row.valid,
      right: reading.birthDate === truth && row.valid === 'true',
      read: reading.birthDate,
      truth,
      jobs: jobs.length,
      passing: passing.length,
      confidences,
      ms,
    }),
  );
}
await ocr.terminate();
