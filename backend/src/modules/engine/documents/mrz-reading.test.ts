import { afterAll, beforeAll, describe, expect, test } from 'bun:test';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import sharp from 'sharp';
import { PSM } from 'tesseract.js';
import { decideDocument, MRZ_READINGS_TO_CONFIRM } from '../decisions/document-decision';
import { decodeImage } from '../image-decoding';
import type { DocumentFindings } from '../model';
import { zonesAcrossPage } from './document-orientation';
import { locateMrzBands } from './mrz-band';
import { createMrzOcr, type MrzOcr, ocrText } from './mrz-ocr';
import { concludeReadings, inFirstHalf, type MrzReading, readMrz, readText, SMALL_PAGE_WIDTH, settle } from './mrz-reading';
import { checkDigit, gluedLineCuts } from './mrz-recovery';

/** The capabilities are under test here, not the time budget (MRZ_BUDGET_MS): a busy machine must not cut a late step short. */
const UNLIMITED = Number.POSITIVE_INFINITY;
const fixture = (name: string) => readFileSync(join(import.meta.dir, '..', 'fixtures', name));
/** What the decision makes of a reading of the document, for an adult-only tenant without face match, on `at`. */
const decided = (reading: MrzReading, documentType: 'passport' | 'id_card', at: string) =>
  decideDocument(
    { kind: 'document', documentType, reading: { source: 'mrz', ...reading }, portrait: null, frames: [] } satisfies DocumentFindings,
    { legalMinimumAge: 18, faceMatchEnabled: false },
    new Date(at),
  );
/**
 * A booklet scanned open: a panel of upright text (the passport's upper part, without its MRZ)
 * beside a panel whose MRZ runs up the page (the TD2 card turned a quarter).
 */
async function openBooklet(): Promise<Buffer> {
  const text = await sharp(fixture('passport.jpg')).extract({ left: 0, top: 0, width: 952, height: 420 }).toBuffer();
  const card = await sharp(fixture('id-card-td2.jpg')).rotate(-90).toBuffer();
  return sharp({ create: { width: 1600, height: 860, channels: 3, background: '#f4f4ef' } })
    .composite([
      { input: text, left: 20, top: 40 },
      { input: card, left: 1000, top: 30 },
    ])
    .jpeg({ quality: 85 })
    .toBuffer();
}
let ocr: MrzOcr;
beforeAll(async () => {
  ocr = await createMrzOcr();
}, 60_000);
afterAll(() => ocr.terminate());

