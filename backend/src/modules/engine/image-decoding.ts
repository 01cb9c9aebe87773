/**
 * Decodes one uploaded image safely (issue 10): the type is sniffed from the bytes (the part's
 * declared type is the browser's word, not a fact), sharp refuses images over the pixel limit
 * before decoding them (decompression bombs), EXIF orientation is applied, and the image is
 * downscaled before inference (docs/engine-notes.md "One model instance, fresh results, small images").
 * The bytes live only in memory; nothing here writes to disk.
 */
import sharp from 'sharp';
import { CHECK_LIMITS } from '@ageverify/protocol';

export type ImageType = (typeof CHECK_LIMITS.imageTypes)[number];

/** Pixels passed to the models: RGB, 3 bytes per pixel, row-major. */
export interface DecodedImage {
  data: Uint8Array;
  width: number;
  height: number;
}

export class ImageRejected extends Error {
  constructor(
    readonly kind: 'unsupported_type' | 'too_large' | 'unreadable',
    message: string,
  ) {
    super(message);
  }
}

/** Magic numbers: JPEG FF D8 FF, PNG \x89PNG\r\n\x1a\n, WebP RIFF····WEBP. */
export function sniffImageType(bytes: Uint8Array): ImageType | null {
  if (bytes.length >= 3 && bytes[0] === 0xff && bytes[1] === 0xd8 && bytes[2] === 0xff) return 'image/jpeg';
  const png = [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a];
  if (bytes.length >= 8 && png.every((b, i) => bytes[i] === b)) return 'image/png';
  const ascii = (from: number, to: number) => String.fromCharCode(...bytes.subarray(from, to));
  if (bytes.length >= 12 && ascii(0, 4) === 'RIFF' && ascii(8, 12) === 'WEBP') return 'image/webp';
  return null;
}

export interface DecodeOptions {
  /** Longest side after downscaling. Faces: 640 px; documents need more for the MRZ characters. */
  maxSide: number;
  maxPixels?: number;
  maxBytes?: number;
}

export async function decodeImage(bytes: Uint8Array, options: DecodeOptions): Promise<DecodedImage> {
  const { maxSide, maxPixels = CHECK_LIMITS.maxImagePixels, maxBytes = CHECK_LIMITS.maxImageBytes } = options;
  if (bytes.byteLength > maxBytes) throw new ImageRejected('too_large', `image is larger than ${maxBytes} bytes`);
  if (!sniffImageType(bytes)) throw new ImageRejected('unsupported_type', 'image is not a JPEG, PNG or WebP');
  try {
    // failOn 'error': a truncated or corrupt file is refused rather than half-decoded.
    const { data, info } = await sharp(bytes, { limitInputPixels: maxPixels, failOn: 'error', animated: false })
      .rotate()
      .resize({ width: maxSide, height: maxSide, fit: 'inside', withoutEnlargement: true })
      .removeAlpha()
      .toColourspace('srgb')
      .raw()
      .toBuffer({ resolveWithObject: true });
    return { data: new Uint8Array(data.buffer, data.byteOffset, data.byteLength), width: info.width, height: info.height };
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error);
    if (/pixel limit/i.test(message)) throw new ImageRejected('too_large', `image has more than ${maxPixels} pixels`);
    throw new ImageRejected('unreadable', 'image could not be decoded');
  }
}

/** Mean luminance (0–255) and a sharpness score (variance of a Laplacian) of a region, for quality hints. */
export function brightnessAndSharpness(
  image: DecodedImage,
  box?: { x: number; y: number; width: number; height: number },
): { brightness: number; sharpness: number } {
  const x0 = Math.max(0, Math.floor(box?.x ?? 0));
  const y0 = Math.max(0, Math.floor(box?.y ?? 0));
  const x1 = Math.min(image.width, Math.ceil((box?.x ?? 0) + (box?.width ?? image.width)));
  const y1 = Math.min(image.height, Math.ceil((box?.y ?? 0) + (box?.height ?? image.height)));
  const grey = (x: number, y: number) => {
    const i = (y * image.width + x) * 3;
    return 0.299 * image.data[i]! + 0.587 * image.data[i + 1]! + 0.114 * image.data[i + 2]!;
  };
  let sum = 0;
  let count = 0;
  let lapSum = 0;
  let lapSquares = 0;
  let lapCount = 0;
  for (let y = y0; y < y1; y++) {
    for (let x = x0; x < x1; x++) {
      const g = grey(x, y);
      sum += g;
      count++;
      if (x > x0 && y > y0 && x < x1 - 1 && y < y1 - 1) {
        const lap = grey(x - 1, y) + grey(x + 1, y) + grey(x, y - 1) + grey(x, y + 1) - 4 * g;
        lapSum += lap;
        lapSquares += lap * lap;
        lapCount++;
      }
    }
  }
  const mean = lapCount ? lapSum / lapCount : 0;
  return { brightness: count ? sum / count : 0, sharpness: lapCount ? lapSquares / lapCount - mean * mean : 0 };
}
