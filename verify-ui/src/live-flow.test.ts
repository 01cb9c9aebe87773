import { describe, expect, test } from 'bun:test';
import type { DocumentType } from '@ageverify/protocol';
import { afterCameraProblem, afterCapture, afterDocumentChosen, afterResult, startLive, type LiveContext } from './live-flow';

const frame = () => new Blob(['x'], { type: 'image/jpeg' });
const frames = [frame(), frame(), frame()];
const L1 = { nextCheck: 'age_estimation', verificationMode: 'L1', faceMatchEnabled: true } as const;
const L2 = { nextCheck: 'document', verificationMode: 'L2', faceMatchEnabled: true } as const;

describe('startLive', () => {
  test('L1 opens at the camera explanation', () => expect(startLive(L1).step).toEqual({ kind: 'camera-intro', purpose: 'selfie' }));
  test('L2 opens at the document choice', () => expect(startLive(L2).step).toEqual({ kind: 'choose-document' }));
  test('an L1 session stepped up (reload) resumes at the document', () => {
    const { step, context } = startLive({ ...L1, nextCheck: 'document' });
    expect(step).toEqual({ kind: 'choose-document' });
    expect(context.check).toBe('document');
  });
  test('without nextCheck (older server) the mode decides', () => expect(startLive({ ...L2, nextCheck: null }).context.check).toBe('document'));
});

describe('L1', () => {
  test('a burst is submitted at once', () => {
    const transition = afterCapture(startLive(L1).context, 'selfie', frames);
    expect(transition.kind).toBe('submit');
    if (transition.kind === 'submit') expect(transition.context.selfie).toHaveLength(3);
  });
  test('retry(too_dark) asks for the selfie again and drops the old frames', () => {
    const context = { ...startLive(L1).context, selfie: frames };
    const transition = afterResult(context, { decision: 'retry', hint: 'too_dark', part: 'selfie', attemptsLeft: 2 });
    expect(transition).toMatchObject({ kind: 'step', step: { kind: 'retry', purpose: 'selfie', hint: 'too_dark', attemptsLeft: 2 } });
    if (transition.kind === 'step') expect(transition.context.selfie).toEqual([]);
  });
  test('verified and failed finish', () => {
    const context = startLive(L1).context;
    expect(afterResult(context, { decision: 'verified', status: 'verified', redirectUrl: 'r' }).kind).toBe('finish');
    expect(afterResult(context, { decision: 'failed', status: 'failed', reason: 'too_many_attempts', redirectUrl: 'r' }).kind).toBe('finish');
  });
});

describe('step-up', () => {
  const stepUp = { decision: 'step_up', next: 'document' } as const;
  test('face match on: the selfie frames are kept and sent with the document, no second selfie', () => {
    const stepped = afterResult({ ...startLive(L1).context, selfie: frames }, stepUp);
    expect(stepped).toMatchObject({ kind: 'step', step: { kind: 'step-up' }, context: { check: 'document', selfie: frames } });
    if (stepped.kind !== 'step') throw new Error('unreachable');
    const chosen = afterDocumentChosen(stepped.context, 'passport');
    if (chosen.kind !== 'step') throw new Error('unreachable');
    expect(chosen.step).toEqual({ kind: 'camera-intro', purpose: 'document' });
    const captured = afterCapture(chosen.context, 'document', [frame()]);
    expect(captured.kind).toBe('submit');
    if (captured.kind === 'submit') expect(captured.context.selfie).toEqual(frames);
  });
  test('face match off: the frames are dropped', () => {
    const stepped = afterResult({ ...startLive({ ...L1, faceMatchEnabled: false }).context, selfie: frames }, stepUp);
    expect(stepped).toMatchObject({ context: { selfie: [] } });
  });
});

