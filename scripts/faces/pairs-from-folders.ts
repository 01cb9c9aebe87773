/**
 * `bun scripts/faces/pairs-from-folders.ts IN_DIR OUT_DIR [--pad F] [--scale S]`: turns a folder
 * per person (IN_DIR/<person>/<image>) into the face-match evaluation set that
 * `bun run accuracy --pairs OUT_DIR/pairs.csv` reads: every image as PNG (binary PGM included, as the
 * ORL/AT&T set ships), optionally scaled and padded with grey (faces that fill the frame give the
 * detector no context), and pairs.csv with every same-person pair and every different-person pair.
 * The images stay outside the repository (their licences are in docs/verification.md).
 */
import { mkdirSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { extname, join } from 'node:path';
import sharp from 'sharp';

/** Binary PGM (P5, 8-bit): sharp's prebuilt libvips has no PGM loader. */
function readPgm(bytes: Uint8Array): { data: Uint8Array; width: number; height: number } {
  const fields: string[] = [];
  let i = 0;
  while (fields.length < 4) {
    while (/\s/.test(String.fromCharCode(bytes[i]!))) i++;
    if (bytes[i] === 0x23) {
      while (bytes[i] !== 0x0a) i++;
      continue;
    }
    let field = '';
    while (!/\s/.test(String.fromCharCode(bytes[i]!))) field += String.fromCharCode(bytes[i++]!);
    fields.push(field);
  }
  const [magic, width, height, max] = fields;
  if (magic !== 'P5' || max !== '255') throw new Error(`only 8-bit binary PGM is read, not ${magic} max ${max}`);
  return { data: bytes.subarray(i + 1, i + 1 + Number(width) * Number(height)), width: Number(width), height: Number(height) };
}

const [inDir, outDir, ...rest] = process.argv.slice(2);
if (!inDir || !outDir) {
  console.error('Usage: bun scripts/faces/pairs-from-folders.ts IN_DIR OUT_DIR [--pad F] [--scale S]');
  process.exit(1);
}
const flag = (name: string, fallback: number) => {
  const at = rest.indexOf(`--${name}`);
  return at >= 0 ? Number(rest[at + 1]) : fallback;
};
const pad = flag('pad', 0);
const scale = flag('scale', 1);

const images: { person: string; file: string }[] = [];
for (const person of readdirSync(inDir).sort()) {
  if (!statSync(join(inDir, person)).isDirectory()) continue;
  mkdirSync(join(outDir, person), { recursive: true });
  for (const name of readdirSync(join(inDir, person)).sort()) {
    if (!/\.(jpe?g|png|pgm)$/i.test(name)) continue;
    const bytes = readFileSync(join(inDir, person, name));
    let image =
      extname(name).toLowerCase() === '.pgm'
        ? (() => {
            const pgm = readPgm(bytes);
            return sharp(Buffer.from(pgm.data), { raw: { width: pgm.width, height: pgm.height, channels: 1 } });
          })()
        : sharp(bytes);
    const meta = await image.metadata();
    const width = Math.round((meta.width ?? 0) * scale);
    const height = Math.round((meta.height ?? 0) * scale);
    image = sharp(await image.resize(width, height).png().toBuffer());
    const border = Math.round(Math.max(width, height) * pad);
    const file = join(person, `${name.replace(/\.[^.]+$/, '')}.png`);
    await image
      .extend({ top: border, bottom: border, left: border, right: border, background: { r: 128, g: 128, b: 128 } })
      .png()
      .toFile(join(outDir, file));
    images.push({ person, file });
  }
}
const rows = ['a,b,same'];
for (let i = 0; i < images.length; i++)
  for (let j = i + 1; j < images.length; j++) rows.push(`${images[i]!.file},${images[j]!.file},${images[i]!.person === images[j]!.person}`);
writeFileSync(join(outDir, 'pairs.csv'), `${rows.join('\n')}\n`);
const people = new Set(images.map((i) => i.person)).size;
const same = rows.filter((r) => r.endsWith(',true')).length;
console.log(
  `${people} people, ${images.length} images: ${same} same-person and ${rows.length - 1 - same} different-person pairs in ${join(outDir, 'pairs.csv')}`,
);
