import { describe, expect, test } from 'bun:test';
import type { RetryHint } from '@ageverify/protocol';
import type { FaceAnalysis, FaceMeasurement } from './face-analysis';
import { GOOD_FACE } from './face-measurement.test-support';
import { FACE_QUALITY, faceQualityHint } from './face-quality';

const good = GOOD_FACE;
const analysis = (change: Partial<FaceMeasurement> = {}, faceCount = 1): FaceAnalysis => ({ faceCount, face: { ...good, ...change } });

describe('faceQualityHint', () => {
  test.each<[string, FaceAnalysis, RetryHint | null]>([
    ['a good selfie', analysis(), null],
    ['no face', { faceCount: 0, face: null }, 'no_face'],
    ['a second face', analysis({}, 2), 'multiple_faces'],
    ['narrow as a share of the image', analysis({ box: [0.45, 0.3, FACE_QUALITY.minFaceWidth - 0.01, 0.2] }), 'face_too_small'],
    ['too few pixels wide, however large a share', analysis({ widthPx: FACE_QUALITY.minFaceWidthPx - 1 }), 'face_too_small'],
    ['just enough pixels', analysis({ widthPx: FACE_QUALITY.minFaceWidthPx }), null],
    ['off centre', analysis({ box: [0.75, 0.3, 0.2, 0.3] }), 'face_not_centered'],
    ['turned', analysis({ yaw: FACE_QUALITY.maxYawDegrees + 1 }), 'face_not_frontal'],
    ['turned the other way', analysis({ yaw: -FACE_QUALITY.maxYawDegrees - 1 }), 'face_not_frontal'],
    ['nodding', analysis({ pitch: FACE_QUALITY.maxPitchDegrees + 1 }), 'face_not_frontal'],
    // Issue 25 item 5: a pose the mesh could not give was taken as frontal (yaw and pitch 0).
    ['no head rotation from the mesh', analysis({ yaw: null, pitch: null, roll: null }), 'face_not_frontal'],
    ['dark', analysis({ brightness: FACE_QUALITY.minBrightness - 1 }), 'too_dark'],
    ['blurred', analysis({ sharpness: FACE_QUALITY.minSharpness - 1 }), 'too_blurry'],
  ])('%s', (_, input, expected) => expect(faceQualityHint(input)).toBe(expected));
});
