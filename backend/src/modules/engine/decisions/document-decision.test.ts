import { describe, expect, test } from 'bun:test';
import type { FaceAnalysis } from '../faces/face-analysis';
import { ageOn, decideDocument, frenchCardExpiry, mrzBirthDate, mrzExpiryDate } from './document-decision';
import type { DocumentFindings } from '../model';

const now = new Date('2026-11-22T12:00:00Z');
/** A face with face match's descriptor (face-embedding.ts); faceres's is not looked at by the decision. */
const face = (embedding: number[]): FaceAnalysis => ({
  faceCount: 1,
  face: {
    box: [0.3, 0.25, 0.4, 0.5],
    widthPx: 256,
    detectorScore: 0.9,
    yaw: 0,
    pitch: 0,
    roll: 0,
    brightness: 120,
    sharpness: 200,
    estimatedAge: 30,
    antispoof: 0.8,
    liveness: 0.9,
    embedding,
    alignedSharpness: 120,
  },
});
const mrz = (change: Record<string, unknown> = {}): DocumentFindings['reading'] =>
  ({
    source: 'mrz',
    found: true,
    format: 'TD3',
    valid: true,
    invalidFields: [],
    birthDate: '900131',
    expirationDate: '300131',
    documentCode: 'P',
    agreeing: 1,
    ...change,
  }) as DocumentFindings['reading'];
const pdf417 = (): DocumentFindings['reading'] => ({ source: 'pdf417', found: true, valid: true, birthDate: '1990-01-31', expirationDate: '2030-01-31' });
const findings = (reading: DocumentFindings['reading'], change: Partial<DocumentFindings> = {}): DocumentFindings => ({
  kind: 'document',
  documentType: 'passport',
  reading,
  portrait: null,
  frames: [],
  ...change,
});
const policy = { legalMinimumAge: 18, faceMatchEnabled: false };

describe('MRZ dates', () => {
  test.each([
    ['900131', '1990-01-31'],
    ['080229', '2008-02-29'],
    ['261123', '1926-11-23'],
    ['261122', '2026-11-22'],
    ['991340', null],
    // A holder born in 1911: 2011 is possible too, and the safe reading is the younger one (a false
    // refusal, never a 15-year-old accepted as 115; docs/verification.md).
    ['110315', '2011-03-15'],
  ])('birth %s → %s', (raw, iso) => expect(mrzBirthDate(raw, now)).toBe(iso));
  test.each([
    // The Icelandic specimen passport: born 12 Dec 1912, expired 29 Jun 2011; 2012 is after the expiry.
    ['121212', '2011-06-29', '1912-12-12'],
    // The Czech specimen: born 1 Jan 1911, expired 4 Jul 2012; a holder born in 2011 is still possible.
    ['110101', '2012-07-04', '2011-01-01'],
    ['110101', '2011-01-01', '1911-01-01'],
    ['900131', '2030-01-31', '1990-01-31'],
  ])('birth %s of a document expiring %s → %s', (raw, expiry, iso) => expect(mrzBirthDate(raw, now, expiry)).toBe(iso));
  test.each<[string, string, number, string]>([
    // The Icelandic passport of 2021, unexpired: its kennitala states the 1900s (documents/birth-century.ts).
    ['121212', '2031-03-10', 1900, '1912-12-12'],
    ['110101', '2012-07-04', 1900, '1911-01-01'],
    ['121212', '2031-03-10', 2000, '2012-12-12'],
    // A stated century that gives an impossible date is not taken: born in the future, or after the expiry.
    ['271212', '2031-03-10', 2000, '1927-12-12'],
    ['121212', '2011-06-29', 2000, '1912-12-12'],
  ])('birth %s of a document expiring %s, its personal number stating the %is → %s', (raw, expiry, century, iso) =>
    expect(mrzBirthDate(raw, now, expiry, century)).toBe(iso),
  );
  test.each([
    ['300131', '2030-01-31'],
    ['991231', '1999-12-31'],
  ])('expiry %s → %s', (raw, iso) => expect(mrzExpiryDate(raw, now)).toBe(iso));
  test.each([
    ['2008-11-22', 18],
    ['2008-11-23', 17],
    ['2008-02-29', 18],
  ])('age of someone born %s on 2026-11-22 is %d', (birth, age) => expect(ageOn(birth, now)).toBe(age));
});

