/**
 * Synthetic AAMVA PDF417 barcodes (US driving licences) drawn by zxing-wasm's writer, with its wasm
 * read from node_modules (no CDN). Dates: AAMVA US MMDDCCYY.
 */
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import sharp from 'sharp';
import { prepareZXingModule, writeBarcode } from 'zxing-wasm/writer';

const require = createRequire(import.meta.url);
let prepared = false;

const usDate = (iso: string) => iso.slice(5, 7) + iso.slice(8, 10) + iso.slice(0, 4);

export function aamvaPayload(fields: { birthDate: string; expiryDate: string }): string {
  const body = ['DLDAQD1234562', 'DCSSAMPLE', 'DACJANE', `DBB${usDate(fields.birthDate)}`, `DBA${usDate(fields.expiryDate)}`, 'DCGUSA'].join('\n');
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