describe('L2', () => {
  const chosen = (context: LiveContext = startLive(L2).context, documentType: DocumentType = 'driving_licence') => {
    const transition = afterDocumentChosen(context, documentType);
    if (transition.kind !== 'step') throw new Error('unreachable');
    return transition.context;
  };
  test('face match on: the document, then a selfie, then one submission', () => {
    const afterDocument = afterCapture(chosen(startLive(L2).context, 'id_card'), 'document', [frame()]);
    expect(afterDocument).toMatchObject({ kind: 'step', step: { kind: 'camera-intro', purpose: 'selfie' } });
    if (afterDocument.kind !== 'step') throw new Error('unreachable');
    const afterSelfie = afterCapture(afterDocument.context, 'selfie', frames);
    expect(afterSelfie.kind).toBe('submit');
    if (afterSelfie.kind === 'submit') {
      expect(afterSelfie.context.document).not.toBeNull();
      expect(afterSelfie.context.selfie).toHaveLength(3);
      expect(afterSelfie.context.documentType).toBe('id_card');
    }
  });
  test('face match off: the document alone is submitted', () =>
    expect(afterCapture(chosen(startLive({ ...L2, faceMatchEnabled: false }).context), 'document', [frame()]).kind).toBe('submit'));
  test('retry(document_unreadable) keeps the selfie and asks for the document again', () => {
    const context = { ...chosen(), document: frame(), selfie: frames };
    const transition = afterResult(context, { decision: 'retry', hint: 'document_unreadable', part: 'document', attemptsLeft: 1 });
    expect(transition).toMatchObject({ kind: 'step', step: { kind: 'retry', purpose: 'document' }, context: { document: null, selfie: frames } });
  });
  test('after a camera problem, pictures come from the upload fallback', () => {
    const blocked = afterCameraProblem(startLive(L2).context, 'document', 'denied');
    expect(blocked).toMatchObject({ step: { kind: 'camera-blocked', reason: 'denied' }, context: { cameraUnusable: true } });
    if (blocked.kind !== 'step') throw new Error('unreachable');
    const afterDocument = afterCapture({ ...blocked.context, documentType: 'passport' }, 'document', [frame()]);
    expect(afterDocument).toMatchObject({ step: { kind: 'camera-blocked', purpose: 'selfie' } });
  });
});

