/**
 * Reads the date of birth and expiry from the MRZ of a passport (TD3), an ID card (TD1, TD2, the
 * French card of 1988–2021) or a visa (MRV-A, MRV-B): tesseract.js
 * with Doubango's MRZ model (backend/models/mrz, BSD-3; docs/engine-notes.md "Documents"), loaded from the
 * repository with `cacheMethod: 'none'` so nothing is fetched from a CDN or cached on disk. The OCR
 * text is repaired by field classes (mrz-recovery.ts) and then every check digit is validated
 * (mrz-validation.ts, the `mrz` package where it knows the layout): a document is never accepted on a
 * line the check digits do not confirm.
 */
import { join } from 'node:path';
import sharp from 'sharp';
import { createWorker, OEM, PSM, type Worker } from 'tesseract.js';
import type { DecodedImage } from './image-decoding';
import { FALLBACK_TURNS, turnImage } from './document-orientation';
import { locateMrzBands } from './mrz-band';
import { agreeingReadings, combineReadings, type MrzLines } from './mrz-consensus';
import { alternativeLayout, findMrzLines, recoverMrz, type MrzFormat } from './mrz-recovery';
import { validateMrz } from './mrz-validation';

const MODEL_DIR = join(import.meta.dir, '..', '..', '..', 'models', 'mrz');

export type MrzReading =
  | { found: false }
  | {
      found: true;
      format: MrzFormat;
      /** Every check digit and code passed (mrz-validation.ts). */
      valid: boolean;
      invalidFields: string[];
      /** YYMMDD as printed; the century is inferred by the decision (document-decision.ts). */
      birthDate: string | null;
      /** Null on the French card, whose MRZ prints none: the decision derives it from `issueDate`. */
      expirationDate: string | null;
      /** YYMM, the French card's issue date (decision 0051); absent or null for the other layouts. */
      issueDate?: string | null;
      documentCode: string | null;
      /**
       * How many of the independent readings (crops and page-segmentation modes) read exactly these
       * repaired lines. A failing line read alike at least twice is what the document says; read once,
       * it may be a misread (decision 0042).
       */
      agreeing: number;
    };

export async function createMrzOcr(): Promise<Worker> {
  const worker = await createWorker('mrz', OEM.LSTM_ONLY, { langPath: MODEL_DIR, cacheMethod: 'none', gzip: false, logger: () => {}, errorHandler: () => {} });
  await worker.setParameters({
    tessedit_char_whitelist: 'ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789<',
    tessedit_pageseg_mode: PSM.SINGLE_BLOCK,
    user_defined_dpi: '300',
  });
  return worker;
}

/**
 * A grey PNG of the lower part of the page, where Doc 9303 puts the MRZ, or of the whole page;
 * enlarged `scale` times (Lanczos) for a small picture whose glyphs are too few pixels high.
 */
async function bandPng(image: DecodedImage, fromFraction: number, scale = 1): Promise<Buffer> {
  const top = Math.floor(image.height * fromFraction);
  const band = sharp(image.data, { raw: { width: image.width, height: image.height, channels: 3 } }).extract({
    left: 0,
    top,
    width: image.width,
    height: image.height - top,
  });
  const sized = scale > 1 ? band.resize({ width: Math.round(image.width * scale), kernel: 'lanczos3' }) : band;
  return sized.greyscale().normalise().png().toBuffer();
}

function interpret(format: MrzFormat, repaired: MrzLines, agreeing: number): MrzReading & { found: true } {
  return { found: true, format, ...validateMrz(format, repaired), agreeing };
}

/** Bottom third (the MRZ of a page that fills the frame; OCR time grows with the area read), a wider band, the whole page. */
const PASSES = [
  [0.65, PSM.SINGLE_BLOCK],
  [0.4, PSM.SINGLE_BLOCK],
  [0, PSM.SPARSE_TEXT],
] as const;

type Pass = (typeof PASSES)[number];
type Reading = { format: MrzFormat; lines: MrzLines };

/** One OCR pass: a reading whose check digits all pass, the failing lines it read, or nothing found. */
async function readPass(ocr: Worker, image: DecodedImage, [fraction, psm]: Pass, scale = 1): Promise<(MrzReading & { found: true }) | Reading | null> {
  return readPng(ocr, await bandPng(image, fraction, scale), psm);
}

