import { describe, expect, test } from 'bun:test';
import sharp from 'sharp';
import { ImageRejected, MAX_JPEG_SCANS, brightnessAndSharpness, decodeImage, jpegScanCount, sniffImageType } from './image-decoding';
import { manyScanJpeg } from './hostile-jpeg.test-support';

const solid = (format: 'jpeg' | 'png' | 'webp', width = 64, height = 48) =>
  sharp({ create: { width, height, channels: 3, background: { r: 200, g: 100, b: 50 } } })
    [format]()
    .toBuffer();

async function rejection(promise: Promise<unknown>): Promise<string> {
  try {
    await promise;
    return 'accepted';
  } catch (error) {
    return error instanceof ImageRejected ? error.kind : `other: ${String(error)}`;
  }
}

describe('sniffImageType', () => {
  test.each(['jpeg', 'png', 'webp'] as const)('%s from its bytes', async (format) => {
    expect(sniffImageType(await solid(format))).toBe(`image/${format}`);
  });
  test.each([
    ['GIF', new TextEncoder().encode('GIF89a....')],
    ['SVG', new TextEncoder().encode('<svg xmlns="http://www.w3.org/2000/svg"/>')],
    ['empty', new Uint8Array(0)],
    ['RIFF that is not WebP', new TextEncoder().encode('RIFF....WAVEfmt ')],
  ])('%s is not an accepted image', (_, bytes) => expect(sniffImageType(bytes)).toBeNull());
});

describe('decodeImage', () => {
  test('decodes to RGB and downscales to the longest side', async () => {
    const image = await decodeImage(await solid('png', 400, 200), { maxSide: 100 });
    expect([image.width, image.height, image.data.length]).toEqual([100, 50, 100 * 50 * 3]);
  });
  test('never enlarges', async () => {
    const image = await decodeImage(await solid('jpeg', 40, 30), { maxSide: 640 });
    expect([image.width, image.height]).toEqual([40, 30]);
  });
  test.each<[string, () => Promise<Uint8Array>, Record<string, number>, string]>([
    ['a declared image that is text', async () => new TextEncoder().encode('not an image at all'), {}, 'unsupported_type'],
    ['a truncated JPEG', async () => (await solid('jpeg', 300, 300)).subarray(0, 200), {}, 'unreadable'],
    ['more pixels than the limit (checked before decoding)', () => solid('png', 2000, 2000), { maxPixels: 1_000_000 }, 'too_large'],
    ['more bytes than the limit', () => solid('png', 100, 100), { maxBytes: 10 }, 'too_large'],
  ])('refuses %s', async (_, bytes, limits, kind) => {
    expect(await rejection(decodeImage(await bytes(), { maxSide: 640, ...limits }))).toBe(kind);
  });
});

describe('brightnessAndSharpness', () => {
  test('a flat grey image is mid-bright and has no edges', () => {
    const image = { width: 10, height: 10, data: new Uint8Array(300).fill(128) };
    const { brightness, sharpness } = brightnessAndSharpness(image);
    expect(brightness).toBeCloseTo(128, 3);
    expect(sharpness).toBeCloseTo(0, 3);
  });
  test('a checkerboard is sharp', () => {
    const data = new Uint8Array(300);
    for (let i = 0; i < 100; i++) data.fill(((i % 10) + Math.floor(i / 10)) % 2 ? 255 : 0, i * 3, i * 3 + 3);
    expect(brightnessAndSharpness({ width: 10, height: 10, data }).sharpness).toBeGreaterThan(10_000);
  });
});

describe('hostile JPEGs (issue 22, finding 3)', () => {
  test('jpegScanCount counts the scans of real encoder output without decoding', async () => {
    const baseline = new Uint8Array(
      await sharp({ create: { width: 64, height: 64, channels: 3, background: '#888' } })
        .jpeg()
        .toBuffer(),
    );
    const progressive = new Uint8Array(
      await sharp({ create: { width: 64, height: 64, channels: 3, background: '#888' } })
        .jpeg({ progressive: true })
        .toBuffer(),
    );
    expect(jpegScanCount(baseline)).toBe(1);
    expect(jpegScanCount(progressive)).toBeGreaterThan(1);
    expect(jpegScanCount(progressive)).toBeLessThanOrEqual(MAX_JPEG_SCANS);
    expect(jpegScanCount(await manyScanJpeg(2646))).toBe(2646);
    expect(jpegScanCount(await manyScanJpeg(2646), MAX_JPEG_SCANS)).toBe(MAX_JPEG_SCANS + 1);
  });

  test('a progressive JPEG with thousands of scans is refused before decoding, with a message that says why', async () => {
    const error = await decodeImage(await manyScanJpeg(2646), { maxSide: 640 }).catch((e) => e);
    expect(error).toBeInstanceOf(ImageRejected);
    expect((error as ImageRejected).kind).toBe('too_complex');
    expect((error as ImageRejected).message).toBe(`image is a JPEG with more than ${MAX_JPEG_SCANS} scans; send a baseline JPEG, PNG or WebP`);
  });

  test('an image still decoding after its time budget is refused as too_complex', async () => {
    const big = await sharp({ create: { width: 2000, height: 2000, channels: 3, background: '#468' } })
      .jpeg({ progressive: true })
      .toBuffer();
    expect(await rejection(decodeImage(big, { maxSide: 640, budgetMs: 1 }))).toBe('too_complex');
    // The same image within an ordinary budget decodes.
    expect((await decodeImage(big, { maxSide: 640 })).width).toBe(640);
  });
});