describe('L2 driving licence with face match on (barcode on the back, portrait on the front)', () => {
  const licence = (context: LiveContext = startLive(L2).context) => {
    const transition = afterDocumentChosen(context, 'driving_licence');
    if (transition.kind !== 'step') throw new Error('unreachable');
    return transition.context;
  };
  const step = (transition: ReturnType<typeof afterCapture>) => {
    if (transition.kind !== 'step') throw new Error(`expected a step, got ${transition.kind}`);
    return transition;
  };
  const back = frame();
  const front = frame();

  test('the back, then the front (its own explanation), then the selfie, then one submission with all three', () => {
    const afterBack = step(afterCapture(licence(), 'document', [back]));
    expect(afterBack.step).toEqual({ kind: 'camera-intro', purpose: 'documentFront' });
    expect(afterBack.context.document).toBe(back);
    const afterFront = step(afterCapture(afterBack.context, 'documentFront', [front]));
    expect(afterFront.step).toEqual({ kind: 'camera-intro', purpose: 'selfie' });
    expect(afterFront.context).toMatchObject({ document: back, documentFront: front });
    const afterSelfie = afterCapture(afterFront.context, 'selfie', frames);
    expect(afterSelfie).toMatchObject({ kind: 'submit', context: { document: back, documentFront: front, selfie: frames } });
  });

  test('face match off: no front is asked for; the back alone is submitted', () => {
    const transition = afterCapture(licence(startLive({ ...L2, faceMatchEnabled: false }).context), 'document', [back]);
    expect(transition).toMatchObject({ kind: 'submit', context: { documentFront: null } });
  });

  test('a passport with face match on asks for no front', () =>
    expect(afterCapture({ ...startLive(L2).context, documentType: 'passport' }, 'document', [back])).toMatchObject({
      step: { kind: 'camera-intro', purpose: 'selfie' },
    }));

  test('after a camera problem the front comes from the upload fallback too', () => {
    const blocked = step(afterCameraProblem(licence(), 'document', 'unavailable'));
    const afterBack = step(afterCapture(blocked.context, 'document', [back]));
    expect(afterBack.step).toEqual({ kind: 'camera-blocked', purpose: 'documentFront', reason: 'unavailable' });
    expect(step(afterCapture(afterBack.context, 'documentFront', [front])).step).toEqual({
      kind: 'camera-blocked',
      purpose: 'selfie',
      reason: 'unavailable',
    });
  });

  test('after a step-up (selfie kept) the back and the front are asked for, then submitted', () => {
    const stepped = afterResult({ ...startLive(L1).context, selfie: frames }, { decision: 'step_up', next: 'document' });
    if (stepped.kind !== 'step') throw new Error('unreachable');
    const afterBack = step(afterCapture(licence(stepped.context), 'document', [back]));
    expect(afterBack.step).toEqual({ kind: 'camera-intro', purpose: 'documentFront' });
    expect(afterCapture(afterBack.context, 'documentFront', [front])).toMatchObject({ kind: 'submit', context: { selfie: frames, documentFront: front } });
  });

  test('retry(document_front_unreadable) asks for the front only: back and selfie are kept', () => {
    const context = { ...licence(), document: back, documentFront: front, selfie: frames };
    const transition = step(afterResult(context, { decision: 'retry', hint: 'document_front_unreadable', part: 'documentFront', attemptsLeft: 3 }));
    expect(transition.step).toEqual({ kind: 'retry', purpose: 'documentFront', hint: 'document_front_unreadable', attemptsLeft: 3 });
    expect(transition.context).toMatchObject({ document: back, documentFront: null, selfie: frames });
    expect(afterCapture(transition.context, 'documentFront', [frame()]).kind).toBe('submit');
  });

  test('retry(document_not_found) asks for the back again and keeps the front', () => {
    const context = { ...licence(), document: back, documentFront: front, selfie: frames };
    const transition = step(afterResult(context, { decision: 'retry', hint: 'document_not_found', part: 'document', attemptsLeft: 3 }));
    expect(transition.context).toMatchObject({ document: null, documentFront: front });
    expect(afterCapture(transition.context, 'document', [frame()]).kind).toBe('submit');
  });

  test('choosing another document type drops a front taken for a licence', () => {
    const context = { ...licence(), documentFront: front };
    expect(afterDocumentChosen(context, 'passport')).toMatchObject({ context: { documentFront: null } });
    expect(afterDocumentChosen(context, 'driving_licence')).toMatchObject({ context: { documentFront: front } });
  });
});

describe('retry names the part to take again (issue 25 item 1)', () => {
  test('L2 with face match: a dark selfie asks for the selfie again and keeps the document', () => {
    const document = frame();
    const context: LiveContext = { ...startLive(L2).context, documentType: 'passport', document, selfie: frames };
    const transition = afterResult(context, { decision: 'retry', hint: 'too_dark', part: 'selfie', attemptsLeft: 4 });
    expect(transition).toMatchObject({ kind: 'step', step: { kind: 'retry', purpose: 'selfie', hint: 'too_dark' } });
    if (transition.kind !== 'step') throw new Error('unreachable');
    expect(transition.context.selfie).toEqual([]);
    expect(transition.context.document).toBe(document);
  });
  test('a blurred document asks for the document again and keeps the selfie', () => {
    const context: LiveContext = { ...startLive(L2).context, documentType: 'passport', document: frame(), selfie: frames };
    const transition = afterResult(context, { decision: 'retry', hint: 'too_blurry', part: 'document', attemptsLeft: 4 });
    expect(transition).toMatchObject({ kind: 'step', step: { kind: 'retry', purpose: 'document' }, context: { document: null, selfie: frames } });
  });
  test('a licence front without a readable portrait asks for the front again', () => {
    const context: LiveContext = { ...startLive(L2).context, documentType: 'driving_licence', document: frame(), documentFront: frame(), selfie: frames };
    const transition = afterResult(context, { decision: 'retry', hint: 'document_front_unreadable', part: 'documentFront', attemptsLeft: 4 });
    expect(transition).toMatchObject({ step: { purpose: 'documentFront' }, context: { documentFront: null, selfie: frames } });
  });
});
