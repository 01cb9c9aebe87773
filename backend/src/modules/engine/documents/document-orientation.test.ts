import { describe, expect, test } from 'bun:test';
import type { DecodedImage } from '../image-decoding';
import { turnImage } from './document-orientation';

// 2 × 1 pixels: red then blue.
const image: DecodedImage = { data: new Uint8Array([255, 0, 0, 0, 0, 255]), width: 2, height: 1 };

describe('turnImage', () => {
  test('90° clockwise puts the left pixel on top', async () => {
    expect(await turnImage(image, 90)).toEqual({ data: new Uint8Array([255, 0, 0, 0, 0, 255]), width: 1, height: 2 });
  });
  test('270° puts the right pixel on top', async () => {
    expect(await turnImage(image, 270)).toEqual({ data: new Uint8Array([0, 0, 255, 255, 0, 0]), width: 1, height: 2 });
  });
  test('180° swaps left and right', async () => {
    expect(await turnImage(image, 180)).toEqual({ data: new Uint8Array([0, 0, 255, 255, 0, 0]), width: 2, height: 1 });
  });
});
