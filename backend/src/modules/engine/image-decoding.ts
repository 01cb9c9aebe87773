/**
 * Decodes one uploaded image safely (issue 10): the type is sniffed from the bytes (the part's
 * declared type is the browser's word, not a fact), sharp refuses images over the pixel limit
 * before decoding them (decompression bombs), EXIF orientation is applied, and the image is
 * downscaled before inference (docs/engine-notes.md "One model instance, fresh results, small images").
 * The bytes live only in memory; nothing here writes to disk.
 */
import sharp, { type Sharp } from 'sharp';
import { CHECK_LIMITS } from '@ageverify/protocol';

export type ImageType = (typeof CHECK_LIMITS.imageTypes)[number];

/** Pixels passed to the models: RGB, 3 bytes per pixel, row-major. */
export interface DecodedImage {
  data: Uint8Array;
  width: number;
  height: number;
}

/** A decoded image as a sharp pipeline, to crop, turn or scale it again. */
export function decodedSharp(image: DecodedImage): Sharp {
  return sharp(image.data, { raw: { width: image.width, height: image.height, channels: 3 } });
}

/** A sharp pipeline's raw RGB output as a decoded image: an upload decoded, or a decoded image turned or scaled. */
export async function redecoded(pipeline: Sharp): Promise<DecodedImage> {
  const { data, info } = await pipeline.raw().toBuffer({ resolveWithObject: true });
  return { data: new Uint8Array(data.buffer, data.byteOffset, data.byteLength), width: info.width, height: info.height };
}

export class ImageRejected extends Error {
  constructor(
    readonly kind: 'unsupported_type' | 'too_large' | 'unreadable' | 'too_complex',
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

/**
 * Scans a JPEG may have (issue 22, finding 3). A progressive JPEG is decoded scan by scan over the
 * whole image, so its decode time grows with the scan count: 2,646 valid scans in a 233 KB,
 * 4800 × 4800 file took 19 s. Encoders write about 10 (libjpeg's default script) and never more
 * than a few dozen; cameras and the verify UI's canvas write one (baseline).
 */
export const MAX_JPEG_SCANS = 32;

/**
 * Counts the scans (SOS markers) of a JPEG without decoding it: marker segments are skipped by
 * their length, entropy-coded data by looking for the next marker (0xFF not followed by a stuffed
 * 0x00, a restart marker or fill). Stops counting once past `stopAfter`. Not a validator: what it
 * cannot parse, libjpeg refuses later.
 */
export function jpegScanCount(bytes: Uint8Array, stopAfter = Number.POSITIVE_INFINITY): number {
  let scans = 0;
  let i = 2;
  while (i + 1 < bytes.length) {
    if (bytes[i] !== 0xff || bytes[i + 1] === 0xff) {
      i++;
      continue;
    }
    const marker = bytes[i + 1]!;
    if (marker === 0xd9) break; // EOI
    if ((marker >= 0xd0 && marker <= 0xd7) || marker === 0x01 || marker === 0x00) {
      i += 2; // standalone markers: no length
      continue;
    }
    if (i + 3 >= bytes.length) break;
    i += 2 + ((bytes[i + 2]! << 8) | bytes[i + 3]!);
    if (marker !== 0xda) continue;
    if (++scans > stopAfter) return scans;
    // Entropy-coded data follows the scan header: skip to the next real marker.
    for (;;) {
      i = bytes.indexOf(0xff, i);
      if (i < 0 || i + 1 >= bytes.length) return scans;
      const next = bytes[i + 1]!;
      if (next === 0x00 || (next >= 0xd0 && next <= 0xd7)) i += 2;
      else if (next === 0xff) i++;
      else break;
    }
  }
  return scans;
}

/** Why a JPEG is refused before decoding (too many scans), or null; the message names the part (e.g. "part selfie"). */
export function jpegComplexityProblem(bytes: Uint8Array, part: string): string | null {
  if (sniffImageType(bytes) !== 'image/jpeg') return null;
  const scans = jpegScanCount(bytes, MAX_JPEG_SCANS);
  return scans > MAX_JPEG_SCANS ? `${part} is a JPEG with more than ${MAX_JPEG_SCANS} scans; send a baseline JPEG, PNG or WebP` : null;
}

/** Time one image may take to decode in a worker (issue 22, finding 3); engine-worker.ts then replaces the worker. */
export const DECODE_BUDGET_MS = 3000;

export interface DecodeOptions {
  /** Longest side after downscaling. Faces: 640 px; documents need more for the MRZ characters. */
  maxSide: number;
  maxPixels?: number;
  maxBytes?: number;
  /** Milliseconds the decode may take (DECODE_BUDGET_MS): past it, the image is refused as too_complex. */
  budgetMs?: number;
}

export async function decodeImage(bytes: Uint8Array, options: DecodeOptions): Promise<DecodedImage> {
  const { maxSide, maxPixels = CHECK_LIMITS.maxImagePixels, maxBytes = CHECK_LIMITS.maxImageBytes, budgetMs = DECODE_BUDGET_MS } = options;
  if (bytes.byteLength > maxBytes) throw new ImageRejected('too_large', `image is larger than ${maxBytes} bytes`);
  if (!sniffImageType(bytes)) throw new ImageRejected('unsupported_type', 'image is not a JPEG, PNG or WebP');
  // The submission route refuses these already (check-submission.ts); checked again here so no
  // caller of decodeImage can skip it.
  const complexity = jpegComplexityProblem(bytes, 'image');
  if (complexity) throw new ImageRejected('too_complex', complexity);
  let timer: ReturnType<typeof setTimeout> | undefined;
  try {
    // failOn 'error': a truncated or corrupt file is refused rather than half-decoded.
    const decoding = redecoded(
      sharp(bytes, { limitInputPixels: maxPixels, failOn: 'error', animated: false })
        .rotate()
        .resize({ width: maxSide, height: maxSide, fit: 'inside', withoutEnlargement: true })
        .removeAlpha()
        .toColourspace('srgb'),
    );
    decoding.catch(() => undefined); // lost the race: its late failure is nobody's concern
    // libjpeg reads every scan in one native call that sharp's own timeout cannot interrupt, so the
    // budget is a race: the refusal answers at once, and the worker that still decodes is replaced.
    const overBudget = new Promise<never>((_, reject) => {
      timer = setTimeout(() => reject(new ImageRejected('too_complex', `image took more than ${budgetMs} ms to decode`)), budgetMs);
    });
    return await Promise.race([decoding, overBudget]);
  } catch (error) {
    if (error instanceof ImageRejected) throw error;
    const message = error instanceof Error ? error.message : String(error);
    if (/pixel limit/i.test(message)) throw new ImageRejected('too_large', `image has more than ${maxPixels} pixels`);
    throw new ImageRejected('unreadable', 'image could not be decoded');
  } finally {
    clearTimeout(timer);
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