describe('readMrz on the committed synthetic documents (real OCR model)', () => {
  test('passport (TD3): dates read and every check digit valid', async () => {
    const reading = await readMrz(ocr, await decodeImage(fixture('passport.jpg'), { maxSide: 1600 }), UNLIMITED);
    expect(reading).toMatchObject({ found: true, format: 'TD3', valid: true, birthDate: '561119', expirationDate: '310430' });
  }, 60_000);
  test('ID card (TD1)', async () => {
    const reading = await readMrz(ocr, await decodeImage(fixture('id-card-minor.jpg'), { maxSide: 1600 }), UNLIMITED);
    expect(reading).toMatchObject({ found: true, format: 'TD1', valid: true, birthDate: '110203' });
  }, 60_000);
  test('TD2 card (2 × 36): found, dates read, every check digit valid, an adult accepted (issue 20)', async () => {
    const reading = await readMrz(ocr, await decodeImage(fixture('id-card-td2.jpg'), { maxSide: 1600 }), UNLIMITED);
    expect(reading).toMatchObject({ found: true, format: 'TD2', valid: true, birthDate: '880714', expirationDate: '290317', documentCode: 'I' });
    expect(decided(reading, 'id_card', '2026-11-22T12:00:00Z')).toEqual({ decision: 'verified' });
  }, 60_000);
  test('visa (MRV-A, 2 × 44 with document code V): read as a visa, not a passport, and accepted (decision 0051)', async () => {
    const reading = await readMrz(ocr, await decodeImage(fixture('visa-mrva.jpg'), { maxSide: 1600 }), UNLIMITED);
    expect(reading).toMatchObject({ found: true, format: 'MRVA', valid: true, birthDate: '620502', expirationDate: '281201', documentCode: 'V' });
    expect(decided(reading, 'passport', '2026-11-22T12:00:00Z')).toEqual({ decision: 'verified' });
  }, 60_000);
  test('visa (MRV-B, 2 × 36 with document code V): read as a visa, not a TD2 card', async () => {
    const reading = await readMrz(ocr, await decodeImage(fixture('visa-mrvb.jpg'), { maxSide: 1600 }), UNLIMITED);
    expect(reading).toMatchObject({ found: true, format: 'MRVB', valid: true, birthDate: '620502', expirationDate: '270615', documentCode: 'V' });
  }, 60_000);
  test('French card of 1988–2021: its own layout, no expiry printed, one derived from the issue month (decision 0051)', async () => {
    const reading = await readMrz(ocr, await decodeImage(fixture('id-card-french.jpg'), { maxSide: 1600 }), UNLIMITED);
    expect(reading).toMatchObject({ found: true, format: 'FRENCH_ID', valid: true, birthDate: '840309', expirationDate: null, issueDate: '1609' });
    // Issued September 2016 to an adult: valid 15 years, to 31 August 2031.
    expect(decided(reading, 'id_card', '2026-11-22T12:00:00Z')).toEqual({ decision: 'verified' });
    expect(decided(reading, 'id_card', '2031-09-01T12:00:00Z')).toEqual({
      decision: 'failed',
      reason: 'document_expired',
    });
  }, 60_000);
  test('a small scan (MRZ glyphs about 9 px high) is read once more enlarged: every check digit valid, not a forgery verdict (issue 20)', async () => {
    const image = await decodeImage(fixture('small-scan-td3.jpg'), { maxSide: 1600 });
    expect(image.width).toBeLessThan(SMALL_PAGE_WIDTH);
    const reading = await readMrz(ocr, image, UNLIMITED);
    expect(reading).toMatchObject({ found: true, format: 'TD3', valid: true, birthDate: '680726' });
  }, 60_000);
  // Each is a document of the harder synthetic set (fixtures/README.md) that an earlier engine did not read.
  test.each([
    ['a page photographed at an angle: the zone is found by image processing, levelled and read, not refused', 'perspective-td3.jpg', 'TD3', '041211'],
    // With one threshold for the whole band no MRZ was found at all (engine 2026.11.7).
    ['a shadow edge across the zone: read again thresholded per neighbourhood, every check digit valid', 'shadow-td1.jpg', 'TD1', '090411'],
    // Before zonesFromLines no zone was found and every turn was tried in vain (engine 2026.11.8).
    ['a page on a busy table whose zone the closing joins to the papers around it: found from its lines and read', 'clutter-td3.jpg', 'TD3', '980417'],
    // Engine 2026.11.11 levelled the crop by the whole block (5.4°, clutter included): no MRZ found.
    [
      'a visa page at an angle on a busy table, every degradation at once: its zone is levelled by its own lines, not by the clutter the closing joined to it',
      'combined-mrva.jpg',
      'MRVA',
      '930614',
    ],
    // Read as one block, each MRZ row ran on into the receipt's: no MRZ found (engine 2026.12.12, decision 0100).
    [
      'a passport on a busy table whose zone the closing joins to a receipt level with its lines: read with the layout analysis, the MRZ lines come out alone',
      'combined-td3-beside-print.jpg',
      'TD3',
      '980613',
    ],
    // No step before the enlarged page reads it under the project's own MRZ model (decision 0087).
    [
      'a small card photo with every degradation at once that no step reads as it came: enlarged twice and read again',
      'combined-td1-enlarged.jpg',
      'TD1',
      '671217',
    ],
    // Every earlier step read its lines cut where the glare starts (engine 2026.12.17, decision 0104).
    [
      'a visa whose MRZ lines run into a glare spot: the zone carried on and flattened, each pixel against the paper around it',
      'combined-mrva-glare-tail.jpg',
      'MRVA',
      '890810',
    ],
    // Every earlier step, the thresholded flat fields included, read it failing (engine 2026.12.19, decision 0106).
    [
      'a passport on a keystoned page under glare: the zone levelled by its lines, flattened and read grey',
      'combined-td3-relevelled-flat.jpg',
      'TD3',
      '840425',
    ],
    // Glare across the middle of the zone cut it into two blocks, each too narrow to be a zone: no MRZ found (engine 2026.12.20, decision 0107).
    ['a visa whose zone glare cuts in two: its two blocks, side by side on one row, are the zone again', 'combined-mrva-glare-split.jpg', 'MRVA', '570126'],
    // Its lines' pieces were fourteen characters apart and, slanting, no longer on one row: no MRZ found (engine 2026.12.20, decision 0107).
    ['a slanting visa zone whose lines glare cuts far apart: the pieces joined along their slant', 'combined-mrva-slanted-split.jpg', 'MRVA', '980107'],
    // One reading of eighteen read its second line right but for a P for the B of its document number, the others fourteen ways: refused as invalid (engine 2026.12.21, decision 0108).
    ['a card at an angle whose second line one reading alone reads, with a P for a B', 'perspective-td2-number-read-once.jpg', 'TD2', '530917'],
  ])(
    '%s (issue 20)',
    async (_, name, format, birthDate) => {
      const reading = await readMrz(ocr, await decodeImage(fixture(name), { maxSide: 1600 }), UNLIMITED);
      expect(reading).toMatchObject({ found: true, format, valid: true, birthDate });
    },
    60_000,
  );
  // Each verified by an earlier engine, from a misread that passes against what the page's own crops read.
  test.each([
    // Engine 2026.11.30 verified it with 2003-05-22 (held-out seed 53, decision 0086).
    ['an altered card whose enlarged page misreads the birth date so that it passes, against what its crops read', 'altered-td1-enlarged.jpg'],
    // Engine 2026.12.13 verified it: every crop read `5407215` as printed, the enlarged page `5407213` (held-out seed 153, decision 0101).
    ['an altered card whose enlarged page misreads the altered check digit back to the true one, against what its crops read', 'altered-td2-enlarged.jpg'],
    // Engine 2026.12.14 verified it with 1959-08-06: the fixed bands read the V as Y and the date so that it passes (held-out seed 161, decision 0102).
    ['an altered visa whose V only the zone reads, and the date as printed: the bands that misread both', 'altered-mrva-code-unread.jpg'],
    // Engines 2026.12.20 and .21 verified it with 1960-05-01, the date of one reading whose line lost a character (held-out seed 244, decision 0109).
    ['an altered visa whose one misaligned reading passes the altered check digit', 'altered-mrva-shifted-donor.jpg'],
  ])(
    '%s: not accepted',
    async (_, name) => {
      const reading = await readMrz(ocr, await decodeImage(fixture(name), { maxSide: 1600 }), UNLIMITED);
      expect(reading.found && reading.valid).toBe(false);
    },
    60_000,
  );
  test('one altered check digit: independent readings agree on it, so the document is refused, not read again', async () => {
    const reading = await readMrz(ocr, await decodeImage(fixture('passport-altered-check-digit.jpg'), { maxSide: 1600 }), UNLIMITED);
    expect(reading).toMatchObject({ found: true, valid: false });
    expect(reading.found && reading.agreeing).toBeGreaterThanOrEqual(MRZ_READINGS_TO_CONFIRM);
    expect(decided(reading, 'passport', '2026-11-22T12:00:00Z')).toEqual({
      decision: 'failed',
      reason: 'document_invalid',
    });
  }, 60_000);
  // Without decision 0104's guard, a flattened crop read `010302`, passing the altered check digit, and the visa was a retry.
  test('an altered visa whose flattened crop misreads the birth date so that it passes: dropped, and the crops that read it as printed still refuse it', async () => {
    const reading = await readMrz(ocr, await decodeImage(fixture('altered-mrvb-flattened-misread.jpg'), { maxSide: 1600 }), UNLIMITED);
    expect(reading).toMatchObject({ found: true, format: 'MRVB', valid: false, birthDate: '010502' });
    expect(reading.found && reading.contested).toBeUndefined();
    expect(reading.found && reading.agreeing).toBeGreaterThanOrEqual(MRZ_READINGS_TO_CONFIRM);
  }, 60_000);
  // Engines up to 2026.12.15 verified it with 1972-09-02: the whole page read one digit of the date otherwise, passing (held-out seed 174, decision 0103).
  test("an altered card whose fixed bands read its birth date two ways, the passing one a misread: the zone's reading decides, not the check digit", async () => {
    const reading = await readMrz(ocr, await decodeImage(fixture('altered-td1-band-misread.jpg'), { maxSide: 1600 }), UNLIMITED);
    expect(reading).toMatchObject({ found: true, format: 'TD1', valid: false, birthDate: '730902' });
  }, 60_000);
  // Held-out seed 139 of the harder set: engine 2026.12.11 refused this genuine card as a forgery;
  // 2026.12.12 to 2026.12.16 sent it back to retry (decision 0099, pinned in document-decision.test.ts).
  test('every crop misreads the composite check digit alike but the flattened one, which reads it right (decision 0104): verified, never a forgery verdict', async () => {
    const reading = await readMrz(ocr, await decodeImage(fixture('composite-misread-td1.jpg'), { maxSide: 1600 }), UNLIMITED);
    expect(reading).toMatchObject({ found: true, format: 'TD1', valid: true, birthDate: '760419' });
  }, 60_000);
  // Readings that contradict each other, each sent back to retry (`contested`): never an answer or a forgery verdict.
  test.each([
    // Development seed 24 of the harder set: two crops read the document number `9L6JUG14Y` alike as
    // `VL6JU614Y`, which fails, and the zone's passing reading cannot outvote them (decision 0087).
    ['a visa that two crops misread alike and a third reads so that it passes', 'contested-mrvb-combined.jpg', 'passport', { birthDate: '030602' }],
    // Held-out seed 189 of the harder set: engines up to 2026.12.17 verified this genuine card with
    // 1977-07-23 from the first fixed band alone, two 2s read as 7s making up for each other in the
    // check digit; every zone read 720223 as printed, which passes too (decision 0105).
    [
      'a small card whose fixed bands misread its birth date so that it passes, and whose zone reads another that passes',
      'disputed-td2-low-resolution.jpg',
      'id_card',
      { format: 'TD2' },
    ],
  ] as const)(
    '%s: a misread read again',
    async (_, name, documentType, read) => {
      const reading = await readMrz(ocr, await decodeImage(fixture(name), { maxSide: 1600 }), UNLIMITED);
      expect(reading).toMatchObject({ found: true, valid: false, contested: true, ...read });
      expect(decided(reading, documentType, '2026-12-05T12:00:00Z')).toEqual({
        decision: 'retry',
        hint: 'document_unreadable',
        part: 'document',
      });
    },
    60_000,
  );
  test('a phone photo stored sideways with an EXIF orientation reads as the upright page', async () => {
    // Stored turned 90° counter-clockwise; EXIF orientation 6 tells a viewer to turn it back clockwise.
    const stored = await sharp(fixture('passport.jpg')).rotate(-90).withMetadata({ orientation: 6 }).jpeg({ quality: 85 }).toBuffer();
    const reading = await readMrz(ocr, await decodeImage(stored, { maxSide: 1600 }), UNLIMITED);
    expect(reading).toMatchObject({ found: true, format: 'TD3', valid: true, birthDate: '561119' });
  }, 60_000);
  test('a page photographed sideways without any EXIF orientation is found by the right-angle turns', async () => {
    const sideways = await sharp(fixture('passport.jpg')).rotate(90).jpeg({ quality: 85 }).toBuffer();
    const reading = await readMrz(ocr, await decodeImage(sideways, { maxSide: 1600 }), UNLIMITED);
    expect(reading).toMatchObject({ found: true, format: 'TD3', valid: true, birthDate: '561119' });
  }, 90_000);
  test('an MRZ printed up the page beside upright text is read: the zone search on the page turned a quarter finds it (issue 20)', async () => {
    const image = await decodeImage(await openBooklet(), { maxSide: 1600 });
    const read = async (png: Buffer) => {
      return readText(await ocrText(ocr, png, PSM.SINGLE_BLOCK));
    };
    // The upright zone search sees no MRZ; the turned one does.
    for (const band of await locateMrzBands(image)) expect(await read(band.png)).toBeNull();
    const across = await Promise.all((await zonesAcrossPage(image)).map(read));
    expect(across).toContainEqual(expect.objectContaining({ found: true, format: 'TD2', valid: true, birthDate: '880714' }));
    expect(await readMrz(ocr, image, UNLIMITED)).toMatchObject({ found: true, format: 'TD2', valid: true, birthDate: '880714' });
  }, 120_000);
  test('past its time budget the reading stops after the fixed bands and settles what it read: a retry, never a forgery verdict', async () => {
    const image = await decodeImage(await openBooklet(), { maxSide: 1600 });
    const reading = await readMrz(ocr, image, 0);
    expect(reading.found && reading.valid).toBe(false);
    expect(decided(reading, 'id_card', '2026-11-22T12:00:00Z')).toMatchObject({ decision: 'retry' });
  }, 60_000);
  test('a face photo has no MRZ', async () => {
    expect(await readMrz(ocr, await decodeImage(fixture('astronaut.jpg'), { maxSide: 1600 }), UNLIMITED)).toEqual({ found: false });
  }, 60_000);
});

