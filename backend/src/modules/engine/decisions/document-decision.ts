/**
 * L2 decision (docs/decisions-on-open-points.md "Failure reasons"): the document must be readable, every check digit
 * valid (document_invalid when independent readings agree on a failing line, a retry otherwise), unexpired (document_expired), show an age at or above the tenant's
 * legal minimum age (age_not_met) and, when face match is on, show the person of the selfie
 * (face_mismatch; a driving licence's portrait comes from its front, protocol needsDocumentFront). Pure; `now` is injected (docs/engineering-habits.md habit 2).
 */
import { needsDocumentFront } from '@ageverify/protocol';
import { bestFrame } from './age-decision';
import { faceQualityHint } from '../faces/face-quality';
import { matchFrames } from '../faces/face-match';
import { portraitReadable } from '../faces/portrait-quality';
import type { DecisionPolicy, DocumentFindings, EngineDecision } from '../model';
import type { MrzReading } from '../documents/mrz-reading';

/** Independent MRZ readings that must read the same failing lines before it is a forgery verdict (decision 0042). */
export const MRZ_READINGS_TO_CONFIRM = 2;

/**
 * MRZ fields that are letter codes no check digit covers (Doc 9303 part 3): the document code, the
 * issuing state, the nationality and the sex. Readings of small glyphs agree on the same wrong letter
 * (decision 0061), so a failure of these alone is a misread to read again, never a forgery verdict;
 * the document is not accepted either way.
 */
const LETTER_CODES: ReadonlySet<string> = new Set(['documentCode', 'issuingState', 'nationality', 'sex']);

/** Every failing field is a letter code (and at least one fails: a failure without a named field stays a failure). */
function onlyLetterCodes(invalidFields: readonly string[]): boolean {
  return invalidFields.length > 0 && invalidFields.every((field) => LETTER_CODES.has(field));
}

/**
 * The composite check digit fails and nothing else does: every field with a check digit of its own
 * passes it, the birth date among them. The composite adds to those only the optional data (which
 * no check digit of its own covers, and where a filler is misread as a letter) and the composite
 * itself, the last glyph of its line, where crops of one photo repeat the same misread (held-out
 * seed 139 of issue 20's harder set: three crops read a printed 4 there as 8). An altered birth
 * date fails its own check digit. So this is a misread to read again, never a forgery verdict, as
 * letter codes are (decision 0099); the document is not accepted either way.
 */
function compositeAlone(invalidFields: readonly string[]): boolean {
  return invalidFields.length === 1 && invalidFields[0] === 'compositeCheckDigit';
}

/**
 * The MRZ's date fields, failing as dates (not a day of any calendar, or not six digits), apart from
 * their check digits. A failing check digit beside a date that is no date is what glare across the
 * zone reads, alike from every crop of the same pixels (issue 20's harder set); an altered document
 * shows real dates (decision 0074). Dates that are no dates under check digits that all pass are
 * printed so: the document is structurally invalid (the Croatian specimen of zeros, real set).
 */
const DATE_FIELDS: ReadonlySet<string> = new Set(['birthDate', 'expirationDate', 'issueDate']);

function misreadDate(invalidFields: readonly string[]): boolean {
  return invalidFields.some((field) => DATE_FIELDS.has(field)) && invalidFields.some((field) => field.endsWith('CheckDigit'));
}

/**
 * YYMMDD of an MRZ to YYYY-MM-DD. A birth date cannot be in the future, nor on or after the expiry
 * of the document (its holder was born before it was issued; issue 20 Deliver 4), so a 20yy past
 * either is 19yy. Only an expired document can be settled by its expiry: an unexpired one allows
 * any birth date up to today, unless the document states the century itself (`statedCentury`, from
 * a national personal number: documents/birth-century.ts), which is taken when it gives a possible date.
 */
export function mrzBirthDate(yymmdd: string, now: Date, expiryDate?: string | null, statedCentury?: number | null): string | null {
  const today = now.toISOString().slice(0, 10);
  const possible = (date: string | null) => date !== null && date <= today && (!expiryDate || date < expiryDate);
  const stated = statedCentury ? mrzDate(yymmdd, (year) => year - 2000 + statedCentury) : null;
  if (possible(stated)) return stated;
  const recent = mrzDate(yymmdd, (year) => year);
  return recent !== null && !possible(recent) ? mrzDate(yymmdd, (year) => year - 100) : recent;
}

