/**
 * Synthetic passports (TD3), ID cards (TD1, TD2) and visas (MRV-A, MRV-B) for tests and for measuring L2 (issue 10): a data page
 * drawn as SVG with the MRZ in OCR-B (Debian `fonts-ocr-b`), rendered by sharp, then degraded like a
 * phone photo (scale, rotation, blur, noise, JPEG). Every document is fictional; the generator is
 * seeded, so a run is reproducible.
 */
import sharp from 'sharp';
import { checkDigit } from '../../backend/src/modules/engine/documents/mrz-recovery';

export type SyntheticFormat = 'TD1' | 'TD2' | 'TD3' | 'MRVA' | 'MRVB';

export interface SyntheticIdentity {
  format: SyntheticFormat;
  country: string;
  surname: string;
  givenNames: string;
  documentNumber: string;
  /** YYYY-MM-DD */
  birthDate: string;
  expiryDate: string;
  sex: 'M' | 'F';
}

export interface Degradation {
  scale: number;
  rotateDegrees: number;
  blurSigma: number;
  noise: number;
  jpegQuality: number;
}

export const CLEAN: Degradation = { scale: 1, rotateDegrees: 0, blurSigma: 0, noise: 0, jpegQuality: 92 };

const COUNTRIES = ['FRA', 'DEU', 'GBR', 'ITA', 'ESP', 'NLD', 'BEL', 'AUT', 'SWE', 'POL', 'PRT', 'IRL', 'CAN', 'AUS'];
const SURNAMES = [
  'MARTIN',
  'SCHMIDT',
  'SMITH',
  'ROSSI',
  'GARCIA',
  'DE<JONG',
  'PEETERS',
  'GRUBER',
  'LINDQVIST',
  'KOWALSKA',
  'SILVA',
  'OKEEFFE',
  'TREMBLAY',
  'NGUYEN',
  'KLEIN',
  'OLOFSSON',
];
const GIVEN = ['ANNA', 'LUKAS', 'OLIVER', 'GIULIA', 'LUCIA', 'DAAN', 'EMMA', 'ELIAS', 'KARL<OLOF', 'ZOFIA', 'JOAO', 'AOIFE', 'LIAM', 'MAI', 'LEA<MARIE'];