describe('readText: a misread document code does not turn a visa into a failing passport or card (issue 20)', () => {
  const second = (length: number, composite: boolean) => {
    const head = `L8988901C${checkDigit('L8988901C')}FRA620502${checkDigit('620502')}F281201${checkDigit('281201')}`;
    const room = length - head.length - (composite ? 1 : 0);
    const optional = 'ZE1842'.padEnd(room, '<').slice(0, room);
    const line = head + optional;
    // A TD2's composite covers the document number, birth and expiry fields with their check digits.
    return composite ? line + checkDigit(line.slice(0, 10) + line.slice(13, 20) + line.slice(21, 35)) : line;
  };
  const visaA = ['VNFRAERIKSSON<<ANNA<MARIA'.padEnd(44, '<'), second(44, false)];
  const visaB = ['VNFRAERIKSSON<<ANNA<MARIA'.padEnd(36, '<'), second(36, false)];

  const misreadV = [
    ['MRV-A with V read as Y', [`Y${visaA[0]!.slice(1)}`, visaA[1]!], 'MRVA'],
    ['MRV-A with V read as W', [`W${visaA[0]!.slice(1)}`, visaA[1]!], 'MRVA'],
    ['MRV-B with V read as Y', [`Y${visaB[0]!.slice(1)}`, visaB[1]!], 'MRVB'],
  ] as const;

  // Decision 0102: a V the crop did not read is no witness, and a visa has no composite.
  test.each(misreadV)('%s: read as the visa, kept with its code unread for the other crops to confirm', (_, lines, format) => {
    expect(readText(lines.join('\n'))).toEqual({ format, lines: [...lines], codeUnread: true });
  });

  test.each(misreadV)('%s: two witnesses that read its birth date alike answer, its dates read and its code unread', (_, lines, format) => {
    const kept = { format, lines: [...lines], codeUnread: true } as const;
    expect(
      settle([
        { ...kept, crop: 'band 0.65' },
        { ...kept, crop: 'zone 0' },
      ]),
    ).toMatchObject({
      found: true,
      format,
      valid: true,
      birthDate: '620502',
      expirationDate: '281201',
      documentCode: null,
      documentCodeUnread: true,
    });
  });

  test('the fixed bands alone are one witness: nested crops of the same pixels agree on a misread', () => {
    const kept = { format: 'MRVA', lines: misreadV[0][1], codeUnread: true } as const;
    expect(
      settle([
        { ...kept, crop: 'band 0.65' },
        { ...kept, crop: 'band 0.4' },
      ]),
    ).toMatchObject({ found: true, valid: false });
  });

  // Held-out seed 161 of the harder set, 0033-mrva-low_resolution.jpg: an altered MRV-A visa printed
  // 690606 with its check digit altered from 7 to 4. The fixed bands read its V as Y and two digits
  // of the date so that they pass the altered check digit; the zone read the V and the date as
  // printed. The combination took the zone's V and the bands' date, and the visa was verified.
  test("seed 161's altered visa: a birth date only crops that misread the V read does not answer against a crop that read it", () => {
    const bands = ['YBCANFEETERZ<<JOAO<<<<<<<<<<<<<<<<<<<<<<<<<<', 'K808P74R34CAN5908064M2707026<<<<<<<<<<<<<<<<'] as const;
    const zone = ['V<CANPEETERS<<JOAO<<<<<<<<<<<<<<<<<<<<<<<<<<', 'K808BJAN34CAN6906064M2707026<<<<<<<<<<<<<<<<'] as const;
    const readings = [
      { format: 'MRVA', lines: bands, crop: 'band 0.65', codeUnread: true },
      { format: 'MRVA', lines: bands, crop: 'band 0.4', codeUnread: true },
      { format: 'MRVA', lines: zone, crop: 'zone 0' },
    ] as const;
    expect(settle(readings)).toMatchObject({ found: true, valid: false });
    // Under 2026.12.14 the bands' readings had the V written in, and were no readings with the code unread: they passed.
    expect(settle(readings.map(({ format, crop, lines }) => ({ format, crop, lines: [`V${lines[0].slice(1)}`, lines[1]] })))).toMatchObject({
      found: true,
      valid: true,
      birthDate: '590806',
    });
  });

  test('a passport (P) with a failing composite is not retried as a visa: it stays a failing passport', () => {
    const passport = ['P<FRAERIKSSON<<ANNA<MARIA'.padEnd(44, '<'), `${second(44, false).slice(0, 42)}<1`];
    expect(readText(passport.join('\n'))).toMatchObject({ format: 'TD3', lines: expect.any(Array) });
    expect(readText(passport.join('\n'))).not.toHaveProperty('found');
  });

  // Decision 0095. A visa has no composite check digit: a passport read as one would lose the check
  // that catches a birth date misread into an altered check digit.
  const passportSecond = (composite: 'right' | 'wrong') => {
    const line = `${second(44, false).slice(0, 28)}${'<'.repeat(14)}0`;
    const right = checkDigit(line.slice(0, 10) + line.slice(13, 20) + line.slice(21, 43));
    return line + (composite === 'right' ? right : (right + 1) % 10);
  };
  // The P lost: the first line is read one character short.
  const lostP = '<FRAERIKSSON<<ANNA<MARIA'.padEnd(43, '<');

  test('a passport whose P is lost and whose composite alone fails is not read as a visa: it stays a failing passport', () => {
    expect(readText(`${lostP}\n${passportSecond('wrong')}`)).toMatchObject({ format: 'TD3', lines: expect.any(Array) });
    expect(readText(`${lostP}\n${passportSecond('wrong')}`)).not.toHaveProperty('found');
  });

  test('a passport whose P is lost and whose composite passes is kept as the passport with its code unread, which two crops verify', () => {
    const kept = readText(`${lostP}\n${passportSecond('right')}`);
    expect(kept).toMatchObject({ format: 'TD3', codeUnread: true });
    const lines = kept && 'lines' in kept ? kept.lines : [];
    expect(
      settle([
        { format: 'TD3', lines, crop: 'band 0.65' },
        { format: 'TD3', lines, crop: 'zone 0' },
      ]),
    ).toMatchObject({
      found: true,
      format: 'TD3',
      valid: true,
      birthDate: '620502',
    });
  });

  // Held-out seed 107 of the harder set, 0055-td3-glare.jpg (an altered passport): the first fixed
  // band lost the P and misread the altered birth-date check digit 6 as 8, the true one. Read as an
  // MRV-A visa read short, every check digit passed; read as the passport, its composite fails.
  test("seed 107's passport, its P lost and its altered check digit misread, is not verified as a visa read short", () => {
    const text = '<FRASCHMIDT<<LEA<MARIE<<<<<<<<<<<<<<<<<<<<<\n742LVA85NOFRA0605058F3307098<<<<<<<<<<<<<<0';
    expect(readText(text)).toMatchObject({ format: 'TD3', lines: expect.any(Array) });
    expect(readText(text)).not.toHaveProperty('found');
  });

  test('a visa with V misread whose optional data is not empty is still a visa, whatever its last character', () => {
    const line = `${second(44, false).slice(0, 28)}B3XLC000FD142955`;
    expect(readText(`Y${visaA[0]!.slice(1)}\n${line}`)).toEqual({ format: 'MRVA', lines: [`Y${visaA[0]!.slice(1)}`, line], codeUnread: true });
  });

  test('a TD2 card (I) whose composite passes stays a card', () => {
    const card = ['I<FRAERIKSSON<<ANNA<MARIA'.padEnd(36, '<'), second(36, true)];
    expect(readText(card.join('\n'))).toMatchObject({ found: true, format: 'TD2', valid: true });
  });

  // Harder synthetic set seed 3, document 0064 (an MRV-B under a shadow): Sauvola's reading of the
  // enlarged band put a mark in front of both lines, and its V reads as W.
  test('lines read one character too long at their start, the name line told apart by its codes', () => {
    const text = 'BW<BELMARTIN<<ANNA<<<<<<<<<<<<<<<<<<<\nMBFDTYVHGGESBEL6610229F3401217<<<<<<<<';
    expect(readText(text)).toMatchObject({
      format: 'MRVB',
      lines: ['W<BELMARTIN<<ANNA'.padEnd(36, '<'), 'FDTYVHGGE5BEL6610229F3401217'.padEnd(36, '<')],
      codeUnread: true,
    });
    expect(readText(text.replace('BW<', 'BV<'))).toMatchObject({ found: true, format: 'MRVB', valid: true, birthDate: '661022', expirationDate: '340121' });
  });

  test('a visa with a misread code whose check digits fail is not accepted under either layout', () => {
    const broken = [`Y${visaA[0]!.slice(1)}`, visaA[1]!.replace('620502', '620503')];
    expect(readText(broken.join('\n'))).not.toHaveProperty('found');
  });
});

