import { describe, expect, test } from 'bun:test';
import type { DocumentType } from '@ageverify/protocol';
import {
  afterCameraProblem,
  afterCapture,
  afterDocumentInstead,
  afterDocumentChosen,
  afterResult,
  afterSelfie,
  afterSubmitFailed,
  captureStep,
  isChallengeRefusal,
  startLive,
  type LiveContext,
} from './live-flow';
import type { ChallengeFrames } from './liveness-capture';

const frame = () => new Blob(['x'], { type: 'image/jpeg' });
/** The frames of one challenge, as the camera hands them over. */
const frames: ChallengeFrames = { challengeId: 'chl_1', frames: [frame(), frame(), frame()], steps: [0, 1, 2] };
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
  test('the challenge frames are submitted at once, with their challenge and steps', () => {
    const transition = afterSelfie(startLive(L1).context, frames);
    expect(transition).toEqual({ kind: 'submit', context: expect.objectContaining({ selfie: frames }) });
  });
  test('a selfie without frames is a bug of the page', () =>
    expect(() => afterSelfie(startLive(L1).context, { ...frames, frames: [], steps: [] })).toThrow(/at least one selfie frame/));
  test('retry(too_dark) asks for the selfie again and drops the old frames', () => {
    const context = { ...startLive(L1).context, selfie: frames };
    const transition = afterResult(context, { decision: 'retry', hint: 'too_dark', part: 'selfie', attemptsLeft: 2 });
    expect(transition).toMatchObject({ kind: 'step', step: { kind: 'retry', purpose: 'selfie', hint: 'too_dark', attemptsLeft: 2 } });
    if (transition.kind === 'step') expect(transition.context.selfie).toBeNull();
  });
  test('retry(challenge_not_followed) takes the selfie again with the camera', () => {
    const transition = afterResult(
      { ...startLive(L1).context, selfie: frames },
      { decision: 'retry', hint: 'challenge_not_followed', part: 'selfie', attemptsLeft: 1 },
    );
    expect(transition).toMatchObject({ step: { kind: 'retry', purpose: 'selfie', hint: 'challenge_not_followed' }, context: { selfie: null } });
    if (transition.kind === 'step') expect(captureStep(transition.context, 'selfie')).toEqual({ kind: 'camera', purpose: 'selfie' });
  });
  test('verified and failed finish', () => {
    const context = startLive(L1).context;
    expect(afterResult(context, { decision: 'verified', status: 'verified', redirectUrl: 'r' }).kind).toBe('finish');
    expect(afterResult(context, { decision: 'failed', status: 'failed', reason: 'too_many_attempts', redirectUrl: 'r' }).kind).toBe('finish');
  });
});

