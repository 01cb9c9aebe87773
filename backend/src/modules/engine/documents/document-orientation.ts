/**
 * Right-angle turns of a decoded document photo (issue 20). EXIF orientation is applied when the
 * image is decoded (image-decoding.ts); a photo taken sideways without that tag, or with a wrong
 * one, still shows the page turned by 90°, 180° or 270°, and OCR reads nothing there. The MRZ
 * reader tries these turns only when the upright image showed no MRZ, so an upright page pays
 * nothing for them.
 */
import { type DecodedImage, decodedSharp } from '../image-decoding';

/** Turns tried after the upright image, likeliest first: a phone held sideways either way, then upside down. */
export const FALLBACK_TURNS = [90, 270, 180] as const;
export type Turn = (typeof FALLBACK_TURNS)[number];

/** The image turned clockwise by `turn` degrees, as raw RGB like every decoded image. */
export async function turnImage(image: DecodedImage, turn: Turn): Promise<DecodedImage> {
  const { data, info } = await decodedSharp(image).rotate(turn).raw().toBuffer({ resolveWithObject: true });
  return { data: new Uint8Array(data.buffer, data.byteOffset, data.byteLength), width: info.width, height: info.height };
}
