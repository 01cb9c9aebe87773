import { describe, expect, test } from 'bun:test';
import { AGE_RULE, type AgePolicy, decideAgeEstimation, summariseEstimates } from './age-decision';
import type { FaceAnalysis, FaceMeasurement } from '../faces/face-analysis';
import { GOOD_FACE } from '../faces/face-measurement.test-support';
import type { FrameFindings } from '../model';

const good = GOOD_FACE;
const frame = (change: Partial<FaceMeasurement> = {}, faceCount = 1): FaceAnalysis => ({ faceCount, face: { ...good, ...change } });
/** A frame with its four age views (face-analysis.ts ageViews). */
const viewed = (...ageViews: number[]) => frame({ estimatedAge: ageViews[0]!, ageViews });
/** The single-image harness's policy: one good frame is enough (cli/accuracy.ts). */
const single: AgePolicy = { challengeAge: 25, l1Margin: 5, stepUpAllowed: true, l1MinFrames: 1 };
/** The live check's policy: it sets AGE_RULE.minGoodFrames. */
const live: AgePolicy = { challengeAge: 25, l1Margin: 5, stepUpAllowed: true, l1MinFrames: AGE_RULE.minGoodFrames };

describe('decideAgeEstimation, one frame', () => {
  test.each<[string, FrameFindings[], AgePolicy, unknown]>([
    ['clears challengeAge + margin', [frame({ estimatedAge: 30 })], single, { decision: 'verified' }],
    ['inside the margin steps up', [frame({ estimatedAge: 29.9 })], single, { decision: 'step_up' }],
    ['far below steps up too (an estimate is not proof of being under age)', [frame({ estimatedAge: 12 })], single, { decision: 'step_up' }],
    ['below without step-up fails', [frame({ estimatedAge: 29 })], { ...single, stepUpAllowed: false }, { decision: 'failed', reason: 'age_not_met' }],
    ['low anti-spoof score is a soft signal only', [frame({ antispoof: 0.1, liveness: 0.1 })], single, { decision: 'verified' }],
    ['no face', [{ faceCount: 0, face: null }], single, { decision: 'retry', hint: 'no_face', part: 'selfie' }],
    ['two faces', [frame({}, 2)], single, { decision: 'retry', hint: 'multiple_faces', part: 'selfie' }],
    ['small face', [frame({ box: [0.45, 0.45, 0.08, 0.1] })], single, { decision: 'retry', hint: 'face_too_small', part: 'selfie' }],
    ['face too few pixels wide', [frame({ widthPx: 60 })], single, { decision: 'retry', hint: 'face_too_small', part: 'selfie' }],
    ['face in a corner', [frame({ box: [0, 0, 0.2, 0.2] })], single, { decision: 'retry', hint: 'face_not_centered', part: 'selfie' }],
    ['turned head', [frame({ yaw: 45 })], single, { decision: 'retry', hint: 'face_not_frontal', part: 'selfie' }],
    ['dark', [frame({ brightness: 20 })], single, { decision: 'retry', hint: 'too_dark', part: 'selfie' }],
    ['blurred', [frame({ sharpness: 2 })], single, { decision: 'retry', hint: 'too_blurry', part: 'selfie' }],
    ['undecodable frame', [{ unreadable: true }], single, { decision: 'retry', hint: 'image_unreadable', part: 'selfie' }],
    ['no frames', [], single, { decision: 'retry', hint: 'no_face', part: 'selfie' }],
    [
      'without l1MinFrames one good frame decides',
      [frame({ estimatedAge: 30 })],
      { challengeAge: 25, l1Margin: 5, stepUpAllowed: true },
      { decision: 'verified' },
    ],
    ['a bad frame before a good one is skipped', [frame({ yaw: 50 }), frame({ estimatedAge: 41 })], single, { decision: 'verified' }],
  ])('%s', (_, frames, policy, expected) => expect(decideAgeEstimation(frames, policy)).toEqual(expected as never));
});

