import { describe, expect, test } from 'bun:test';
import { decideAgeEstimation } from './age-decision';
import type { FaceAnalysis, FaceMeasurement } from './face-analysis';
import type { FrameFindings } from './model';

const good: FaceMeasurement = {
  box: [0.3, 0.25, 0.4, 0.5],
  widthPx: 256,
  detectorScore: 0.9,
  yaw: 3,
  pitch: -4,
  roll: 1,
  brightness: 120,
  sharpness: 200,
  estimatedAge: 40,
  antispoof: 0.7,
  liveness: 0.9,
};
const frame = (change: Partial<FaceMeasurement> = {}, faceCount = 1): FaceAnalysis => ({ faceCount, face: { ...good, ...change } });
const policy = { challengeAge: 25, l1Margin: 5, stepUpAllowed: true };

describe('decideAgeEstimation', () => {
  test.each<[string, FrameFindings[], typeof policy, unknown]>([
    ['clears challengeAge + margin', [frame({ estimatedAge: 30 })], policy, { decision: 'verified' }],
    ['inside the margin steps up', [frame({ estimatedAge: 29.9 })], policy, { decision: 'step_up' }],
    ['far below steps up too (an estimate is not proof of being under age)', [frame({ estimatedAge: 12 })], policy, { decision: 'step_up' }],
    ['below without step-up fails', [frame({ estimatedAge: 29 })], { ...policy, stepUpAllowed: false }, { decision: 'failed', reason: 'age_not_met' }],
    ['low anti-spoof score is a soft signal only', [frame({ antispoof: 0.1, liveness: 0.1 })], policy, { decision: 'verified' }],
    ['no face', [{ faceCount: 0, face: null }], policy, { decision: 'retry', hint: 'no_face', part: 'selfie' }],
    ['two faces', [frame({}, 2)], policy, { decision: 'retry', hint: 'multiple_faces', part: 'selfie' }],
    ['small face', [frame({ box: [0.45, 0.45, 0.08, 0.1] })], policy, { decision: 'retry', hint: 'face_too_small', part: 'selfie' }],
    ['face in a corner', [frame({ box: [0, 0, 0.2, 0.2] })], policy, { decision: 'retry', hint: 'face_not_centered', part: 'selfie' }],
    ['turned head', [frame({ yaw: 45 })], policy, { decision: 'retry', hint: 'face_not_frontal', part: 'selfie' }],
    ['dark', [frame({ brightness: 20 })], policy, { decision: 'retry', hint: 'too_dark', part: 'selfie' }],
    ['blurred', [frame({ sharpness: 2 })], policy, { decision: 'retry', hint: 'too_blurry', part: 'selfie' }],
    ['undecodable frame', [{ unreadable: true }], policy, { decision: 'retry', hint: 'image_unreadable', part: 'selfie' }],
    ['the first good frame of a burst decides', [frame({ yaw: 50 }), frame({ estimatedAge: 41 })], policy, { decision: 'verified' }],
    ['no frames', [], policy, { decision: 'retry', hint: 'no_face', part: 'selfie' }],
  ])('%s', (_, frames, p, expected) => expect(decideAgeEstimation(frames, p)).toEqual(expected as never));
});