// Harder synthetic set seed 2, documents 0118 (an MRV-A) and 0119 (an MRV-B): glare and the page's
// far edge across the end of both lines, marks beside them read as words, a V read as W.
describe('readText: a visa zone read short (issue 20)', () => {
  const head = `LCH1J31KJ${checkDigit('LCH1J31KJ')}PRT971023${checkDigit('971023')}M320505${checkDigit('320505')}`;

  test('lines cut twelve characters short behind marks read as words: the visa, its dates', () => {
    const text = `F 5 S 8 V<PRTKOWALSKA<<LIAM<<<<<<<<<<<<1\nZ0 ${head}<<<<`;
    expect(readText(text)).toMatchObject({ found: true, format: 'MRVB', valid: true, birthDate: '971023', expirationDate: '320505', documentCode: 'V' });
  });

  test('a line longer than an MRV-B line is an MRV-A read short, its V read as W: kept with its code unread', () => {
    expect(readText(`${'W<PRTKOWALSKA<<LIAM'.padEnd(39, '<')}\n${head.padEnd(40, '<')}`)).toMatchObject({ format: 'MRVA', codeUnread: true });
    expect(readText(`${'V<PRTKOWALSKA<<LIAM'.padEnd(39, '<')}\n${head.padEnd(40, '<')}`)).toMatchObject({ found: true, format: 'MRVA', valid: true });
  });

  // Seed 2, document 0119: a mark in front of each line as well, and the V read as W.
  test('lines cut short with a mark read in front of each', () => {
    const text = `W WV<PRTKOWALSKA<<LIAM<<<<<<<<<<<\nN I${head}<<<<`;
    expect(readText(text)).toMatchObject({ found: true, format: 'MRVB', valid: true, birthDate: '971023' });
  });

  test('a failing short visa is no reading at all: the padding is not what was cut', () => {
    expect(readText(`V<PRTKOWALSKA<<LIAM<<<<<<<<<<<<\n${head.replace('971023', '971024')}<<<<`)).toBeNull();
  });

  test('a passport read short is not read as a visa', () => {
    expect(readText(`P<PRTKOWALSKA<<LIAM<<<<<<<<<<<<\n${head}<<<<`)).toBeNull();
  });

  test('a second line too short to hold the expiry check digit is no visa', () => {
    expect(readText(`V<PRTKOWALSKA<<LIAM<<<<<<<<<<<<\n${head.slice(0, 27)}`)).toBeNull();
  });

  // Decision 0096: seed 107's altered passport (decision 0095) with its second line read four
  // characters short as well, so that no passport's zone is found: its code lost, it would be an
  // MRV-A read short, the altered birth date passing on its misread check digit.
  test('a zone read short whose code was lost is no visa: a passport whose P was lost looks the same', () => {
    const altered = '<FRASCHMIDT<<LEA<MARIE<<<<<<<<<<<<<<<<<<<<<\n742LVA85NOFRA0605058F3307098<<<<<<<<<<<<';
    expect(readText(altered)).not.toHaveProperty('found');
    expect(readText(`<PRTKOWALSKA<<LIAM<<<<<<<<<<<<\n${head}<<<<`)).not.toHaveProperty('found');
  });

  test('a zone read short with its V read as another letter is still a visa, kept with its code unread', () => {
    expect(readText(`X<PRTKOWALSKA<<LIAM<<<<<<<<<<<<\n${head}<<<<`)).toMatchObject({ format: 'MRVB', codeUnread: true });
  });
});

