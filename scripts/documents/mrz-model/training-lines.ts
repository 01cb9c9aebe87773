/**
 * Line images for training an MRZ recogniser of our own (decision 0081): an MRZ-like line drawn in
 * OCR-B (and, for one line in six, another monospace face), photographed badly (capitals 7 to 18 px
 * high, a slight turn, blur, noise, glare, a shadow edge, JPEG quality 35 to 85), then enlarged and
 * normalised as the engine does before OCR. `--easy` draws larger, cleaner lines: a model trained
 * from nothing learns those first (train.sh). The text is random, never a real person's, but with
 * what real zones have and random letters rarely give: doubled letters (a CTC recogniser must learn
 * to keep both), ICAO state codes such as Germany's `D<<` after a two-letter document code, and a
 * printed security background (security-pattern.ts), sometimes running on past the text.
 * Writes DIR/SEED-NNNNN.png, .gt.txt and .box (training-line.ts).
 * Run: bun scripts/documents/mrz-model/training-lines.ts --out DIR --count N --seed S [--easy]
 */
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import sharp, { type OverlayOptions } from 'sharp';
import { checkDigit } from '../../../backend/src/modules/engine/documents/mrz-recovery';
import { requiredOption } from '../../clones';
import { seededRandom } from '../synthetic-documents';
import { PATTERN_KINDS, securityPattern } from './security-pattern';
import { writeTrainingLine } from './training-line';

const USAGE = 'usage: bun scripts/documents/mrz-model/training-lines.ts --out DIR --count N --seed S [--easy]';
const out = requiredOption('--out', USAGE);
const count = Number(requiredOption('--count', USAGE));
const seed = Number(requiredOption('--seed', USAGE));
const easy = process.argv.includes('--easy');
mkdirSync(out, { recursive: true });

const random = seededRandom(seed);
const between = (a: number, b: number) => a + random() * (b - a);
const int = (a: number, b: number) => Math.floor(between(a, b + 1));
const pick = <T>(list: readonly T[]): T => list[Math.floor(random() * list.length)]!;
const LETTERS = 'ABCDEFGHIJKLMNOPQRSTUVWXYZ';
const DIGITS = '0123456789';
const ALNUM = LETTERS + DIGITS;
const chars = (set: string, n: number) => Array.from({ length: n }, () => pick([...set])).join('');
const fill = (text: string, length: number) => (text + '<'.repeat(length)).slice(0, length);

const date = () => `${String(int(0, 99)).padStart(2, '0')}${String(int(1, 12)).padStart(2, '0')}${String(int(1, 31)).padStart(2, '0')}`;
/** One character of a string written twice in place, as in ANNA, MUELLER or 0022. */
const doubled = (text: string, p: number) => {
  if (text.length < 2 || random() >= p) return text;
  const i = int(0, text.length - 2);
  return text.slice(0, i + 1) + text[i] + text.slice(i + 2);
};
// Issuing states of Doc 9303 part 3 (a sample; Germany's is the one of a single letter).
const STATES = [
  'D<<',
  'GBR',
  'FRA',
  'NLD',
  'ITA',
  'ESP',
  'USA',
  'CAN',
  'AUS',
  'NZL',
  'JPN',
  'CHN',
  'IND',
  'BRA',
  'MEX',
  'POL',
  'CZE',
  'SVK',
  'AUT',
  'CHE',
  'BEL',
  'LUX',
  'IRL',
  'PRT',
  'GRC',
  'SWE',
  'NOR',
  'FIN',
  'DNK',
  'EST',
  'LVA',
  'LTU',
  'BGR',
  'ROU',
  'HUN',
  'HRV',
  'SVN',
  'SRB',
  'UKR',
  'BLR',
  'RUS',
  'TUR',
  'ISR',
  'EGY',
  'ZAF',
  'NGA',
  'KEN',
  'ARG',
  'CHL',
  'COL',
  'PER',
  'KOR',
  'PHL',
  'SGP',
  'MYS',
  'THA',
  'VNM',
  'IDN',
  'HKG',
  'MAC',
  'UTO',
  'XXA',
  'EUE',
];
const state = () => {
  if (random() < 0.5) return random() < 0.15 ? 'D<<' : pick(STATES);
  if (random() < 0.1) return `${chars(LETTERS, 1)}<<`;
  return random() < 0.15 ? `${chars(LETTERS, 2)}<` : chars(LETTERS, 3);
};
const docNumber = () => doubled(random() < 0.5 ? chars(ALNUM, int(6, 9)) : chars(LETTERS, int(1, 2)) + chars(DIGITS, int(5, 7)), 0.25);
const name = () => {
  const parts = [doubled(chars(LETTERS, int(2, 12)), 0.35)];
  if (random() < 0.3) parts.push(doubled(chars(LETTERS, int(2, 10)), 0.35));
  const given = Array.from({ length: int(0, 3) }, () => doubled(chars(LETTERS, int(2, 9)), 0.35));
  return `${parts.join('<')}<<${given.join('<')}`;
};
/** Runs of one to three of the same character, so a doubled character is common, not rare. */
const runs = (length: number) => {
  let s = '';
  while (s.length < length) s += pick([...`${ALNUM}<`]).repeat(pick([1, 1, 2, 2, 3]));
  return s.slice(0, length);
};
const optional = (n: number) => (random() < 0.6 ? '<'.repeat(n) : fill(chars(ALNUM, int(1, n)), n));

