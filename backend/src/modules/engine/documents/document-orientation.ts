/**
 * Right-angle turns of a decoded document photo (issue 20). EXIF orientation is applied when the
 * image is decoded (image-decoding.ts); a photo taken sideways without that tag, or with a wrong
 * one, still shows the page turned by 90°, 180° or 270°, and OCR reads nothing there. The MRZ
 * reader tries these turns only when the upright image showed no MRZ, so an upright page pays
 * nothing for them.
 */
import sharp from 'sharp';
import { type DecodedImage, decodedSharp, redecoded } from '../image-decoding';
import { locateMrzBands } from './mrz-band';

/** Turns tried after the upright image, likeliest first: a phone held sideways either way, then upside down. */
export const FALLBACK_TURNS = [90, 270, 180] as const;
export type Turn = (typeof FALLBACK_TURNS)[number];

/** The image turned clockwise by `turn` degrees, as raw RGB like every decoded image. */
export async function turnImage(image: DecodedImage, turn: Turn): Promise<DecodedImage> {
  return redecoded(decodedSharp(image).rotate(turn));
}

/**
 * Zones that run up or down the page, such as the MRZ printed across one panel of a booklet scanned
 * open (the German substitute identity card of issue 20's real set): the zone search on the page
 * turned a quarter, each zone's crop as found and turned half round, since a zone running up the
 * page and one running down it look alike to the search.
 */
export async function zonesAcrossPage(image: DecodedImage): Promise<Buffer[]> {
  const bands = await locateMrzBands(await turnImage(image, 90));
  const crops: Buffer[] = [];
  for (const band of bands) crops.push(band.png, await sharp(band.png).rotate(180).png().toBuffer());
  return crops;
}