// Harder synthetic set seed 2, document 0035: a passport on a cluttered table, marks on both sides
// of its zone read as words.
describe('readText: marks beside the lines read as words (issue 20)', () => {
  const passport = ['P<CANDE<JONG<<KARL<OLOF<<<<<<<<<<<<<<<<<<<<<', 'LNT3YDVKBZ7CAN6202149F2703224<<<<<<<<<<<<<<06'];

  test("each line's longest run is read when the whole text does not pass", () => {
    const text = `I${passport[0]} J J
${passport[1]}0 3 LE A54`;
    expect(readText(text)).toMatchObject({ found: true, format: 'TD3', valid: true, birthDate: '620214', expirationDate: '270322' });
  });

  test('the longest runs of a failing zone still fail', () => {
    const text = `I${passport[0]} J J
${passport[1]!.replace('6202149', '6202148')}0 3 LE A54`;
    expect(readText(text)).not.toHaveProperty('found');
  });
});

describe('readText: a word beside the zone glued to one of its lines (engine 2026.11.23)', () => {
  // What the zone's crop of a passport on a cluttered table read (harder set, development seed 25,
  // document 0075): the receipt beside the page printed TICKET, read as TICKE in front of the second line.
  const read = 'D < P<AUTSMITH<<LEA<MARIE<<<<<<<<<<<<<<<<<<<<<<<\nTICKERV2F4UV1Y5AUTS911147M3104194<<<<<<<<<<<<<<06';

  test('the line cut back to its length, the glued word dropped: every check digit valid', () => {
    expect(readText(read)).toMatchObject({ found: true, format: 'TD3', valid: true, birthDate: '591114', expirationDate: '310419' });
  });

  test('a word glued to the end of a line is dropped too', () => {
    const [first, second] = ['P<CANDE<JONG<<KARL<OLOF<<<<<<<<<<<<<<<<<<<<<', 'LNT3YDVKBZ7CAN6202149F2703224<<<<<<<<<<<<<<06'];
    expect(readText(`${first}\n${second}NOTES`)).toMatchObject({ found: true, format: 'TD3', valid: true, birthDate: '620214' });
  });

  test('a cut whose check digits fail is no reading: the cut is only a guess', () => {
    expect(readText(read.replace('M3104194', 'M3104195'))).not.toHaveProperty('found');
  });

  test("a visa's zone is not cut: its three check digits do not confirm a cut (a stamped passport read as one)", () => {
    const [first, second] = ['V<BELMARTIN<<ANNA<<<<<<<<<<<<<<<<<<<', 'FDTYVHGGESBEL6610229F3401217<<<<<<<<'];
    expect(readText(`${first}\n${second}`)).toMatchObject({ found: true, format: 'MRVB', valid: true });
    expect(readText(`${first}\nNOTES${second}`)).toBeNull();
  });

  test('more than MAX_GLUED characters too long is not cut', () => {
    expect(gluedLineCuts(`${'X'.repeat(9)}${'<'.repeat(44)}`)).toEqual([]);
    expect(gluedLineCuts(`${'X'.repeat(5)}${'<'.repeat(44)}`)).toHaveLength(6);
  });
});