/** One line of a random layout, or a random string over the alphabet. */
function mrzLine(): string {
  const r = random();
  if (r < 0.08) return chars(`${ALNUM}<<<<<<`, pick([30, 36, 44]));
  if (r < 0.13) return runs(pick([30, 36, 44]));
  const length = pick([30, 36, 44]);
  const line = random() < 0.5 ? 0 : 1 + (length === 30 && random() < 0.5 ? 1 : 0);
  const num = fill(docNumber(), 9);
  const dob = date();
  const exp = date();
  const sex = pick(['M', 'F', '<']);
  if (length === 30) {
    if (line === 0) return fill(`${pick(['I', 'A', 'C'])}${pick(['<', 'D', 'R', 'O', 'P'])}${state()}${num}${checkDigit(num)}${optional(15)}`, 30);
    if (line === 1) {
      const s = `${dob}${checkDigit(dob)}${sex}${exp}${checkDigit(exp)}${state()}${optional(11)}`;
      return s + checkDigit(s);
    }
    return fill(name(), 30);
  }
  if (line === 0) return fill(`${pick(['P<', 'I<', 'V<', 'PD', 'ID', 'AC', 'VS', 'PO', 'IP', 'IR', 'PP', 'PM', 'IT', 'VD'])}${state()}${name()}`, length);
  const start = `${num}${checkDigit(num)}${state()}${dob}${checkDigit(dob)}${sex}${exp}${checkDigit(exp)}`;
  if (length === 36) return fill(start + optional(7), 35) + chars(`${DIGITS}<`, 1);
  const opt = optional(14);
  return `${start}${opt}${checkDigit(opt)}${chars(DIGITS, 1)}`;
}

const FONTS = [
  ['OCR B', 0.7],
  ['OCR B S', 0.15],
  ['DejaVu Sans Mono', 0.08],
  ['Liberation Mono', 0.07],
] as const;
function font(): string {
  let r = random();
  for (const [f, p] of FONTS) {
    r -= p;
    if (r < 0) return f;
  }
  return 'OCR B';
}

const escapeXml = (t: string) => t.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');

