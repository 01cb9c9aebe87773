/**
 * L2 decision (docs/decisions-on-open-points.md "Failure reasons"): the document must be readable, every check digit
 * valid (document_invalid), unexpired (document_expired), show an age at or above the tenant's
 * legal minimum age (age_not_met) and, when face match is on, show the person of the selfie
 * (face_mismatch; a driving licence's portrait comes from its front, protocol needsDocumentFront). Pure; `now` is injected (docs/engineering-habits.md habit 2).
 */
import { needsDocumentFront } from '@ageverify/protocol';
import { bestFrame } from './age-decision';
import { cosineSimilarity, isSamePerson } from './face-match';
import type { DecisionPolicy, DocumentFindings, EngineDecision } from './model';

/** YYMMDD of an MRZ to YYYY-MM-DD. A birth date cannot be in the future, so a later year is 19yy. */
export function mrzBirthDate(yymmdd: string, now: Date): string | null {
  const recent = mrzDate(yymmdd, (year) => year);
  return recent !== null && recent > now.toISOString().slice(0, 10) ? mrzDate(yymmdd, (year) => year - 100) : recent;
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

/** Whole years between a birth date and now (UTC calendar dates). */
export function ageOn(birthDate: string, now: Date): number {
  const [year, month, day] = birthDate.split('-').map(Number) as [number, number, number];
  const today = now.toISOString().slice(0, 10);
  const [ty, tm, td] = today.split('-').map(Number) as [number, number, number];
  return ty - year - (tm < month || (tm === month && td < day) ? 1 : 0);
}

export function decideDocument(findings: DocumentFindings, policy: Pick<DecisionPolicy, 'legalMinimumAge' | 'faceMatchEnabled'>, now: Date): EngineDecision {
  const { reading } = findings;
  if (!reading) return { decision: 'retry', hint: 'image_unreadable' };
  if (!reading.found) return { decision: 'retry', hint: 'document_not_found' };
  // A document whose check digits fail is never accepted (issue 10): a misread that recovery could
  // not repair and a forged line look the same, so both are refused.
  if (!reading.valid) return { decision: 'failed', reason: 'document_invalid' };
  const birthDate = reading.source === 'mrz' ? reading.birthDate && mrzBirthDate(reading.birthDate, now) : reading.birthDate;
  const expiryDate = reading.source === 'mrz' ? reading.expirationDate && mrzExpiryDate(reading.expirationDate, now) : reading.expirationDate;
  if (!birthDate || !expiryDate) return { decision: 'failed', reason: 'document_invalid' };
  if (expiryDate < now.toISOString().slice(0, 10)) return { decision: 'failed', reason: 'document_expired' };
  if (ageOn(birthDate, now) < policy.legalMinimumAge) return { decision: 'failed', reason: 'age_not_met' };
  if (!policy.faceMatchEnabled) return { decision: 'verified' };
  const selfie = bestFrame(findings.frames);
  if ('hint' in selfie) return { decision: 'retry', hint: selfie.hint };
  const portrait = findings.portrait?.face?.descriptor;
  // No face on the document: picture it again. For a licence that is the front (a separate image).
  if (!portrait) return { decision: 'retry', hint: needsDocumentFront(findings.documentType, true) ? 'document_front_unreadable' : 'document_unreadable' };
  const selfieDescriptor = selfie.face.descriptor;
  if (!selfieDescriptor || selfieDescriptor.length !== portrait.length) return { decision: 'retry', hint: 'no_face' };
  return isSamePerson(cosineSimilarity(selfieDescriptor, portrait)) ? { decision: 'verified' } : { decision: 'failed', reason: 'face_mismatch' };
}