/** An expiry is at most a few decades ahead; 20yy unless that is more than 50 years away. */
export function mrzExpiryDate(yymmdd: string, now: Date): string | null {
  return mrzDate(yymmdd, (year) => (year > now.getUTCFullYear() + 50 ? year - 100 : year));
}

function mrzDate(yymmdd: string, century: (year: number) => number): string | null {
  if (!/^\d{6}$/.test(yymmdd)) return null;
  const year = century(2000 + Number(yymmdd.slice(0, 2)));
  const iso = `${year}-${yymmdd.slice(2, 4)}-${yymmdd.slice(4, 6)}`;
  const date = new Date(`${iso}T00:00:00Z`);
  return Number.isNaN(date.getTime()) || date.toISOString().slice(0, 10) !== iso ? null : iso;
}

/** The first day of the French card's issue month, YYYY-MM-01: the format was issued from 1988 to 2021. */
export function frenchCardIssued(issueYymm: string): string | null {
  if (!/^\d{4}$/.test(issueYymm)) return null;
  const month = Number(issueYymm.slice(2, 4));
  if (month < 1 || month > 12) return null;
  const yy = Number(issueYymm.slice(0, 2));
  return `${yy >= 88 ? 1900 + yy : 2000 + yy}-${issueYymm.slice(2, 4)}-01`;
}

/**
 * The French national identity card of 1988–2021 prints no expiry date in its MRZ, only the year and
 * month of issue (decision 0051). Its validity runs from the issue: 10 years for a card issued to a
 * minor, 15 years for one issued to an adult from 2 January 2004 on (décret n° 2013-1188, which also
 * extended the cards issued to adults since that date), 10 years before. The MRZ gives the month of
 * issue only, so every doubt takes the shorter validity: the holder counts as an adult only when 18
 * on the first of that month, January 2004 counts as before the extension, and the card ends the day
 * before the first of its issue month comes round again. The holder was born before the card was
 * issued, which fixes the birth century used here. Null when the issue date is not a month.
 */
export function frenchCardExpiry(issueYymm: string, birthYymmdd: string): string | null {
  const issued = frenchCardIssued(issueYymm);
  if (!issued || !/^\d{6}$/.test(birthYymmdd)) return null;
  const issueYear = Number(issued.slice(0, 4));
  const birthYear = issueYear - ((issueYear - Number(birthYymmdd.slice(0, 2)) + 100) % 100);
  const adult = `${birthYear + 18}-${birthYymmdd.slice(2, 4)}-${birthYymmdd.slice(4, 6)}` <= issued;
  const years = adult && issued >= '2004-02-01' ? 15 : 10;
  const end = new Date(Date.UTC(issueYear + years, Number(issued.slice(5, 7)) - 1, 1) - 86_400_000);
  return end.toISOString().slice(0, 10);
}

/** Whole years between a birth date and now (UTC calendar dates). */
export function ageOn(birthDate: string, now: Date): number {
  const [year, month, day] = birthDate.split('-').map(Number) as [number, number, number];
  const today = now.toISOString().slice(0, 10);
  const [ty, tm, td] = today.split('-').map(Number) as [number, number, number];
  return ty - year - (tm < month || (tm === month && td < day) ? 1 : 0);
}

/** The expiry as YYYY-MM-DD: as printed, or derived from the issue for the French card; null when malformed. */
function mrzExpiry(reading: MrzReading & { found: true }, now: Date): string | null {
  if (reading.format !== 'FRENCH_ID') return reading.expirationDate && mrzExpiryDate(reading.expirationDate, now);
  if (!reading.issueDate || !reading.birthDate) return null;
  const issued = frenchCardIssued(reading.issueDate);
  // A card issued after today is malformed.
  if (!issued || issued > now.toISOString().slice(0, 10)) return null;
  return frenchCardExpiry(reading.issueDate, reading.birthDate);
}

/**
 * The document's birth and expiry dates as YYYY-MM-DD, as the decision reads them: an MRZ's with
 * their centuries (the birth century from the expiry too) and the French card's expiry derived from
 * its issue; a barcode's as read. Null where a date is missing or malformed.
 */
