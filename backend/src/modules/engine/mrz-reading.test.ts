import { afterAll, beforeAll, describe, expect, test } from 'bun:test';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Worker } from 'tesseract.js';
import { decodeImage } from './image-decoding';
import { createMrzOcr, readMrz } from './mrz-reading';

const fixture = (name: string) => readFileSync(join(import.meta.dir, 'fixtures', name));
let ocr: Worker;
beforeAll(async () => {
  ocr = await createMrzOcr();
}, 60_000);
afterAll(() => ocr.terminate());

describe('readMrz on the committed synthetic documents (real OCR model)', () => {
  test('passport (TD3): dates read and every check digit valid', async () => {
    const reading = await readMrz(ocr, await decodeImage(fixture('passport.jpg'), { maxSide: 1600 }));
    expect(reading).toMatchObject({ found: true, format: 'TD3', valid: true, birthDate: '561119', expirationDate: '310430' });
  }, 60_000);
  test('ID card (TD1)', async () => {
    const reading = await readMrz(ocr, await decodeImage(fixture('id-card-minor.jpg'), { maxSide: 1600 }));
    expect(reading).toMatchObject({ found: true, format: 'TD1', valid: true, birthDate: '110203' });
  }, 60_000);
  test('one altered check digit makes the document invalid', async () => {
    const reading = await readMrz(ocr, await decodeImage(fixture('passport-altered-check-digit.jpg'), { maxSide: 1600 }));
    expect(reading).toMatchObject({ found: true, valid: false });
  }, 60_000);
  test('a face photo has no MRZ', async () => {
    expect(await readMrz(ocr, await decodeImage(fixture('astronaut.jpg'), { maxSide: 1600 }))).toEqual({ found: false });
  }, 60_000);
});