describe('French national identity card of 1988–2021: validity from the issue month (decision 0051)', () => {
  test.each([
    ['issued May 2014 to an adult: 15 years', '1405', '900131', '2029-04-30'],
    ['issued May 2014 to a 13-year-old: 10 years', '1405', '000601', '2024-04-30'],
    ['18 on the first of the issue month: an adult', '1405', '960501', '2029-04-30'],
    ['18 later in the issue month: counted as a minor (the shorter validity)', '1405', '960502', '2024-04-30'],
    ['issued January 2004 to an adult: counted as before the extension', '0401', '700101', '2013-12-31'],
    ['issued February 2004 to an adult: 15 years', '0402', '700101', '2019-01-31'],
    ['issued 1988: 10 years', '8806', '700101', '1998-05-31'],
    ['born in the issue year before the issue: a baby, 10 years', '1506', '150101', '2025-05-31'],
    ['month 13', '1413', '900131', null],
  ])('%s', (_, issue, birth, expiry) => expect(frenchCardExpiry(issue, birth)).toBe(expiry));
});

const frenchCard = (issueDate: string, birthDate: string) => mrz({ format: 'FRENCH_ID', issueDate, birthDate, expirationDate: null, documentCode: 'ID' });

describe('decideDocument', () => {
  test.each<[string, DocumentFindings, typeof policy, unknown]>([
    ['valid adult passport', findings(mrz()), policy, { decision: 'verified' }],
    ['undecodable image', findings(null), policy, { decision: 'retry', hint: 'image_unreadable', part: 'document' }],
    ['no MRZ found', findings({ source: 'mrz', found: false }), policy, { decision: 'retry', hint: 'document_not_found', part: 'document' }],
    [
      'a check digit fails on lines two independent readings agree on',
      findings(mrz({ valid: false, invalidFields: ['birthDateCheckDigit'], agreeing: 2 })),
      policy,
      { decision: 'failed', reason: 'document_invalid' },
    ],
    [
      'a check digit fails on lines only one reading saw: a misread, read again',
      findings(mrz({ valid: false, invalidFields: ['birthDateCheckDigit'], agreeing: 1 })),
      policy,
      { decision: 'retry', hint: 'document_unreadable', part: 'document' },
    ],
    [
      'readings agree on an unknown issuing state and nationality, every check digit passes: a misread of letters, read again (decision 0061)',
      findings(mrz({ valid: false, invalidFields: ['issuingState', 'nationality'], agreeing: 3 })),
      policy,
      { decision: 'retry', hint: 'document_unreadable', part: 'document' },
    ],
    [
      'readings agree on a wrong document code: read again',
      findings(mrz({ valid: false, invalidFields: ['documentCode'], agreeing: 2 })),
      policy,
      { decision: 'retry', hint: 'document_unreadable', part: 'document' },
    ],
    [
      'readings agree on an unknown state and a failing check digit: the check digit is what refuses it',
      findings(mrz({ valid: false, invalidFields: ['issuingState', 'compositeCheckDigit'], agreeing: 2 })),
      policy,
      { decision: 'failed', reason: 'document_invalid' },
    ],
    [
      'readings agree on a failing expiry check digit beside an expiry that is no date: glare, read again (decision 0074)',
      findings(mrz({ valid: false, invalidFields: ['expirationDateCheckDigit', 'expirationDate'], expirationDate: null, agreeing: 2 })),
      policy,
      { decision: 'retry', hint: 'document_unreadable', part: 'document' },
    ],
    [
      'readings agree on a birth date that is no date and failing check digits: read again (decision 0074)',
      findings(mrz({ valid: false, invalidFields: ['birthDate', 'birthDateCheckDigit', 'compositeCheckDigit'], birthDate: null, agreeing: 2 })),
      policy,
      { decision: 'retry', hint: 'document_unreadable', part: 'document' },
    ],
    [
      'readings agree on dates that are no dates under check digits that all pass: printed so, structurally invalid (the Croatian specimen of zeros)',
      findings(mrz({ valid: false, invalidFields: ['birthDate', 'expirationDate'], birthDate: null, expirationDate: null, agreeing: 2 })),
      policy,
      { decision: 'failed', reason: 'document_invalid' },
    ],
    [
      'readings agree on a failing composite check digit, every field passing its own: the last glyph misread, read again (decision 0099)',
      findings(mrz({ valid: false, invalidFields: ['compositeCheckDigit'], agreeing: 3 })),
      policy,
      { decision: 'retry', hint: 'document_unreadable', part: 'document' },
    ],
    [
      'readings agree on a failing birth date check digit and the composite it spans: an altered date, refused',
      findings(mrz({ valid: false, invalidFields: ['birthDateCheckDigit', 'compositeCheckDigit'], agreeing: 3 })),
      policy,
      { decision: 'failed', reason: 'document_invalid' },
    ],
    [
      'readings agree on a composite check digit read as a filler (a line read short, padded): read again (decision 0086)',
      findings(mrz({ valid: false, invalidFields: ['compositeCheckDigit'], unreadDigits: ['compositeCheckDigit'], agreeing: 2 })),
      policy,
      { decision: 'retry', hint: 'document_unreadable', part: 'document' },
    ],
    [
      'readings agree on a birth date with a filler among its digits whose check digit passes: read again (decision 0086)',
      findings(mrz({ valid: false, invalidFields: ['birthDate'], birthDate: null, unreadDigits: ['birthDate'], agreeing: 3 })),
      policy,
      { decision: 'retry', hint: 'document_unreadable', part: 'document' },
    ],
    [
      'crops agree on a failing check digit, but another crop read lines that pass: the readings contradict each other, read again',
      findings(mrz({ valid: false, invalidFields: ['documentNumberCheckDigit', 'compositeCheckDigit'], agreeing: 16, contested: true })),
      policy,
      { decision: 'retry', hint: 'document_unreadable', part: 'document' },
    ],
    [
      'unparseable lines read once are a misread too',
      findings(mrz({ valid: false, invalidFields: ['format'], birthDate: null, expirationDate: null, agreeing: 1 })),
      policy,
      { decision: 'retry', hint: 'document_unreadable', part: 'document' },
    ],
    [
      'every check digit passes but the birth date does not exist: malformed document',
      findings(mrz({ birthDate: '901332' })),
      policy,
      { decision: 'failed', reason: 'document_invalid' },
    ],
    ['expired yesterday', findings(mrz({ expirationDate: '261121' })), policy, { decision: 'failed', reason: 'document_expired' }],
    ['expires today is still valid', findings(mrz({ expirationDate: '261122' })), policy, { decision: 'verified' }],
    ['17 years old', findings(mrz({ birthDate: '081123' })), policy, { decision: 'failed', reason: 'age_not_met' }],
    ['18 today', findings(mrz({ birthDate: '081122' })), policy, { decision: 'verified' }],
    ['tenant minimum 21', findings(mrz({ birthDate: '081122' })), { ...policy, legalMinimumAge: 21 }, { decision: 'failed', reason: 'age_not_met' }],
    [
      'born in 1912, unexpired, no century stated: read as a child',
      findings(mrz({ birthDate: '121212', expirationDate: '310310' })),
      policy,
      { decision: 'failed', reason: 'age_not_met' },
    ],
    [
      'born in 1912, unexpired, its personal number stating the 1900s',
      findings(mrz({ birthDate: '121212', expirationDate: '310310', birthCentury: 1900 })),
      policy,
      { decision: 'verified' },
    ],
    [
      'licence barcode',
      findings({ source: 'pdf417', found: true, valid: true, birthDate: '1990-01-31', expirationDate: '2030-01-31' }),
      policy,
      { decision: 'verified' },
    ],
    [
      'licence barcode without dates',
      findings({ source: 'pdf417', found: true, valid: false, birthDate: null, expirationDate: null }),
      policy,
      { decision: 'failed', reason: 'document_invalid' },
    ],
    [
      'face match: same person',
      findings(mrz(), { portrait: face([1, 0, 0]), frames: [face([0.8, 0.5, 0])] }),
      { ...policy, faceMatchEnabled: true },
      { decision: 'verified' },
    ],
    [
      'face match: another person',
      findings(mrz(), { portrait: face([1, 0, 0]), frames: [face([0.2, 1, 0])] }),
      { ...policy, faceMatchEnabled: true },
      { decision: 'failed', reason: 'face_mismatch' },
    ],
    [
      'face match: a portrait found but not described (no mesh to align it on) is never decided on: retry',
      findings(mrz(), { portrait: { faceCount: 1, face: { ...face([1, 0, 0]).face!, embedding: undefined } }, frames: [face([0.8, 0.5, 0])] }),
      { ...policy, faceMatchEnabled: true },
      { decision: 'retry', hint: 'document_unreadable', part: 'document' },
    ],
    [
      'face match: no portrait found',
      findings(mrz(), { portrait: { faceCount: 0, face: null }, frames: [face([0, 0, 0])] }),
      { ...policy, faceMatchEnabled: true },
      { decision: 'retry', hint: 'document_unreadable', part: 'document' },
    ],
    [
      'face match, driving licence: no portrait on the front asks for the front again',
      findings(pdf417(), { documentType: 'driving_licence', portrait: null, frames: [face([0, 0, 0])] }),
      { ...policy, faceMatchEnabled: true },
      { decision: 'retry', hint: 'document_front_unreadable', part: 'documentFront' },
    ],
    [
      'face match, driving licence: the front shows the person of the selfie',
      findings(pdf417(), { documentType: 'driving_licence', portrait: face([1, 0, 0]), frames: [face([0.8, 0.5, 0])] }),
      { ...policy, faceMatchEnabled: true },
      { decision: 'verified' },
    ],
    [
      'face match: a dark selfie asks for the selfie again, not the document (issue 25 item 1)',
      findings(mrz(), { portrait: face([1, 0, 0]), frames: [{ ...face([1, 0, 0]), face: { ...face([1, 0, 0]).face!, brightness: 10 } }] }),
      { ...policy, faceMatchEnabled: true },
      { decision: 'retry', hint: 'too_dark', part: 'selfie' },
    ],
    [
      'face match: the selfie is a copy of the portrait itself (issue 21): refused as a presentation attack',
      findings(mrz(), { portrait: face([1, 0, 0]), frames: [face([1, 0.01, 0])] }),
      { ...policy, faceMatchEnabled: true },
      { decision: 'failed', reason: 'liveness_failed' },
    ],
    [
      'face match: one matching frame among strangers does not decide (median of the good frames)',
      findings(mrz(), { portrait: face([1, 0, 0]), frames: [face([0.8, 0.5, 0]), face([0.2, 1, 0]), face([0.3, 1, 0])] }),
      { ...policy, faceMatchEnabled: true },
      { decision: 'failed', reason: 'face_mismatch' },
    ],
    [
      'face match: a portrait too small to judge asks for the document again',
      findings(mrz(), { portrait: { faceCount: 1, face: { ...face([1, 0, 0]).face!, widthPx: 30 } }, frames: [face([0.8, 0.5, 0])] }),
      { ...policy, faceMatchEnabled: true },
      { decision: 'retry', hint: 'document_unreadable', part: 'document' },
    ],
    [
      'face match, driving licence: a blurred portrait asks for the front again',
      findings(pdf417(), {
        documentType: 'driving_licence',
        portrait: { faceCount: 1, face: { ...face([1, 0, 0]).face!, alignedSharpness: 5 } },
        frames: [face([0.8, 0.5, 0])],
      }),
      { ...policy, faceMatchEnabled: true },
      { decision: 'retry', hint: 'document_front_unreadable', part: 'documentFront' },
    ],
    [
      'face match: no selfie',
      findings(mrz(), { portrait: face([0, 0, 0]), frames: [] }),
      { ...policy, faceMatchEnabled: true },
      { decision: 'retry', hint: 'no_face', part: 'selfie' },
    ],
    ['face match off: selfie not needed', findings(mrz(), { frames: [] }), policy, { decision: 'verified' }],
    ['TD2 card', findings(mrz({ format: 'TD2', documentCode: 'I' }), { documentType: 'id_card' }), policy, { decision: 'verified' }],
    ['visa (MRV-A), on a passport page', findings(mrz({ format: 'MRVA', documentCode: 'V' })), policy, { decision: 'verified' }],
    [
      'visa (MRV-B) read with id_card chosen: the layout is not tied to the choice',
      findings(mrz({ format: 'MRVB', documentCode: 'V' }), { documentType: 'id_card' }),
      policy,
      { decision: 'verified' },
    ],
    [
      'an expired visa',
      findings(mrz({ format: 'MRVA', documentCode: 'V', expirationDate: '261031' })),
      policy,
      { decision: 'failed', reason: 'document_expired' },
    ],
    ['a passport read with id_card chosen', findings(mrz(), { documentType: 'id_card' }), policy, { decision: 'verified' }],
    [
      'French card issued to an adult in 2016: valid 15 years',
      findings(frenchCard('1611', '900131'), { documentType: 'id_card' }),
      policy,
      { decision: 'verified' },
    ],
    [
      'French card issued in 2016 to a minor, now an adult: its 10 years are over',
      findings(frenchCard('1610', '050301'), { documentType: 'id_card' }),
      policy,
      { decision: 'failed', reason: 'document_expired' },
    ],
    [
      'French card issued to a minor who is still one',
      findings(frenchCard('2103', '100301'), { documentType: 'id_card' }),
      policy,
      { decision: 'failed', reason: 'age_not_met' },
    ],
    [
      'French card whose issue month does not exist',
      findings(frenchCard('1613', '900131'), { documentType: 'id_card' }),
      policy,
      { decision: 'failed', reason: 'document_invalid' },
    ],
    [
      'French card issued after today',
      findings(frenchCard('2712', '900131'), { documentType: 'id_card' }),
      policy,
      { decision: 'failed', reason: 'document_invalid' },
    ],
  ])('%s', (_, f, p, expected) => expect(decideDocument(f, p, now)).toEqual(expected as never));
});