/** Mulberry32: small, seeded, good enough for test data. */
export function seededRandom(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

export const pick = <T>(random: () => number, list: readonly T[]): T => list[Math.floor(random() * list.length)]!;
const pad2 = (n: number) => String(n).padStart(2, '0');
const yymmdd = (iso: string) => iso.slice(2, 4) + iso.slice(5, 7) + iso.slice(8, 10);

export function randomIdentity(random: () => number, format: SyntheticFormat, today: Date): SyntheticIdentity {
  const alnum = 'ABCDEFGHJKLMNPRSTUVWXYZ0123456789';
  const documentNumber = Array.from({ length: 9 }, () => pick(random, [...alnum])).join('');
  const age = 16 + Math.floor(random() * 60);
  const birth = `${today.getUTCFullYear() - age}-${pad2(1 + Math.floor(random() * 12))}-${pad2(1 + Math.floor(random() * 28))}`;
  const expiry = `${today.getUTCFullYear() + 1 + Math.floor(random() * 8)}-${pad2(1 + Math.floor(random() * 12))}-${pad2(1 + Math.floor(random() * 28))}`;
  return {
    format,
    country: pick(random, COUNTRIES),
    surname: pick(random, SURNAMES),
    givenNames: pick(random, GIVEN),
    documentNumber,
    birthDate: birth,
    expiryDate: expiry,
    sex: random() < 0.5 ? 'F' : 'M',
  };
}

const fill = (text: string, length: number) => (text + '<'.repeat(length)).slice(0, length);

/** The MRZ lines of an identity, with every check digit right (Doc 9303 parts 4 to 7). */
export function mrzLines(id: SyntheticIdentity): string[] {
  const dob = yymmdd(id.birthDate);
  const exp = yymmdd(id.expiryDate);
  const num = fill(id.documentNumber, 9);
  const names = `${id.surname}<<${id.givenNames}`;
  // TD2 and the visas: TD3's second line up to the expiry check digit, then optional data; TD2 ends
  // with a composite check digit, a visa has none.
  if (id.format !== 'TD1' && id.format !== 'TD3') {
    const length = id.format === 'MRVA' ? 44 : 36;
    const code = id.format === 'TD2' ? 'I<' : 'V<';
    const start = `${num}${checkDigit(num)}${id.country}${dob}${checkDigit(dob)}${id.sex}${exp}${checkDigit(exp)}`;
    if (id.format !== 'TD2') return [fill(`${code}${id.country}${names}`, length), fill(start, length)];
    const line2 = fill(start, 35);
    return [fill(`${code}${id.country}${names}`, length), `${line2}${checkDigit(line2.slice(0, 10) + line2.slice(13, 20) + line2.slice(21, 35))}`];
  }
  if (id.format === 'TD3') {
    const optional = '<'.repeat(14);
    const line2 = `${num}${checkDigit(num)}${id.country}${dob}${checkDigit(dob)}${id.sex}${exp}${checkDigit(exp)}${optional}${checkDigit(optional)}`;
    const composite = line2.slice(0, 10) + line2.slice(13, 20) + line2.slice(21, 43);
    return [fill(`P<${id.country}${names}`, 44), `${line2}${checkDigit(composite)}`];
  }
  const line1 = fill(`I<${id.country}${num}${checkDigit(num)}`, 30);
  const line2start = `${dob}${checkDigit(dob)}${id.sex}${exp}${checkDigit(exp)}${id.country}${'<'.repeat(11)}`;
  const composite = line1.slice(5, 30) + line2start.slice(0, 7) + line2start.slice(8, 15) + line2start.slice(18, 29);
  return [line1, `${line2start}${checkDigit(composite)}`, fill(names, 30)];
}

/** A French national identity card of 1988–2021 (its own 2 × 36 layout, decision 0051). */
export interface FrenchCard {
  surname: string;
  givenNames: string;
  /** YYYY-MM */
  issued: string;
  /** Three characters, such as 075 or 2A0. */
  department: string;
  /** Five digits. */
  serial: string;
  /** YYYY-MM-DD */
  birthDate: string;
  sex: 'M' | 'F';
}

/** The French card's MRZ, with its check digits right (the layout the `mrz` package parses). */
export function frenchCardLines(card: FrenchCard): string[] {
  const line1 = fill(`IDFRA${fill(card.surname, 25)}${card.department}013`, 36);
  const number = `${card.issued.slice(2, 4)}${card.issued.slice(5, 7)}${card.department}${card.serial}`;
  const dob = yymmdd(card.birthDate);
  const line2 = `${number}${checkDigit(number)}${fill(card.givenNames, 14)}${dob}${checkDigit(dob)}${card.sex}`;
  return [line1, `${line2}${checkDigit(line1 + line2)}`];
}

/** The page size in pixels (10 px/mm) of a layout, as renderDocument draws it. */
export function pageSize(format: SyntheticFormat): { width: number; height: number } {
  // Widths at 10 px/mm (Doc 9303 parts 4 to 7): a passport page 125 mm, an MRV-A visa sticker 120 mm
  // (drawn as the page), a TD2 card and an MRV-B visa 105 mm, a TD1 card 85.6 mm.
  const passport = format === 'TD3' || format === 'MRVA';
  return { width: passport ? 1250 : format === 'TD1' ? 856 : 1050, height: passport ? 880 : format === 'TD1' ? 540 : 740 };
}

/** The MRZ font size: OCR-B advances about 0.72 em per character (monospace); the lines fill the page width. */
export const mrzFontSize = (pageWidth: number, lineLength: number) => Math.floor((pageWidth - 60) / (lineLength * 0.75));

/** The height of an OCR-B capital or digit per em of font size (measured: 80 px, anti-aliasing included, at 100 px). */
export const OCR_B_GLYPH_PER_EM = 0.78;

const escapeXml = (text: string) => text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');

/**
 * The data page as PNG: fields in a sans font, a portrait (a face image, or a grey silhouette), the
 * MRZ in OCR-B; `background`, an SVG fragment, is printed under everything (the MRZ model's training
 * lines draw a security pattern there; the evaluation sets leave the page plain).
 */
export async function renderDocument(id: SyntheticIdentity, lines: string[], portrait?: Uint8Array, background = ''): Promise<Buffer> {
  const passport = id.format === 'TD3' || id.format === 'MRVA';
  const visa = id.format === 'MRVA' || id.format === 'MRVB';
  const { width, height } = pageSize(id.format);
  const mrzSize = mrzFontSize(width, lines[0]!.length);
  const mrzTop = height - lines.length * mrzSize * 1.25 - 30;
  const label = (x: number, y: number, title: string, value: string) =>
    `<text x="${x}" y="${y}" font-family="DejaVu Sans" font-size="16" fill="#556">${title}</text><text x="${x}" y="${y + 30}" font-family="DejaVu Sans" font-size="24" fill="#111">${escapeXml(value)}</text>`;
  const left = passport ? 420 : 300;
  const svg = `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}">
  <rect width="100%" height="100%" fill="#eef2f0"/>${background}
  <rect x="0" y="0" width="100%" height="70" fill="#2d4a6b"/>
  <text x="30" y="48" font-family="DejaVu Sans" font-size="32" fill="#fff">${visa ? 'VISA' : passport ? 'PASSPORT' : 'IDENTITY CARD'} · ${id.country} · SPECIMEN</text>
  <rect x="40" y="100" width="${left - 80}" height="${(left - 80) * 1.28}" fill="#c8ccd0"/>
  ${label(left, 120, 'Surname', id.surname.replace(/</g, ' '))}
  ${label(left, 190, 'Given names', id.givenNames.replace(/</g, ' '))}
  ${label(left, 260, 'Date of birth', id.birthDate)}
  ${label(left + 300, 260, 'Sex', id.sex)}
  ${passport ? label(left, 330, 'Date of expiry', id.expiryDate) + label(left + 300, 330, 'Document no.', id.documentNumber) : ''}
  ${lines.map((line, i) => `<text x="30" y="${mrzTop + (i + 1) * mrzSize * 1.25}" font-family="OCR B" font-size="${mrzSize}" fill="#000">${escapeXml(line)}</text>`).join('\n  ')}
</svg>`;
  let page = sharp(Buffer.from(svg));
  if (portrait) {
    const photoWidth = left - 80;
    const photo = await sharp(portrait)
      .resize({ width: photoWidth, height: Math.round(photoWidth * 1.28), fit: 'cover', position: 'north' })
      .toBuffer();
    page = sharp(await page.png().toBuffer()).composite([{ input: photo, left: 40, top: 100 }]);
  }
  return page.png().toBuffer();
}

/** A phone photo of the page: scaled, slightly rotated on a dark table, blurred, noisy, JPEG-compressed. */
export async function degrade(png: Buffer, d: Degradation, random: () => number): Promise<Buffer> {
  const meta = await sharp(png).metadata();
  let image = sharp(png).resize({ width: Math.round(meta.width! * d.scale) });
  if (d.rotateDegrees) image = sharp(await image.png().toBuffer()).rotate(d.rotateDegrees, { background: { r: 40, g: 40, b: 45 } });
  if (d.blurSigma >= 0.3) image = image.blur(d.blurSigma);
  const raw = await image.removeAlpha().raw().toBuffer({ resolveWithObject: true });
  if (d.noise > 0) {
    const data = raw.data;
    for (let i = 0; i < data.length; i++) data[i] = Math.max(0, Math.min(255, data[i]! + (random() - 0.5) * 2 * d.noise));
  }
  return sharp(raw.data, { raw: { width: raw.info.width, height: raw.info.height, channels: 3 } })
    .jpeg({ quality: d.jpegQuality })
    .toBuffer();
}

/** A random phone-photo degradation within the ranges measured in docs/engine-notes.md "Documents". */
export function randomDegradation(random: () => number): Degradation {
  return {
    scale: 0.5 + random() * 0.4,
    rotateDegrees: (random() - 0.5) * 3,
    blurSigma: random() * 1.1,
    noise: random() * 14,
    jpegQuality: 55 + Math.floor(random() * 35),
  };
}