describe("readText: a TD1 card's first two lines without its name line (issue 20)", () => {
  const card = ['I<ESPFPD076XCC9<<<<<<<<<<<<<<<', '7410046M2804095ESP<<<<<<<<<<<4', 'KLEIN<<AOIFE<<<<<<<<<<<<<<<<<<'];

  test('every check digit passes, the composite included: the card, its dates', () => {
    expect(readText(`${card[0]}\n${card[1]}\nY VIFE<<<<<<`)).toMatchObject({
      found: true,
      format: 'TD1',
      valid: true,
      birthDate: '741004',
      expirationDate: '280409',
    });
  });

  // Harder synthetic set seed 2, document 0036: glare over the card; this crop misread the second
  // line, another crop read it right with its first line wrong.
  test('failing, they are lines another reading may take, never a reading of their own', () => {
    const misread = '7L4100L0M2804095E0FP<<<<<<<<<<<8';
    const head = readText(`${card[0]}\n${misread}`);
    expect(head).toEqual({ partial: { format: 'TD1', lines: [card[0], expect.any(String)] } });
    const other = { format: 'TD1' as const, lines: ['I<ESPFPD076X009<<<<<<<S88SS85<', card[1]!, card[2]!], crop: 'zone 1' };
    const partial = (head as { partial: { format: 'TD1'; lines: string[] } }).partial;
    expect(concludeReadings([other], null, [partial])).toMatchObject({ found: true, format: 'TD1', valid: true, birthDate: '741004' });
    expect(concludeReadings([other], null, [])).toMatchObject({ found: true, valid: false, agreeing: 1 });
  });

  // Development seed 20 `0116-td1-combined.jpg` of the harder set: glare faded the name line, and
  // the zone's equalised crops each read the first two lines with one of them wrong (engine 2026.12.8).
  test('heads alone, each failing, combine under every check digit; one, or a combination that fails, is nothing found', () => {
    const shortNumber = { format: 'TD1' as const, lines: ['I<ESPFPD076X<<<<<<<<<<<<<<<<<<', card[1]!], crop: 'zone 2' };
    const wrongExpiry = { format: 'TD1' as const, lines: [card[0]!, '7410046M2804098ESP<<<<<<<<<<<4'], crop: 'zone 2' };
    expect(concludeReadings([], null, [shortNumber, wrongExpiry])).toMatchObject({ found: true, format: 'TD1', valid: true, birthDate: '741004' });
    expect(concludeReadings([], null, [shortNumber])).toEqual({ found: false });
    expect(concludeReadings([], null, [shortNumber, shortNumber])).toEqual({ found: false });
    // The witness rules hold as for whole zones: a birth date read a digit otherwise by as many
    // witnesses is no answer (decision 0089).
    const otherDate = { format: 'TD1' as const, lines: [card[0]!, '7410056M2804098ESP<<<<<<<<<<<4'], crop: 'zone 0' };
    expect(concludeReadings([], null, [shortNumber, otherDate])).toEqual({ found: false });
  });

  test('two lines that do not start with a card code are no card', () => {
    expect(readText(`P${card[0]!.slice(1)}\n${card[1]}`)).toBeNull();
  });
});

describe('readText: a second line read without its first (issue 20)', () => {
  const passport = ['P<NLDCOLLINS<<EILEEN<MARIE'.padEnd(44, '<'), 'NX7K40L2P7NLD5611193F3104301<<<<<<<<<<<<<<06'];

  test('every check digit of the second line passes: its dates, no document code, marked as read alone', () => {
    expect(readText(`EEEN9RSDSEREALEENS\n${passport[1]}`)).toEqual({
      dataLine: {
        found: true,
        format: 'TD3',
        valid: true,
        invalidFields: [],
        birthDate: '561119',
        expirationDate: '310430',
        issueDate: null,
        documentCode: null,
        birthCentury: null,
        agreeing: 1,
        dataLineOnly: true,
      },
    });
  });

  test.each([
    ['a birth date that fails its check digit', passport[1]!.replace('561119', '561118')],
    ['a failing composite check digit', passport[1]!.replace(/06$/, '07')],
    // A visa's second line has no composite: its last character is optional data.
    ["a visa's second line", 'L8988901C4FRA6205020F2812011ZE1842<<<<<<<<<<'],
    ['a state that does not exist', 'L898902C36UTO7408122F1204159ZE184226B<<<<<10'],
  ])('%s: not read', (_, line) => expect(readText(`NOISE\n${line}`)).toBeNull());

  test('a zone whose first line was read stays a zone: its second line does not answer for it', () => {
    // The Interpol prototype of the real set: a state code no document has, on the first line only.
    const prototype = ['P<INPSPECIMEN<<SAMPLE<<<<<<<<<<<<<<<<<<<<<<<', 'XX000000<0FRA7501012F19073021234567890<<<<70'];
    const result = readText(prototype.join('\n'));
    expect(result).toMatchObject({ format: 'TD3', lines: expect.any(Array) });
    expect(result).not.toHaveProperty('dataLine');
  });
});

describe('settle: a combination is not accepted on a birth date that more crops read otherwise (engine 2026.11.24)', () => {
  // Harder synthetic set seed 12, document 0066: a TD1 card whose birth date check digit was altered
  // (910301 with 5, not 8). Three crops read it as printed; one read 9103015 as 9003015, which
  // passes, and so does the composite: the combination took that crop's birth date.
  const [first, name] = ['I<CANY5BKDMNA28<<<<<<<<<<<<<<<', 'SCHMIDT<<AOIFE<<<<<<<<<<<<<<<<'];
  const [altered, misread] = ['9103015F3201093CAN<<<<<<<<<<<0', '9003015F3201093CAN<<<<<<<<<<<0'];
  const outvoted = [
    { format: 'TD1' as const, lines: [`Z${first.slice(1)}`, misread, name], crop: 'band 0.65' },
    ...['band 0.4', 'band 0', 'zone 0'].map((crop) => ({ format: 'TD1' as const, lines: [first, altered, name], crop })),
  ];

  test('three crops agree on the altered date: not accepted, and they agree on the failing lines', () => {
    expect(settle(outvoted)).toMatchObject({ found: true, valid: false, birthDate: '910301', agreeing: 3 });
  });

  test('one witness against one, a digit apart, is the check digit alone deciding: a misread, not an answer (engine 2026.12.3)', () => {
    expect(settle(outvoted.slice(0, 2))).toMatchObject({ found: true, valid: false, contested: true });
  });

  test('more witnesses read the date that passes than read it otherwise: the combination answers', () => {
    const zone = { ...outvoted[0]!, crop: 'zone 0' };
    expect(settle([outvoted[0]!, zone, outvoted[1]!])).toMatchObject({ found: true, valid: true, birthDate: '900301' });
  });

  test('a date read otherwise in two places is another reading of noise, not a contest', () => {
    const noise = { ...outvoted[1]!, lines: [first, '9803315F3201093CAN<<<<<<<<<<<0', name] as const, crop: 'zone 0' };
    expect(settle([outvoted[0]!, noise])).toMatchObject({ found: true, valid: true, birthDate: '900301' });
  });
});

describe('settle: a combination whose birth date as many witnesses read otherwise by one digit is a misread (engine 2026.12.3)', () => {
  // Harder synthetic set, held-out seed 74, document 0033: an altered visa (birth date 900718, its
  // check digit 3 altered to 9). The fixed bands read 7007189, which passes, with a document number
  // that fails; the zone read the birth date as printed, which fails, with a document number that
  // passes. The combination of the two was verified with 1970 (decision 0089).
  const first = 'V<BELSMITH<<DAAN<<<<<<<<<<<<<<<<<<<<<<<<<<<<';
  const bands = 'JPMFXAX2W1BEL7007189M3212242<<<<<<<<<<<<<<<<';
  const zone = 'XJPNFXX2W1BEL9007189M3212242<<<<<<<<<<<<<<<<';
  const visa = (lines: string, crop: string) => ({ format: 'MRVA' as const, lines: [first, lines], crop });

  test('the bands (one witness) against the zone: not accepted, and not a forgery verdict either', () => {
    const readings = [visa(bands, 'band 0.65'), visa(bands, 'band 0.4'), visa(zone, 'zone 0')];
    expect(settle(readings)).toMatchObject({ found: true, valid: false, contested: true });
  });
});