async function readPng(ocr: Worker, png: Buffer, psm: PSM): Promise<(MrzReading & { found: true }) | Reading | null> {
  await ocr.setParameters({ tessedit_pageseg_mode: psm });
  const { data } = await ocr.recognize(png);
  return readText(data.text);
}

/**
 * A page narrower than this is read once more enlarged when no pass read it: its MRZ glyphs are
 * then about 8–12 px high (issue 20's small scans), below what the model reads reliably.
 */
export const SMALL_PAGE_WIDTH = 1100;
/** The width the enlarged reading brings a small page to (at most 3 times). */
const ENLARGED_WIDTH = 1800;

/**
 * What one OCR text says: the repaired lines and, when every check digit passes, the reading. A
 * zone whose document code was misread is tried as the other layout of its size too
 * (alternativeLayout: a visa whose V reads as another letter is not a failing passport or card).
 */
export function readText(text: string): (MrzReading & { found: true }) | Reading | null {
  const found = findMrzLines(text);
  if (!found) return null;
  const lines = recoverMrz(found.format, found.lines);
  const reading = interpret(found.format, lines, 1);
  if (reading.valid) return reading;
  const alternative = alternativeLayout(found.format, found.lines);
  if (alternative) {
    const other = interpret(alternative, recoverMrz(alternative, found.lines), 1);
    if (other.valid) return other;
  }
  return { format: found.format, lines };
}

/**
 * Runs the passes in order; the first reading whose check digits all pass wins. When none does, a
 * small page is read once more enlarged, and the zone is looked for by image processing, levelled
 * and read (mrz-band.ts); then the readings are combined field by field under the check digits
 * (mrz-consensus.ts), and a failing result reports how many readings agree on it. When the upright
 * image shows no MRZ at all, the right-angle turns are tried (document-orientation.ts) with the
 * wide band, and the first turn that shows one is read with every pass.
 */
export async function readMrz(ocr: Worker, image: DecodedImage): Promise<MrzReading> {
  const readings: Reading[] = [];
  for (const pass of PASSES) {
    const result = await readPass(ocr, image, pass);
    if (result && 'found' in result) return result;
    if (result) readings.push(result);
  }
  if (readings.length > 0 && image.width < SMALL_PAGE_WIDTH) {
    const result = await readPass(ocr, image, PASSES[1], Math.min(3, ENLARGED_WIDTH / image.width));
    if (result && 'found' in result) return result;
    if (result) readings.push(result);
  }
  // No fixed band read a valid zone: look for the zone itself, levelled and enlarged (mrz-band.ts).
  for (const band of await locateMrzBands(image)) {
    const result = await readPng(ocr, band.png, PSM.SINGLE_BLOCK);
    if (result && 'found' in result) return result;
    if (result) readings.push(result);
  }
  if (readings.length > 0) return settle(readings);
  for (const turn of FALLBACK_TURNS) {
    const turned = await turnImage(image, turn);
    const probe = await readPass(ocr, turned, PASSES[1]);
    if (!probe) continue;
    if ('found' in probe) return probe;
    readings.push(probe);
    for (const pass of [PASSES[0], PASSES[2]]) {
      const result = await readPass(ocr, turned, pass);
      if (result && 'found' in result) return result;
      if (result) readings.push(result);
    }
    return settle(readings);
  }
  return { found: false };
}

/** No single reading passed: combine them per field, else report the failing reading most of them agree on. */
export function settle(readings: readonly { format: MrzFormat; lines: MrzLines }[]): MrzReading {
  const first = readings[0];
  if (!first) return { found: false };
  const same = readings.filter((r) => r.format === first.format).map((r) => r.lines);
  const combined = combineReadings(first.format, same);
  if (combined) {
    const reading = interpret(first.format, combined, 1);
    if (reading.valid) return reading;
  }
  const best = same.reduce((a, b) => (agreeingReadings(same, b) > agreeingReadings(same, a) ? b : a));
  return interpret(first.format, best, agreeingReadings(same, best));
}