export function documentDates(
  reading: NonNullable<DocumentFindings['reading']> & { found: true },
  now: Date,
): { birthDate: string | null; expiryDate: string | null } {
  if (reading.source !== 'mrz') return { birthDate: reading.birthDate, expiryDate: reading.expirationDate };
  const expiryDate = mrzExpiry(reading, now);
  return { birthDate: reading.birthDate && mrzBirthDate(reading.birthDate, now, expiryDate, reading.birthCentury), expiryDate };
}

export function decideDocument(findings: DocumentFindings, policy: Pick<DecisionPolicy, 'legalMinimumAge' | 'faceMatchEnabled'>, now: Date): EngineDecision {
  const { reading } = findings;
  if (!reading) return { decision: 'retry', hint: 'image_unreadable', part: 'document' };
  if (!reading.found) return { decision: 'retry', hint: 'document_not_found', part: 'document' };
  // A document whose check digits fail is never accepted (issue 10). Whether it is refused as a
  // forgery or read again depends on the readings (decision 0042): lines that independent readings
  // agree on are what the document says (document_invalid); lines only one reading saw may be a
  // misread, which a retake fixes (retry, counted by the quality cap like any other retry); so is a
  // failing reading whose dates are no dates (decision 0074), that holds a filler where a digit
  // is printed: crops agree on what none of them read (decision 0086), or that fails only its
  // composite check digit (decision 0099).
  if (!reading.valid) {
    const confirmed =
      reading.source !== 'mrz' ||
      (reading.agreeing >= MRZ_READINGS_TO_CONFIRM &&
        !onlyLetterCodes(reading.invalidFields) &&
        !compositeAlone(reading.invalidFields) &&
        !misreadDate(reading.invalidFields) &&
        !reading.unreadDigits?.length &&
        !reading.contested);
    return confirmed ? { decision: 'failed', reason: 'document_invalid' } : { decision: 'retry', hint: 'document_unreadable', part: 'document' };
  }
  // Every check digit passes but a date does not exist: the document itself is malformed. Every MRZ
  // layout is accepted whichever document type the user chose (passport or id_card picks the MRZ
  // reader, not the layout), visas included, each with its own validity (decision 0051).
  const { birthDate, expiryDate } = documentDates(reading, now);
  if (!birthDate || !expiryDate) return { decision: 'failed', reason: 'document_invalid' };
  if (expiryDate < now.toISOString().slice(0, 10)) return { decision: 'failed', reason: 'document_expired' };
  if (ageOn(birthDate, now) < policy.legalMinimumAge) return { decision: 'failed', reason: 'age_not_met' };
  if (!policy.faceMatchEnabled) return { decision: 'verified' };
  const selfie = bestFrame(findings.frames);
  // The selfie's own problem (too dark, blurred, no face): the selfie is taken again, not the document.
  if ('hint' in selfie) return { decision: 'retry', hint: selfie.hint, part: 'selfie' };
  const portraitFace = findings.portrait?.face;
  // No face on the document, or one too small or blurred to judge
  // (portrait-quality.ts): picture it again rather than decide. For a licence that is the front.
  if (!portraitFace?.embedding || !portraitReadable(portraitFace)) {
    return needsDocumentFront(findings.documentType, true)
      ? { decision: 'retry', hint: 'document_front_unreadable', part: 'documentFront' }
      : { decision: 'retry', hint: 'document_unreadable', part: 'document' };
  }
  const portrait = portraitFace.embedding;
  // Every good frame with a descriptor, not the first one (issue 21 Deliver 4).
  const selfies = findings.frames.flatMap((frame) =>
    'unreadable' in frame || faceQualityHint(frame) !== null || frame.face?.embedding?.length !== portrait.length ? [] : [frame.face.embedding],
  );
  if (selfies.length === 0) return { decision: 'retry', hint: 'no_face', part: 'selfie' };
  const { outcome } = matchFrames(portrait, selfies);
  // A copy of the portrait itself (the document's own photo as the selfie) is a presentation attack,
  // refused as such whatever the liveness signals say (decision 0045).
  if (outcome === 'copy') return { decision: 'failed', reason: 'liveness_failed' };
  return outcome === 'match' ? { decision: 'verified' } : { decision: 'failed', reason: 'face_mismatch' };
}
