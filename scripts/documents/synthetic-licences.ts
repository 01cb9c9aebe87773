/**
 * Synthetic AAMVA PDF417 barcodes (US driving licences) drawn by zxing-wasm's writer, with its wasm
 * read from node_modules (no CDN), and the matching licence fronts with a portrait (the side face
 * match compares with the selfie). Dates: AAMVA US MMDDCCYY. Every licence is fictional.
 */
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import sharp from 'sharp';
import { prepareZXingModule, writeBarcode } from 'zxing-wasm/writer';

const require = createRequire(import.meta.url);
let prepared = false;

const usDate = (iso: string) => iso.slice(5, 7) + iso.slice(8, 10) + iso.slice(0, 4);

/** The holder a synthetic licence's barcode names (AAMVA DAQ, DCS, DAC), shown on its front too. */
export const LICENCE_HOLDER = { number: 'D1234562', surname: 'SAMPLE', givenName: 'JANE' } as const;

export function aamvaPayload(fields: { birthDate: string; expiryDate: string }): string {
  const body = [
    `DLDAQ${LICENCE_HOLDER.number}`,
    `DCS${LICENCE_HOLDER.surname}`,
    `DAC${LICENCE_HOLDER.givenName}`,
    `DBB${usDate(fields.birthDate)}`,
    `DBA${usDate(fields.expiryDate)}`,
    'DCGUSA',
  ].join('\n');
  return `@\n\x1e\rANSI 636014090002DL00410270ZC03110024${body}\r`;
}

export async function renderLicenceBarcode(fields: { birthDate: string; expiryDate: string }): Promise<Buffer> {
  if (!prepared) {
    const wasm = readFileSync(join(dirname(require.resolve('zxing-wasm/package.json')), 'dist', 'writer', 'zxing_writer.wasm'));
    prepareZXingModule({
      overrides: { wasmBinary: wasm.buffer.slice(wasm.byteOffset, wasm.byteOffset + wasm.byteLength) as ArrayBuffer },
      fireImmediately: true,
    });
    prepared = true;
  }
  const written = await writeBarcode(aamvaPayload(fields), { format: 'PDF417', scale: 3 } as Parameters<typeof writeBarcode>[1]);
  if (written.error) throw new Error(written.error);
  return sharp(Buffer.from(written.svg))
    .flatten({ background: '#fff' })
    .extend({ top: 40, bottom: 40, left: 40, right: 40, background: '#fff' })
    .png()
    .toBuffer();
}

/**
 * The front of the licence whose barcode renderLicenceBarcode draws: an ID-1 card (85.6 × 54 mm at
 * about 300 dpi) with the portrait on the left and the holder's fields, as PNG. The engine only
 * takes the portrait from it (face match); the fields are there so it looks like a licence.
 */
export async function renderLicenceFront(fields: { birthDate: string; expiryDate: string }, portrait: Uint8Array): Promise<Buffer> {
  const width = 1012;
  const height = 638;
  const photo = { left: 40, top: 120, width: 300, height: 384 };
  const label = (x: number, y: number, title: string, value: string) =>
    `<text x="${x}" y="${y}" font-family="DejaVu Sans" font-size="18" fill="#556">${title}</text><text x="${x}" y="${y + 32}" font-family="DejaVu Sans" font-size="28" fill="#111">${value}</text>`;
  const left = photo.left + photo.width + 40;
  const svg = `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}">
  <rect width="100%" height="100%" rx="36" fill="#f1ede4"/>
  <rect x="0" y="0" width="100%" height="90" fill="#7a2e2e"/>
  <text x="40" y="60" font-family="DejaVu Sans" font-size="38" fill="#fff">DRIVER LICENSE · USA · SPECIMEN</text>
  ${label(left, 150, '1 Family name', LICENCE_HOLDER.surname)}
  ${label(left, 230, '2 Given name', LICENCE_HOLDER.givenName)}
  ${label(left, 310, '3 Date of birth', fields.birthDate)}
  ${label(left, 390, '4b Expires', fields.expiryDate)}
  ${label(left, 470, '5 Licence no.', LICENCE_HOLDER.number)}
  <text x="40" y="${height - 50}" font-family="DejaVu Sans" font-size="22" fill="#7a2e2e">9 Classes: B · Fictional document for tests</text>
</svg>`;
  const face = await sharp(portrait).resize({ width: photo.width, height: photo.height, fit: 'cover', position: 'north' }).toBuffer();
  return sharp(await sharp(Buffer.from(svg)).png().toBuffer())
    .composite([{ input: face, left: photo.left, top: photo.top }])
    .png()
    .toBuffer();
}
