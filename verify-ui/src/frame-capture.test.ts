import { describe, expect, test } from 'bun:test';
import { FRAME_SETTINGS, fitWithin } from './frame-capture';

describe('fitWithin', () => {
  const cases: Array<[number, number, number, { width: number; height: number }]> = [
    [1280, 720, 960, { width: 960, height: 540 }],
    [720, 1280, 960, { width: 540, height: 960 }],
    [640, 480, 960, { width: 640, height: 480 }],
    [4032, 3024, FRAME_SETTINGS.documentMaxSide, { width: 1600, height: 1200 }],
    [10000, 3, 960, { width: 960, height: 1 }],
  ];
  for (const [width, height, max, expected] of cases) test(`${width}×${height} in ${max}`, () => expect(fitWithin(width, height, max)).toEqual(expected));
  test('refuses an empty image', () => expect(() => fitWithin(0, 480, 960)).toThrow('Expected a positive image size, got 0×480'));
  test('selfie frames stay within the agreed 960 px', () => expect(FRAME_SETTINGS.selfieMaxSide).toBeLessThanOrEqual(960));
});
