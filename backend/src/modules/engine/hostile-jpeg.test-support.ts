/**
 * Hostile JPEGs for the tests (issue 22, finding 3), made in the test so no crafted file is
 * committed: a progressive JPEG from sharp whose last scan (header and entropy-coded data) is
 * repeated until the file has `scans` scans. libjpeg decodes each repeated scan over the whole
 * image, which is what makes such files slow.
 */
import sharp from 'sharp';

export async function manyScanJpeg(scans: number, side = 256): Promise<Uint8Array> {
  // A flat picture: its refinement scans are a few bytes each, so thousands fit in a small file.
  const flat = sharp({ create: { width: side, height: side, channels: 3, background: '#7a6a5a' } });
  const jpeg = new Uint8Array(await flat.jpeg({ progressive: true }).toBuffer());
  const sos: number[] = [];
  for (let i = 2; i + 1 < jpeg.length; i++) if (jpeg[i] === 0xff && jpeg[i + 1] === 0xda) sos.push(i);
  const eoi = jpeg.length - 2;
  const head = jpeg.subarray(0, sos.at(-1)!);
  const last = jpeg.subarray(sos.at(-1)!, eoi);
  const repeats = scans - sos.length + 1;
  const out = new Uint8Array(head.length + last.length * repeats + 2);
  out.set(head, 0);
  for (let r = 0; r < repeats; r++) out.set(last, head.length + r * last.length);
  out.set([0xff, 0xd9], out.length - 2);
  return out;
}
