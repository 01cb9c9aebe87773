import { describe, expect, test } from 'bun:test';
import { type DocumentResult, failureClass, summariseDocuments } from './document-accuracy';

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
