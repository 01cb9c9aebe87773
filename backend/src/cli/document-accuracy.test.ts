import { describe, expect, test } from 'bun:test';
import { type DocumentResult, failureClass, summariseDocuments, summariseGroups } from './document-accuracy';

const result = (change: Partial<DocumentResult>): DocumentResult => ({
  documentType: 'passport',
  genuine: true,
  found: true,
  readRight: true,
  decision: { decision: 'verified' },
  ms: 100,
  ...change,
});

describe('failureClass', () => {
  test.each<[string, Partial<DocumentResult>, ReturnType<typeof failureClass>]>([
    ['read right', {}, null],
    ['no MRZ found', { found: false, readRight: false, decision: { decision: 'retry', hint: 'document_not_found', part: 'document' } }, 'not_found'],
    ['a misread sent back to the user', { readRight: false, decision: { decision: 'retry', hint: 'document_unreadable', part: 'document' } }, 'misread'],
    ['a genuine document refused as a forgery', { readRight: false, decision: { decision: 'failed', reason: 'document_invalid' } }, 'refused_invalid'],
    ['a wrong date accepted is a misread', { readRight: false, decision: { decision: 'verified' } }, 'misread'],
    ['expired', { readRight: false, decision: { decision: 'failed', reason: 'document_expired' } }, 'other'],
  ])('%s', (_name, change, expected) => expect(failureClass(result(change))).toBe(expected));
});

describe('summariseDocuments', () => {
  test('counts per class, wrong accepts and per-type percentiles', () => {
    const summary = summariseDocuments([
      result({ ms: 100 }),
      result({ ms: 300, readRight: false, decision: { decision: 'retry', hint: 'document_unreadable', part: 'document' } }),
      result({ ms: 200, found: false, readRight: false, decision: { decision: 'retry', hint: 'document_not_found', part: 'document' } }),
      result({ ms: 900, genuine: false, readRight: false, decision: { decision: 'failed', reason: 'document_invalid' } }),
      result({ ms: 50, genuine: false, readRight: true, decision: { decision: 'verified' } }),
      result({ documentType: 'id_card', ms: 400, readRight: false, decision: { decision: 'verified' } }),
    ]);
    expect(summary).toMatchObject({
      genuine: 4,
      readRight: 1,
      acceptedGenuine: 2,
      wronglyAccepted: 2,
      altered: 2,
      alteredRefused: 1,
      alteredRetried: 0,
      failures: { not_found: 1, misread: 2, refused_invalid: 0, other: 0 },
    });
    expect(summary.timesByType).toEqual({ id_card: { p50Ms: 400, p99Ms: 400, n: 1 }, passport: { p50Ms: 200, p99Ms: 900, n: 5 } });
  });
});

describe('summariseGroups', () => {
  test('counts per degradation kind, leaving out results without the column', () => {
    const groups = summariseGroups(
      [
        result({ degradation: 'glare', ms: 100 }),
        result({
          degradation: 'glare',
          ms: 300,
          found: false,
          readRight: false,
          decision: { decision: 'retry', hint: 'document_not_found', part: 'document' },
        }),
        result({ degradation: 'exif_rotation', ms: 50, readRight: false, decision: { decision: 'failed', reason: 'document_invalid' } }),
        result({ degradation: 'exif_rotation', ms: 70, genuine: false, readRight: false, decision: { decision: 'verified' } }),
        result({ ms: 999 }),
      ],
      'degradation',
    );
    expect(groups).toEqual([
      {
        group: 'exif_rotation',
        total: 2,
        genuine: 1,
        readRight: 0,
        wronglyAccepted: 1,
        failures: { not_found: 0, misread: 0, refused_invalid: 1, other: 0 },
        p50Ms: 50,
        p99Ms: 70,
      },
      {
        group: 'glare',
        total: 2,
        genuine: 2,
        readRight: 1,
        wronglyAccepted: 0,
        failures: { not_found: 1, misread: 0, refused_invalid: 0, other: 0 },
        p50Ms: 100,
        p99Ms: 300,
      },
    ]);
    expect(summariseGroups([result({})], 'layout')).toEqual([]);
  });
});
