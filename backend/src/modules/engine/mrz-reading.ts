/**
 * Reads the date of birth and expiry from the MRZ of a passport (TD3) or ID card (TD1): tesseract.js
 * with Doubango's MRZ model (backend/models/mrz, BSD-3; docs/engine-notes.md "Documents"), loaded from the
 * repository with `cacheMethod: 'none'` so nothing is fetched from a CDN or cached on disk. The OCR
 * text is repaired by field classes (mrz-recovery.ts) and then every check digit is validated by the
 * `mrz` package: a document is never accepted on a line the check digits do not confirm.
 */
import { join } from 'node:path';
import { parse } from 'mrz';
import sharp from 'sharp';
import { createWorker, OEM, PSM, type Worker } from 'tesseract.js';
import type { DecodedImage } from './image-decoding';
import { findMrzLines, recoverMrz, type MrzFormat } from './mrz-recovery';

const MODEL_DIR = join(import.meta.dir, '..', '..', '..', 'models', 'mrz');

export type MrzReading =
  | { found: false }
  | {
      found: true;
      format: MrzFormat;
      /** Every check digit and code the `mrz` package validates passed. */
      valid: boolean;
      invalidFields: string[];
      /** YYMMDD as printed; the century is inferred by the decision (age-decision.ts). */
      birthDate: string | null;
      expirationDate: string | null;
      documentCode: string | null;
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

/** A grey PNG of the lower part of the page, where Doc 9303 puts the MRZ, or of the whole page. */
async function bandPng(image: DecodedImage, fromFraction: number): Promise<Buffer> {
  const top = Math.floor(image.height * fromFraction);
  return sharp(image.data, { raw: { width: image.width, height: image.height, channels: 3 } })
    .extract({ left: 0, top, width: image.width, height: image.height - top })
    .greyscale()
    .normalise()
    .png()
    .toBuffer();
}

function interpret(format: MrzFormat, lines: string[]): MrzReading {
  const repaired = recoverMrz(format, lines);
  try {
    const result = parse(repaired, { autocorrect: false });
    return {
      found: true,
      format,
      valid: result.valid,
      invalidFields: result.details.filter((d) => !d.valid).map((d) => d.field ?? d.label),
      birthDate: result.fields.birthDate ?? null,
      expirationDate: result.fields.expirationDate ?? null,
      documentCode: result.fields.documentCode ?? null,
    };
  } catch {
    return { found: true, format, valid: false, invalidFields: ['format'], birthDate: null, expirationDate: null, documentCode: null };
  }
}

/**
 * Tries the bottom third first (the MRZ of a page that fills the frame; OCR time grows with the
 * area read), then a wider band, then the whole page in sparse-text mode.
 */
export async function readMrz(ocr: Worker, image: DecodedImage): Promise<MrzReading> {
  let best: MrzReading = { found: false };
  for (const [fraction, psm] of [
    [0.65, PSM.SINGLE_BLOCK],
    [0.4, PSM.SINGLE_BLOCK],
    [0, PSM.SPARSE_TEXT],
  ] as const) {
    await ocr.setParameters({ tessedit_pageseg_mode: psm });
    const { data } = await ocr.recognize(await bandPng(image, fraction));
    const lines = findMrzLines(data.text);
    if (!lines) continue;
    const reading = interpret(lines.format, lines.lines);
    if (reading.found && reading.valid) return reading;
    if (!best.found) best = reading;
  }
  return best;
}
