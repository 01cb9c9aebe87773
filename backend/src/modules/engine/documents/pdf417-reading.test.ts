import { describe, expect, test } from 'bun:test';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { decodeImage } from '../image-decoding';
import { aamvaDate, parseAamva, readPdf417 } from './pdf417-reading';

describe('aamvaDate', () => {
  test.each<[string | undefined, 'USA' | 'CAN', string | null]>([
    ['01311990', 'USA', '1990-01-31'],
    ['19900131', 'CAN', '1990-01-31'],
    ['02301990', 'USA', null],
    ['1990013', 'USA', null],
    [undefined, 'USA', null],
  ])('%s (%s) → %s', (raw, country, expected) => expect(aamvaDate(raw, country)).toBe(expected));
});

describe('parseAamva', () => {
  test('reads DBB and DBA', () => {
    expect(parseAamva('@\n\x1e\rANSI 636014090002DL00410270ZC03110024DLDAQD1\nDBB01311990\nDBA01312030\r')).toEqual({
      birthDate: '1990-01-31',
      expirationDate: '2030-01-31',
      valid: true,
    });
  });
  test('refuses a payload without the AAMVA header', () => {
    expect(parseAamva('DBB01311990\nDBA01312030').valid).toBe(false);
  });
  test('refuses a payload without an expiry', () => {
    expect(parseAamva('@\n\x1e\rANSI 636014090002DL00410270ZC03110024DLDBB01311990\r').valid).toBe(false);
  });
});

test('readPdf417 decodes the committed licence barcode', async () => {
  const image = await decodeImage(readFileSync(join(import.meta.dir, '..', 'fixtures', 'licence.png')), { maxSide: 1600 });
  expect(await readPdf417(image)).toEqual({ found: true, valid: true, birthDate: '1990-01-31', expirationDate: '2030-01-31' });
}, 60_000);