describe('concludeReadings: a second line read alone beside failing readings (issue 20)', () => {
  const dataLine = (readText(`NOISE\n${'NX7K40L2P7NLD5611193F3104301<<<<<<<<<<<<<<06'}`) as { dataLine: MrzReading & { found: true } }).dataLine;
  const td1Noise = {
    format: 'TD1' as const,
    lines: ['I<UTO1250TICKET<<<<<<<<<<<<<<<', '2026COFFEE<<<<<<<<<<<<<<<<<<<<', 'RECEIPT<<TOTAL<<<<<<<<<<<<<<<<'],
    crop: 'band 0',
  };

  // Harder synthetic set seed 3, document 0115: the second line read whole from four crops, the first
  // line lost to glare, and print on the table read as three lines of a card.
  test("failing readings of another layout's length, or of lines that are no passport's, do not stop the second line answering", () => {
    const tableText = {
      format: 'TD3' as const,
      lines: ['S<<<<<<<<<<<<<<OGJOICEGOOMEGOSBBENOTESTOX<<<', '1CKEI20292OZ9257850R<E4Y542026<NG93GATEBO<<<'],
      crop: 'band 0',
    };
    expect(concludeReadings([td1Noise, tableText], dataLine)).toBe(dataLine);
  });

  test('a failing reading of a zone of the same length does: its first line may be what is wrong', () => {
    const zone = {
      format: 'TD3' as const,
      lines: ['P<INPSPECIMEN<<SAMPLE<<<<<<<<<<<<<<<<<<<<<<<', 'NX7K40L2P7NLD5611193F3104301<<<<<<<<<<<<<<06'],
      crop: 'zone 0',
    };
    expect(concludeReadings([td1Noise, zone], dataLine)).toMatchObject({ found: true, format: 'TD3', valid: false });
  });

  test('no second line: the failing readings are settled; nothing at all: not found', () => {
    expect(concludeReadings([td1Noise], null)).toMatchObject({ found: true, format: 'TD1', valid: false });
    expect(concludeReadings([], null)).toEqual({ found: false });
  });
});

describe('readMrz: a stamp across the first line (issue 20 real set, the Qatari specimen)', () => {
  test('the second line alone gives the dates, with every check digit valid, and the document is accepted', async () => {
    const { width, height } = await sharp(fixture('passport.jpg')).metadata();
    // A translucent red stamp over the name line (y 586–616 of 679), clear of the second line.
    const stamp = `<svg width="${width}" height="${height}"><rect x="0" y="586" width="${width}" height="30" fill="rgb(150,30,40)" fill-opacity="0.85"/></svg>`;
    const stamped = await sharp(fixture('passport.jpg'))
      .composite([{ input: Buffer.from(stamp) }])
      .png()
      .toBuffer();
    const reading = await readMrz(ocr, await decodeImage(stamped, { maxSide: 1600 }), UNLIMITED);
    expect(reading).toMatchObject({ found: true, format: 'TD3', valid: true, birthDate: '561119', expirationDate: '310430', dataLineOnly: true });
    expect(decided(reading, 'passport', '2026-11-27T12:00:00Z')).toEqual({ decision: 'verified' });
  }, 90_000);
});

describe('readMrz: the lines of a zone spaced too widely to be found as one zone (issue 20 real set, cards scanned front and back)', () => {
  test('each line found as a zone of its own, read together: every check digit valid', async () => {
    // The TD2 card's two MRZ lines moved 40 px apart, the card's upper part below them as its back,
    // and on the back a line the MRZ model reads as 36 characters with fillers (on the French card
    // of the real set, its address line; here the first MRZ line again): the fixed bands miss the
    // first line or end on the back's line, and the MRZ lines are two zones.
    const card = (top: number, height: number) => sharp(fixture('id-card-td2.jpg')).extract({ left: 0, top, width: 799, height }).toBuffer();
    const [front, first, second, back] = await Promise.all([card(0, 474), card(474, 37), card(511, 45), card(60, 400)]);
    const page = await sharp({ create: { width: 799, height: 1396, channels: 3, background: '#e8ebec' } })
      .composite([
        { input: front, left: 0, top: 0 },
        { input: first, left: 0, top: 474 },
        { input: second, left: 0, top: 551 },
        { input: back, left: 0, top: 656 },
        { input: first, left: 0, top: 1200 },
      ])
      .png()
      .toBuffer();
    const reading = await readMrz(ocr, await decodeImage(page, { maxSide: 1600 }), UNLIMITED);
    expect(reading).toMatchObject({ found: true, format: 'TD2', valid: true, birthDate: '880714', expirationDate: '290317' });
  }, 90_000);
});

describe('readText: a German card of 1987 whose filler run was read one short (issue 20 real set)', () => {
  test('the missing filler is found inside the run, and every check digit passes', () => {
    const text = 'IDD<<MUSTERMANN<<ERIKA<<<<<<<<<<<<<<\n1220000016D<<4509121<9110018<<<<<<0';
    expect(readText(text)).toMatchObject({ found: true, format: 'TD2', valid: true, birthDate: '450912', expirationDate: '911001' });
  });
});