describe('decideAgeEstimation, many frames and views (issue 19)', () => {
  test.each<[string, FrameFindings[], AgePolicy, unknown]>([
    ['passes when every view of every frame agrees above the bar', [viewed(38, 40, 39, 41), viewed(40, 37, 39, 38)], live, { decision: 'verified' }],
    ['one high outlier does not make the views disagree', [viewed(38, 40, 39, 41), viewed(40, 58, 39, 38)], live, { decision: 'verified' }],
    ['one high outlier does not lift the estimate either', [viewed(26, 27, 28, 27), viewed(26, 51, 27, 28)], live, { decision: 'step_up' }],
    ['a low outlier is never dropped: it decides', [viewed(38, 40, 39, 41), viewed(40, 29, 39, 38)], live, { decision: 'step_up' }],
    ['the lowest kept estimate decides, not the mean', [viewed(45, 44, 43, 45), viewed(44, 29, 44, 43), viewed(29, 43, 44, 45)], live, { decision: 'step_up' }],
    [
      'views that disagree beyond the spread limit are inconclusive, however old',
      [viewed(36, 52, 50, 38), viewed(37, 50, 49, 39)],
      live,
      { decision: 'step_up' },
    ],
    [
      'disagreement without step-up fails',
      [viewed(36, 52, 50, 38), viewed(37, 50, 49, 39)],
      { ...live, stepUpAllowed: false },
      { decision: 'failed', reason: 'age_not_met' },
    ],
    [
      "each frame's one high view is its own outlier: a crop that reads older on every frame is not a disagreement",
      [viewed(36, 52, 40, 38), viewed(37, 50, 41, 39)],
      live,
      { decision: 'verified' },
    ],
    ['one good frame is too few for the live check', [viewed(40, 41, 39, 40)], live, { decision: 'step_up' }],
    [
      'turned frames do not count as good frames',
      [viewed(40, 41, 39, 40), frame({ yaw: 40, estimatedAge: 40 }), frame({ yaw: -40, estimatedAge: 40 })],
      live,
      { decision: 'step_up' },
    ],
    [
      'the good frames among turned ones decide',
      [frame({ yaw: 40 }), viewed(40, 41, 39, 40), viewed(39, 40, 41, 40), frame({ yaw: -40 })],
      live,
      { decision: 'verified' },
    ],
    ['frames without views count once each', [frame({ estimatedAge: 36 }), frame({ estimatedAge: 33 })], live, { decision: 'verified' }],
    [
      'two frames without views that disagree',
      [frame({ estimatedAge: 30 }), frame({ estimatedAge: 30 + AGE_RULE.maxSpreadYears + 1 })],
      live,
      { decision: 'step_up' },
    ],
  ])('%s', (_, frames, policy, expected) => expect(decideAgeEstimation(frames, policy)).toEqual(expected as never));
});

describe('summariseEstimates', () => {
  test("the lowest of all; the spread once each frame's highest view is left out", () => {
    expect(summariseEstimates([viewed(30, 31, 60, 32)].map((f) => f.face!))).toEqual({ estimates: [30, 31, 60, 32], dropped: [60], lowest: 30, spread: 2 });
    expect(summariseEstimates([viewed(30, 31, 10, 32)].map((f) => f.face!))).toEqual({ estimates: [30, 31, 10, 32], dropped: [32], lowest: 10, spread: 21 });
    expect(summariseEstimates([viewed(30, 31, 60, 32), viewed(33, 50, 34, 35)].map((f) => f.face!))).toMatchObject({
      dropped: [60, 50],
      lowest: 30,
      spread: 5,
    });
  });
  test('two estimates: nothing dropped', () => {
    expect(summariseEstimates([frame({ estimatedAge: 20 }).face!, frame({ estimatedAge: 30 }).face!])).toEqual({
      estimates: [20, 30],
      dropped: [],
      lowest: 20,
      spread: 10,
    });
  });
});
