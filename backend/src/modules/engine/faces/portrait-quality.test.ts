import { describe, expect, test } from 'bun:test';
import { PORTRAIT_QUALITY, portraitReadable } from './portrait-quality';

describe('portraitReadable', () => {
  test('a portrait of ordinary print size and sharpness is read', () => expect(portraitReadable({ widthPx: 110, alignedSharpness: 120 })).toBe(true));
  test('a face narrower than the limit is not', () =>
    expect(portraitReadable({ widthPx: PORTRAIT_QUALITY.minFaceWidthPx - 1, alignedSharpness: 120 })).toBe(false));
  test('a blurred face is not', () => expect(portraitReadable({ widthPx: 110, alignedSharpness: PORTRAIT_QUALITY.minAlignedSharpness - 1 })).toBe(false));
  test('a face never described (no sharpness measured) is not', () => expect(portraitReadable({ widthPx: 110 })).toBe(false));
  test('both limits are inclusive', () =>
    expect(portraitReadable({ widthPx: PORTRAIT_QUALITY.minFaceWidthPx, alignedSharpness: PORTRAIT_QUALITY.minAlignedSharpness })).toBe(true));
});