describe('readMrz: glare hides one end of the lines from the zone search (issue 20 harder set)', () => {
  test('the zone carried on sideways reads the whole lines: every check digit valid', async () => {
    const reading = await readMrz(ocr, await decodeImage(fixture('combined-td2.jpg'), { maxSide: 1600 }), UNLIMITED);
    expect(reading).toMatchObject({ found: true, valid: true, birthDate: '881216' });
  }, 90_000);
  test('a faint zone beside a dark table: its own crop read again equalised, per neighbourhood (engine 2026.11.21)', async () => {
    const reading = await readMrz(ocr, await decodeImage(fixture('faint-zone-td3.jpg'), { maxSide: 1600 }), UNLIMITED);
    expect(reading).toMatchObject({ found: true, format: 'TD3', valid: true, birthDate: '060517', expirationDate: '301106' });
  }, 90_000);
  test("a glare spot across a card's second line: the zone's own crop read again strongly equalised (engine 2026.11.21)", async () => {
    const reading = await readMrz(ocr, await decodeImage(fixture('glare-td1-strong.jpg'), { maxSide: 1600 }), UNLIMITED);
    expect(reading).toMatchObject({ found: true, format: 'TD1', valid: true, birthDate: '791109', expirationDate: '320207' });
  }, 90_000);
  test('the part of the lines under the glare is read strongly equalised (engine 2026.11.20)', async () => {
    const reading = await readMrz(ocr, await decodeImage(fixture('glare-mrvb.jpg'), { maxSide: 1600 }), UNLIMITED);
    expect(reading).toMatchObject({ found: true, format: 'MRVB', valid: true, birthDate: '010725' });
  }, 90_000);
  test("a card's first line found alone: carried on up and down, its lines taken from the crops that read each (engine 2026.11.20)", async () => {
    const reading = await readMrz(ocr, await decodeImage(fixture('combined-td1-glare.jpg'), { maxSide: 1600 }), UNLIMITED);
    expect(reading).toMatchObject({ found: true, format: 'TD1', valid: true, birthDate: '741004', expirationDate: '280409' });
  }, 90_000);
  test('a zone read as lines too long to be cut short and too short for any layout is carried on too (engine 2026.11.19)', async () => {
    const reading = await readMrz(ocr, await decodeImage(fixture('shadow-mrvb.jpg'), { maxSide: 1600 }), UNLIMITED);
    expect(reading).toMatchObject({ found: true, format: 'MRVB', valid: true, birthDate: '661022' });
  }, 90_000);
  test('three fillers that glare hid inside one run are put back: every check digit valid (engine 2026.11.19)', async () => {
    const reading = await readMrz(ocr, await decodeImage(fixture('glare-td1.jpg'), { maxSide: 1600 }), UNLIMITED);
    expect(reading).toMatchObject({ found: true, format: 'TD1', valid: true, birthDate: '981209' });
  }, 90_000);
});

// Harder synthetic set (development pages of seeds 20–27) and the real set's Liechtenstein card: the
// I that starts a card's first line, at the card's edge, read as Z, J or L by every crop, every
// check digit passing (decision 0079).
describe('a document code misread alone (issue 20, decision 0079)', () => {
  const card = ['I<GBRU70C2PLX46<<<<<<<<<<<<<<<', '6712178F2712181GBR<<<<<<<<<<<8', 'KLEIN<<JOAO<<<<<<<<<<<<<<<<<<<'];
  const withCode = (lines: readonly string[], code: string) => [code + lines[0]!.slice(1), ...lines.slice(1)].join('\n');
  const crop = (text: string, name: string) => ({ ...(readText(text) as { format: 'TD1'; lines: string[] }), crop: name });

  test('the card as printed passes with its code', () =>
    expect(readText(card.join('\n'))).toMatchObject({ found: true, format: 'TD1', valid: true, documentCode: 'I' }));

  test.each(['Z', 'J', 'L'])('its I read as %s: no answer from one crop, the lines kept as passing with the code unread', (code) =>
    expect(readText(withCode(card, code))).toEqual({ format: 'TD1', lines: [code + card[0]!.slice(1), card[1]!, card[2]!], codeUnread: true }),
  );

  test('two crops that read the birth date alike: the card passes, its code unread, its dates as printed', () =>
    expect(settle([crop(withCode(card, 'Z'), 'zone 0'), crop(withCode(card, 'J'), 'zone 1')])).toMatchObject({
      found: true,
      format: 'TD1',
      valid: true,
      documentCode: null,
      documentCodeUnread: true,
      birthDate: '671217',
      expirationDate: '271218',
    }));

  test('one crop alone is no answer: a crop that misread the code may have misread the date so that it passes', () =>
    expect(settle([crop(withCode(card, 'Z'), 'zone 0')])).toMatchObject({ found: true, valid: false, invalidFields: ['documentCode'] }));

  test('one crop against one: the birth date of the crop with its code unread is not enough witness', () => {
    const other = withCode(card, 'J').replace('6712178', '6712188');
    expect(settle([crop(withCode(card, 'Z'), 'zone 0'), crop(other, 'zone 1')])).toMatchObject({ found: true, valid: false });
  });

  // Harder set seed 12, 0066 (an altered card: its birth date's check digit changed 8 → 5). The first
  // band read the I as Z and 1991 as 1990, which passes the altered check digit and the composite;
  // 2026.11.25, which answered from one such crop, verified it with a wrong birth date.
  test('the altered card of seed 12: one crop misread its code and birth date alike, two read the date as printed', () => {
    const first = 'Z<CANY5BKDMNA28<<<<<<<<<<<<<<<\n90 03015F3201093CAN<<<<<<<<<<<0\nSCHMIDT<<AOI FE<<<<<<<<<<<<<<<<';
    const printed = first.replace('90 0301', '91 0301');
    expect(readText(first)).toMatchObject({ codeUnread: true });
    const settled = settle([crop(first, 'band 0.65'), crop(printed, 'band 0.4'), crop(printed, 'band 0')]);
    expect(settled).toMatchObject({ found: true, valid: false });
    expect(settled).not.toHaveProperty('birthDate', '900301');
  });

  test('a misread code beside a failing check digit is no reading with its code unread', () =>
    expect(readText(withCode(card, 'Z').replace('6712178', '6712188'))).not.toHaveProperty('codeUnread'));

  test('a misread code beside an unknown issuing state is no reading with its code unread: the state is a code the decision keeps', () =>
    expect(readText(withCode(card, 'Z').replace('Z<GBR', 'Z<QQQ'))).not.toHaveProperty('codeUnread'));

  // A V names the visa: lines taken for a passport that start with one are not a passport with its
  // code unread, even where the passport's check digits would pass.
  test('a code that names another layout is not left unread', () => {
    const data = `U70C2PLX46GBR6712178F2712181${'<'.repeat(14)}`;
    const second = `${data}0${checkDigit(`${data.slice(0, 10)}${data.slice(13, 20)}${data.slice(21)}0`)}`;
    const passport = ['P<GBRKLEIN<<JOAO'.padEnd(44, '<'), second];
    expect(settle([{ format: 'TD3', lines: passport }])).toMatchObject({ found: true, valid: true, documentCode: 'P' });
    const visa = [`V${passport[0]!.slice(1)}`, second];
    expect(
      settle([
        { format: 'TD3', lines: visa, crop: 'a' },
        { format: 'TD3', lines: visa, crop: 'b' },
      ]),
    ).toMatchObject({
      found: true,
      valid: false,
      invalidFields: ['documentCode'],
    });
  });
});

describe('inFirstHalf: the steps kept for the first half of the time budget', () => {
  test('with no budget (Infinity, as the image tests read) every step is in the first half', () => {
    expect(inFirstHalf(1000, Number.POSITIVE_INFINITY, 1_000_000)).toBe(true);
  });
  test('with a budget, the first half ends half the budget after the start', () => {
    expect(inFirstHalf(1000, 14_000, 7999)).toBe(true);
    expect(inFirstHalf(1000, 14_000, 8000)).toBe(false);
  });
});