async function lineImage(text: string): Promise<Buffer> {
  const size = 60;
  const advance = size * 0.72;
  // Background past the text: a zone crop often runs on over the page's pattern, which is no `<`.
  const before = !easy && random() < 0.2 ? between(0, 3) * advance : 0;
  const after = !easy && random() < 0.3 ? between(0, 6) * advance : 0;
  const width = Math.round(text.length * advance + size * between(0.8, 1.3) + before + after);
  const height = Math.round(size * between(1.05, 1.45));
  const ink = int(0, 70);
  const paper = int(170, 250);
  const tint = () => Math.max(0, Math.min(255, paper + int(-25, 10)));
  const bold = random() < 0.4 ? between(0.3, 2.2) : 0;
  // The data page's printed background behind the text: on half the lines, a faint one on the easy ones.
  const pattern = random() < 0.5 ? securityPattern(easy ? 'waves' : pick(PATTERN_KINDS), { width, height, em: size }, paper, random) : '';
  const baseline = height / 2 + size * 0.39 + between(-2, 2);
  const svg = `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}">
<rect width="100%" height="100%" fill="rgb(${tint()},${tint()},${tint()})"/>${pattern}
<text x="${(before + size / 2 + between(-6, 6)).toFixed(1)}" y="${baseline.toFixed(1)}" font-family="${font()}" font-size="${size}" fill="rgb(${ink},${ink},${ink})" ${bold ? `stroke="rgb(${ink},${ink},${ink})" stroke-width="${bold.toFixed(2)}"` : ''}>${escapeXml(text)}</text>
</svg>`;
  let img = await sharp(Buffer.from(svg)).greyscale().png().toBuffer();
  // Glare: a bright spot washing out part of the line; shadow: a darker part with a soft edge.
  const overlays: OverlayOptions[] = [];
  if (!easy && random() < 0.35) {
    const cx = between(0, width);
    const r = between(0.05, 0.5) * width;
    const strength = between(0.4, 0.92);
    overlays.push({
      input: Buffer.from(
        `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}"><defs><radialGradient id="g" cx="${cx}" cy="${between(0, height)}" r="${r}" gradientUnits="userSpaceOnUse"><stop offset="0" stop-color="#fff" stop-opacity="${strength}"/><stop offset="${between(0.2, 0.7).toFixed(2)}" stop-color="#fff" stop-opacity="${(strength * 0.8).toFixed(2)}"/><stop offset="1" stop-color="#fff" stop-opacity="0"/></radialGradient></defs><rect width="100%" height="100%" fill="url(#g)"/></svg>`,
      ),
    });
  }
  if (!easy && random() < 0.25) {
    const x = between(0, width);
    const soft = between(2, 60);
    const dark = between(0.25, 0.6);
    const left = random() < 0.5;
    overlays.push({
      input: Buffer.from(
        `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}"><defs><linearGradient id="s" x1="${x - soft}" x2="${x + soft}" y1="0" y2="0" gradientUnits="userSpaceOnUse"><stop offset="0" stop-color="#000" stop-opacity="${left ? dark : 0}"/><stop offset="1" stop-color="#000" stop-opacity="${left ? 0 : dark}"/></linearGradient></defs><rect width="100%" height="100%" fill="url(#s)"/></svg>`,
      ),
    });
  }
  if (overlays.length) img = await sharp(img).composite(overlays).greyscale().png().toBuffer();
  // The photo: capitals 7–18 px high (0.78 em), a slight turn, blur, noise, JPEG.
  const glyph = easy ? between(14, 24) : between(7, 18);
  const scale = glyph / (size * 0.78);
  let small = sharp(img).resize({
    width: Math.max(8, Math.round(width * scale * between(0.9, 1.1))),
    height: Math.max(6, Math.round(height * scale)),
    fit: 'fill',
  });
  const turn = between(-1.2, 1.2);
  if (Math.abs(turn) > 0.2) small = sharp(await small.png().toBuffer()).rotate(turn, { background: { r: paper, g: paper, b: paper } });
  const blur = easy ? between(0, 0.5) : between(0, 1.1);
  if (blur >= 0.3) small = small.blur(blur);
  const raw = await small.greyscale().raw().toBuffer({ resolveWithObject: true });
  const noise = easy ? between(0, 4) : between(0, 14);
  for (let i = 0; i < raw.data.length; i++) raw.data[i] = Math.max(0, Math.min(255, raw.data[i]! + (random() - 0.5) * 2 * noise));
  const jpeg = await sharp(raw.data, { raw: { width: raw.info.width, height: raw.info.height, channels: 1 } })
    .jpeg({ quality: easy ? int(75, 92) : int(35, 85) })
    .toBuffer();
  // As the engine reads: enlarged (Lanczos) so a glyph is 26–46 px high, grey, normalised.
  const target = between(26, 46) / glyph;
  return sharp(jpeg)
    .resize({ width: Math.round(raw.info.width * target), kernel: 'lanczos3' })
    .greyscale()
    .normalise()
    .png()
    .toBuffer();
}

for (let i = 0; i < count; i++) {
  const text = mrzLine();
  await writeTrainingLine(join(out, `${seed}-${String(i).padStart(5, '0')}`), await lineImage(text), text);
}
