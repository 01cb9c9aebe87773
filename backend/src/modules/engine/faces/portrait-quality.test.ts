import { describe, expect, test } from 'bun:test';
import { PORTRAIT_QUALITY, portraitReadable } from './portrait-quality';

describe('portraitReadable', () => {
  test('a portrait of ordinary print size and sharpness is read', () => expect(portraitReadable({ widthPx: 110, sharpness: 330 })).toBe(true));
  test('a face narrower than the limit is not', () => expect(portraitReadable({ widthPx: PORTRAIT_QUALITY.minFaceWidthPx - 1, sharpness: 330 })).toBe(false));
  test('a blurred face is not', () => expect(portraitReadable({ widthPx: 110, sharpness: PORTRAIT_QUALITY.minSharpness - 1 })).toBe(false));
  test('both limits are inclusive', () =>
    expect(portraitReadable({ widthPx: PORTRAIT_QUALITY.minFaceWidthPx, sharpness: PORTRAIT_QUALITY.minSharpness })).toBe(true));
});
