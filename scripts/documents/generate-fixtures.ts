/**
 * Regenerates the engine's committed test fixtures (backend/src/modules/engine/fixtures/): a passport
 * and an ID card whose portrait is the public-domain astronaut photo, the same passport with one
 * check digit altered, an AAMVA driving-licence barcode (the back) and that licence's front with the
 * astronaut portrait (for face match, issue 11), a TD2 ID card, MRV-A and MRV-B visas and a French card
 * of the 1988–2021 layout (issue 20). Needs Debian `fonts-ocr-b` (the tests
 * do not: they read the committed images). Run: bun scripts/documents/generate-fixtures.ts
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { degrade, frenchCardLines, mrzLines, renderDocument, seededRandom, type SyntheticIdentity } from './synthetic-documents';
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

// A TD2 card (2 × 36), visas (document code V) and the French card: issue 20. Drawn after the others,
// so the seeded noise of the files above stays what it was.
const td2Card: SyntheticIdentity = {
  format: 'TD2',
  country: 'ROU',
  surname: 'COLLINS',
  givenNames: 'EILEEN',
  documentNumber: 'RX4821705',
  birthDate: '1988-07-14',
  expiryDate: '2029-03-17',
  sex: 'F',
};
writeFileSync(join(FIXTURES, 'id-card-td2.jpg'), await degrade(await renderDocument(td2Card, mrzLines(td2Card), portrait), photo, random));
const visa: SyntheticIdentity = {
  format: 'MRVA',
  country: 'CAN',
  surname: 'COLLINS',
  givenNames: 'EILEEN<MARIE',
  documentNumber: 'V0K39217Q',
  birthDate: '1962-05-02',
  expiryDate: '2028-12-01',
  sex: 'F',
};
writeFileSync(join(FIXTURES, 'visa-mrva.jpg'), await degrade(await renderDocument(visa, mrzLines(visa), portrait), photo, random));
const visaB: SyntheticIdentity = { ...visa, format: 'MRVB', country: 'AUS', documentNumber: 'W7N20418C', expiryDate: '2027-06-15' };
writeFileSync(join(FIXTURES, 'visa-mrvb.jpg'), await degrade(await renderDocument(visaB, mrzLines(visaB), portrait), photo, random));
// The French card of 1988–2021 (decision 0051), drawn at the TD2 size it shares.
const frenchCard = {
  surname: 'COLLINS',
  givenNames: 'EILEEN',
  issued: '2016-09',
  department: '075',
  serial: '41827',
  birthDate: '1984-03-09',
  sex: 'F',
} as const;
const frenchHolder: SyntheticIdentity = { ...td2Card, country: 'FRA', birthDate: frenchCard.birthDate, expiryDate: '2031-08-31' };
writeFileSync(join(FIXTURES, 'id-card-french.jpg'), await degrade(await renderDocument(frenchHolder, frenchCardLines(frenchCard), portrait), photo, random));
console.log(`fixtures written to ${FIXTURES}`);
