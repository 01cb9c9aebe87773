/**
 * Regenerates the engine's committed test fixtures (backend/src/modules/engine/fixtures/): a passport
 * and an ID card whose portrait is the public-domain astronaut photo, the same passport with one
 * check digit altered, an AAMVA driving-licence barcode (the back) and that licence's front with the
 * astronaut portrait (for face match, issue 11). Needs Debian `fonts-ocr-b` (the tests
 * do not: they read the committed images). Run: bun scripts/documents/generate-fixtures.ts
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { degrade, mrzLines, renderDocument, seededRandom, type SyntheticIdentity } from './synthetic-documents';
import { renderLicenceBarcode, renderLicenceFront } from './synthetic-licences';

const FIXTURES = join(import.meta.dir, '..', '..', 'backend', 'src', 'modules', 'engine', 'fixtures');
const portrait = readFileSync(join(FIXTURES, 'astronaut.jpg'));
const random = seededRandom(2026);
const photo = { scale: 0.75, rotateDegrees: 1.2, blurSigma: 0.6, noise: 8, jpegQuality: 75 };

const passport: SyntheticIdentity = {
  format: 'TD3',
  country: 'NLD',
  surname: 'COLLINS',
  givenNames: 'EILEEN<MARIE',
  documentNumber: 'NX7K40L2P',
  birthDate: '1956-11-19',
  expiryDate: '2031-04-30',
  sex: 'F',
};
const lines = mrzLines(passport);
writeFileSync(join(FIXTURES, 'passport.jpg'), await degrade(await renderDocument(passport, lines, portrait), photo, random));

// The date-of-birth check digit, off by one: a forged or misprinted document (must be refused).
const altered = [lines[0]!, lines[1]!.slice(0, 19) + String((Number(lines[1]![19]) + 1) % 10) + lines[1]!.slice(20)];
writeFileSync(join(FIXTURES, 'passport-altered-check-digit.jpg'), await degrade(await renderDocument(passport, altered, portrait), photo, random));

const expired = { ...passport, expiryDate: '2019-04-30' };
writeFileSync(join(FIXTURES, 'passport-expired.jpg'), await degrade(await renderDocument(expired, mrzLines(expired), portrait), photo, random));

const idCard: SyntheticIdentity = {
  format: 'TD1',
  country: 'BEL',
  surname: 'COLLINS',
  givenNames: 'EILEEN',
  documentNumber: 'B7Q91M3K2',
  birthDate: '2011-02-03',
  expiryDate: '2030-09-08',
  sex: 'F',
};
writeFileSync(join(FIXTURES, 'id-card-minor.jpg'), await degrade(await renderDocument(idCard, mrzLines(idCard), portrait), photo, random));

const licence = { birthDate: '1990-01-31', expiryDate: '2030-01-31' };
writeFileSync(join(FIXTURES, 'licence.png'), await renderLicenceBarcode(licence));
// The same licence's front, photographed like the passports (drawn last, so the seeded noise of the
// files above stays what it was).
writeFileSync(join(FIXTURES, 'licence-front.jpg'), await degrade(await renderLicenceFront(licence, portrait), photo, random));
console.log(`fixtures written to ${FIXTURES}`);
