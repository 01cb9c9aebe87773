/**
 * Reads the date of birth from the PDF417 barcode of a North American driving licence (AAMVA DL/ID
 * card design standard: element `DBB`, MMDDCCYY in the US, CCYYMMDD in Canada; `DBA` the expiry).
 * zxing-wasm loads its wasm from a CDN unless given the bytes, so they are read from node_modules
 * (docs/engine-notes.md "Documents"). A barcode carries no check digits, so a licence is only as trustworthy as
 * its issuer's format: the fields must be complete, well-formed dates.
 */
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { prepareZXingModule, readBarcodes } from 'zxing-wasm/reader';
import type { DecodedImage } from '../image-decoding';

const require = createRequire(import.meta.url);
let prepared: Promise<unknown> | null = null;

function prepare(): Promise<unknown> {
  if (!prepared) {
    const packageDir = dirname(require.resolve('zxing-wasm/package.json'));
    const wasmBinary = readFileSync(join(packageDir, 'dist', 'reader', 'zxing_reader.wasm'));
    prepared = Promise.resolve(
      prepareZXingModule({
        overrides: { wasmBinary: wasmBinary.buffer.slice(wasmBinary.byteOffset, wasmBinary.byteOffset + wasmBinary.byteLength) as ArrayBuffer },
        fireImmediately: true,
      }),
    );
  }
  return prepared;
}

export type Pdf417Reading = { found: false } | { found: true; valid: boolean; birthDate: string | null; expirationDate: string | null };

/** An AAMVA date: US MMDDCCYY, Canada CCYYMMDD; returned as YYYY-MM-DD, or null when malformed. */
export function aamvaDate(raw: string | undefined, country: 'USA' | 'CAN'): string | null {
  if (!raw || !/^\d{8}$/.test(raw)) return null;
  const [year, month, day] = country === 'CAN' ? [raw.slice(0, 4), raw.slice(4, 6), raw.slice(6, 8)] : [raw.slice(4, 8), raw.slice(0, 2), raw.slice(2, 4)];
  const iso = `${year}-${month}-${day}`;
  const date = new Date(`${iso}T00:00:00Z`);
  return Number.isNaN(date.getTime()) || date.toISOString().slice(0, 10) !== iso ? null : iso;
}

/** The elements of an AAMVA payload: lines starting with a three-letter element id (`DBB19900131`). */
export function parseAamva(text: string): { birthDate: string | null; expirationDate: string | null; valid: boolean } {
  if (!/ANSI |AAMVA/.test(text.slice(0, 40))) return { birthDate: null, expirationDate: null, valid: false };
  const elements = new Map<string, string>();
  // biome-ignore lint/suspicious/noControlCharactersInRegex: AAMVA separates records with RS (0x1E).
  for (const line of text.split(/[\n\r\x1e]+/)) {
    const match = /(?:^|DL|ID)(D[A-Z]{2})(.*)$/.exec(line.trim());
    if (match && !elements.has(match[1]!)) elements.set(match[1]!, match[2]!.trim());
  }
  const country = elements.get('DCG') === 'CAN' ? 'CAN' : 'USA';
  const birthDate = aamvaDate(elements.get('DBB'), country);
  const expirationDate = aamvaDate(elements.get('DBA'), country);
  return { birthDate, expirationDate, valid: birthDate !== null && expirationDate !== null };
}

export async function readPdf417(image: DecodedImage): Promise<Pdf417Reading> {
  await prepare();
  const rgba = new Uint8ClampedArray(image.width * image.height * 4);
  for (let i = 0, j = 0; i < image.data.length; i += 3, j += 4) {
    rgba[j] = image.data[i]!;
    rgba[j + 1] = image.data[i + 1]!;
    rgba[j + 2] = image.data[i + 2]!;
    rgba[j + 3] = 255;
  }
  const results = await readBarcodes(
    { data: rgba, width: image.width, height: image.height, colorSpace: 'srgb' } as unknown as Parameters<typeof readBarcodes>[0],
    {
      formats: ['PDF417'],
      tryHarder: true,
      textMode: 'Plain',
      maxNumberOfSymbols: 1,
    },
  );
  const text = results.find((r) => r.isValid)?.text;
  if (!text) return { found: false };
  return { found: true, ...parseAamva(text) };
}