describe('step-up', () => {
  const stepUp = { decision: 'step_up', next: 'document' } as const;
  // Decision 0062: the L1 check consumed the challenge, so its frames cannot be sent again.
  test('face match on: the document, then a new selfie (a new challenge), then one submission with both', () => {
    const stepped = afterResult({ ...startLive(L1).context, selfie: frames }, stepUp);
    expect(stepped).toMatchObject({ kind: 'step', step: { kind: 'step-up' }, context: { check: 'document', selfie: null } });
    if (stepped.kind !== 'step') throw new Error('unreachable');
    const chosen = afterDocumentChosen(stepped.context, 'passport');
    if (chosen.kind !== 'step') throw new Error('unreachable');
    expect(chosen.step).toEqual({ kind: 'camera-intro', purpose: 'document' });
    const captured = afterCapture(chosen.context, 'document', [frame()]);
    expect(captured).toMatchObject({ kind: 'step', step: { kind: 'camera-intro', purpose: 'selfie' } });
    if (captured.kind !== 'step') throw new Error('unreachable');
    const second: ChallengeFrames = { ...frames, challengeId: 'chl_2' };
    expect(afterSelfie(captured.context, second)).toMatchObject({ kind: 'submit', context: { check: 'document', selfie: second } });
  });
  test('face match off: the frames are dropped and the document alone is submitted', () => {
    const stepped = afterResult({ ...startLive({ ...L1, faceMatchEnabled: false }).context, selfie: frames }, stepUp);
    expect(stepped).toMatchObject({ context: { selfie: null } });
    if (stepped.kind !== 'step') throw new Error('unreachable');
    expect(afterCapture({ ...stepped.context, documentType: 'passport' }, 'document', [frame()]).kind).toBe('submit');
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
    const submitted = afterSelfie(afterDocument.context, frames);
    expect(submitted.kind).toBe('submit');
    if (submitted.kind === 'submit') {
      expect(submitted.context.document).not.toBeNull();
      expect(submitted.context.selfie).toBe(frames);
      expect(submitted.context.documentType).toBe('id_card');
    }
  });
  test('face match off: the document alone is submitted', () =>
    expect(afterCapture(chosen(startLive({ ...L2, faceMatchEnabled: false }).context), 'document', [frame()]).kind).toBe('submit'));
  test('retry(document_unreadable) asks for the document again, then a new selfie: the old frames answered a used challenge', () => {
    const context = { ...chosen(startLive(L2).context, 'passport'), document: frame(), selfie: frames };
    const transition = afterResult(context, { decision: 'retry', hint: 'document_unreadable', part: 'document', attemptsLeft: 1 });
    expect(transition).toMatchObject({ kind: 'step', step: { kind: 'retry', purpose: 'document' }, context: { document: null, selfie: null } });
    if (transition.kind !== 'step') throw new Error('unreachable');
    expect(afterCapture(transition.context, 'document', [frame()])).toMatchObject({ step: { kind: 'camera-intro', purpose: 'selfie' } });
  });
  test('after a camera problem, the document comes by upload and the selfie screen stays the camera-blocked one', () => {
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
    expect(afterSelfie(afterFront.context, frames)).toMatchObject({ kind: 'submit', context: { document: back, documentFront: front, selfie: frames } });
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

  test('after a step-up the back, the front and a new selfie are asked for, then submitted', () => {
    const stepped = afterResult({ ...startLive(L1).context, selfie: frames }, { decision: 'step_up', next: 'document' });
    if (stepped.kind !== 'step') throw new Error('unreachable');
    const afterBack = step(afterCapture(licence(stepped.context), 'document', [back]));
    expect(afterBack.step).toEqual({ kind: 'camera-intro', purpose: 'documentFront' });
    const afterFront = step(afterCapture(afterBack.context, 'documentFront', [front]));
    expect(afterFront.step).toEqual({ kind: 'camera-intro', purpose: 'selfie' });
    expect(afterSelfie(afterFront.context, frames)).toMatchObject({ kind: 'submit', context: { selfie: frames, documentFront: front } });
  });

  test('retry(document_front_unreadable) asks for the front, then a new selfie; the back is kept', () => {
    const context = { ...licence(), document: back, documentFront: front, selfie: frames };
    const transition = step(afterResult(context, { decision: 'retry', hint: 'document_front_unreadable', part: 'documentFront', attemptsLeft: 3 }));
    expect(transition.step).toEqual({ kind: 'retry', purpose: 'documentFront', hint: 'document_front_unreadable', attemptsLeft: 3 });
    expect(transition.context).toMatchObject({ document: back, documentFront: null, selfie: null });
    expect(afterCapture(transition.context, 'documentFront', [frame()])).toMatchObject({ step: { kind: 'camera-intro', purpose: 'selfie' } });
  });

  test('retry(document_not_found) asks for the back again and keeps the front', () => {
    const context = { ...licence(), document: back, documentFront: front, selfie: frames };
    const transition = step(afterResult(context, { decision: 'retry', hint: 'document_not_found', part: 'document', attemptsLeft: 3 }));
    expect(transition.context).toMatchObject({ document: null, documentFront: front, selfie: null });
    expect(afterCapture(transition.context, 'document', [frame()])).toMatchObject({ step: { kind: 'camera-intro', purpose: 'selfie' } });
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
    expect(transition.context.selfie).toBeNull();
    expect(transition.context.document).toBe(document);
    expect(afterSelfie(transition.context, frames)).toMatchObject({ kind: 'submit', context: { document } });
  });
  test('a blurred document asks for the document again (and, its challenge used, a new selfie)', () => {
    const context: LiveContext = { ...startLive(L2).context, documentType: 'passport', document: frame(), selfie: frames };
    const transition = afterResult(context, { decision: 'retry', hint: 'too_blurry', part: 'document', attemptsLeft: 4 });
    expect(transition).toMatchObject({ kind: 'step', step: { kind: 'retry', purpose: 'document' }, context: { document: null, selfie: null } });
  });
  test('a licence front without a readable portrait asks for the front again', () => {
    const context: LiveContext = { ...startLive(L2).context, documentType: 'driving_licence', document: frame(), documentFront: frame(), selfie: frames };
    const transition = afterResult(context, { decision: 'retry', hint: 'document_front_unreadable', part: 'documentFront', attemptsLeft: 4 });
    expect(transition).toMatchObject({ step: { purpose: 'documentFront' }, context: { documentFront: null } });
  });
});

describe('selfies come only from the live camera (issue 19 Deliver 2)', () => {
  test('the camera refused on the L1 selfie: the camera-blocked screen, and "take again" stays there (no upload step exists)', () => {
    const blocked = afterCameraProblem(startLive(L1).context, 'selfie', 'unavailable');
    expect(blocked).toEqual({
      kind: 'step',
      step: { kind: 'camera-blocked', purpose: 'selfie', reason: 'unavailable' },
      context: expect.objectContaining({ cameraUnusable: true, selfie: null }),
    });
    if (blocked.kind !== 'step') throw new Error('unreachable');
    expect(captureStep(blocked.context, 'selfie')).toEqual({ kind: 'camera-blocked', purpose: 'selfie', reason: 'unavailable' });
  });
});

describe('a refused challenge (409, CHALLENGE_ERROR_CODES): a new challenge and capture, no attempt lost', () => {
  const refusal = (code: string | undefined, status = 409) => ({ kind: 'http', status, message: 'challenge refused', ...(code ? { code } : {}) }) as const;
  const table: Array<[string, Parameters<typeof isChallengeRefusal>[0], boolean]> = [
    ['CHALLENGE_REQUIRED', refusal('CHALLENGE_REQUIRED'), true],
    ['CHALLENGE_NOT_CURRENT', refusal('CHALLENGE_NOT_CURRENT'), true],
    ['CHALLENGE_EXPIRED', refusal('CHALLENGE_EXPIRED'), true],
    ['409 CHECK_IN_PROGRESS', refusal('CHECK_IN_PROGRESS'), false],
    ['409 without a code', refusal(undefined), false],
    ['a challenge code on another status', refusal('CHALLENGE_EXPIRED', 400), false],
    ['the network', { kind: 'network' }, false],
    ['an invalid response', { kind: 'invalid-response', status: 200 }, false],
  ];
  for (const [name, failure, expected] of table)
    test(`${name}: ${expected ? 'a new challenge' : 'not a challenge refusal'}`, () => expect(isChallengeRefusal(failure)).toBe(expected));

  test('L1: the frames are dropped and the user is told, then the camera takes a new selfie', () => {
    const transition = afterSubmitFailed({ ...startLive(L1).context, selfie: frames }, refusal('CHALLENGE_EXPIRED'));
    expect(transition).toEqual({
      kind: 'step',
      step: { kind: 'challenge-renewed' },
      context: expect.objectContaining({ selfie: null, check: 'age_estimation' }),
    });
    if (transition.kind !== 'step') throw new Error('unreachable');
    expect(captureStep(transition.context, 'selfie')).toEqual({ kind: 'camera', purpose: 'selfie' });
  });
  test('L2: the document is kept, only the selfie is taken again', () => {
    const document = frame();
    const context: LiveContext = { ...startLive(L2).context, documentType: 'passport', document, selfie: frames };
    const transition = afterSubmitFailed(context, refusal('CHALLENGE_NOT_CURRENT'));
    expect(transition).toMatchObject({ step: { kind: 'challenge-renewed' }, context: { document, selfie: null } });
    if (transition.kind !== 'step') throw new Error('unreachable');
    expect(afterSelfie(transition.context, { ...frames, challengeId: 'chl_2' })).toMatchObject({ kind: 'submit', context: { document } });
  });
  test('any other failure offers "Send again" with the same pictures', () => {
    const context = { ...startLive(L1).context, selfie: frames };
    const failure = { kind: 'http', status: 503, message: 'busy' } as const;
    expect(afterSubmitFailed(context, failure)).toEqual({ kind: 'step', step: { kind: 'send-failed', failure }, context });
  });
});

describe('no camera, an ID document instead (decision 0063)', () => {
  test('the face check becomes the document check, chosen first, its pictures by upload', () => {
    const blocked = afterCameraProblem(startLive({ ...L1, faceMatchEnabled: false }).context, 'selfie', 'unavailable');
    if (blocked.kind !== 'step') throw new Error('expected a step');
    const transition = afterDocumentInstead(blocked.context);
    expect(transition).toMatchObject({ kind: 'step', step: { kind: 'choose-document' }, context: { check: 'document', selfie: null } });
    if (transition.kind !== 'step') return;
    const chosen = afterDocumentChosen(transition.context, 'passport');
    expect(chosen).toMatchObject({ step: { kind: 'camera-blocked', purpose: 'document' } });
    if (chosen.kind === 'step') expect(afterCapture(chosen.context, 'document', [frame()])).toMatchObject({ kind: 'submit', context: { check: 'document' } });
  });
});
