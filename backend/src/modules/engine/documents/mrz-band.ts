/**
 * Finds where the MRZ is in a document photo by image processing (issue 20 Deliver 1), for the
 * pages the fixed bands miss: a page that fills only part of the frame, on a busy background, or
 * slanted. The classic approach: a morphological black-hat brings out dark text on a light page,
 * its horizontal gradient marks the dense vertical strokes of OCR-B characters, a wide closing joins
 * the characters of a line and the lines of the zone into one block, and the blocks much wider than
 * tall are the candidates. On a busy table that closing also joins the zone to the text around it;
 * the zone is then rebuilt from its lines, found before the closing (zonesFromLines). Each candidate
 * is cropped from the full image with a margin, turned level by the block's own orientation (second
 * moments), and by the slant of the text lines in it too when the two differ (a projection profile),
 * and enlarged so its glyphs reach a height the OCR model reads well (mrz-reading.ts reads it).
 *
 * sharp's erode and dilate are square and binary; the grey, rectangular ones the black-hat needs
 * are the separable min / max filters below (van Herk / Gil–Werman).
 */
import sharp, { type Sharp } from 'sharp';
import { type DecodedImage, decodedSharp } from '../image-decoding';

/** The width the search runs at: MRZ glyphs of a page filling the frame are then about 12–16 px high. */
const SEARCH_WIDTH = 800;
/** Black-hat and line-joining kernel (width × height at SEARCH_WIDTH): wider than a glyph gap, taller than a stroke. */
const LINE_KERNEL = { width: 15, height: 5 } as const;
/** Keeps only what is at least this wide along a row (a run of characters, not a vertical edge). */
const ROW_KERNEL = { width: 15, height: 1 } as const;
/** Joins the two or three lines of a zone into one block. */
const ZONE_KERNEL = { width: 21, height: 21 } as const;
/** A zone is at least this many times wider than tall, and this share of the search image wide. */
const MIN_ASPECT = 4;
const MIN_WIDTH_SHARE = 0.25;
/**
 * At most this many candidates are read, widest first. Three, not two: on a card scanned front
 * and back, lines of print wider than the zone come first, and the German card of 2004 (issue 20
 * real set) has its second MRZ line found as a zone of its own only third. The time budget
 * (mrz-reading.ts MRZ_BUDGET_MS) bounds what the extra crop can cost.
 */
const MAX_CANDIDATES = 3;
/** The crop is enlarged (or reduced) to this width: about 25 px a character for 44 characters. */
const READ_WIDTH = 1200;

export interface MrzBand {
  /** The zone, levelled by the block's orientation and scaled for reading, as grey PNG bytes. */
  png: Buffer;
  /**
   * The zone levelled instead by the slant of its text lines (textSlant), when that differs from
   * the block's by a degree or more: the block's orientation counts the clutter the closing joined
   * to the zone, the lines' slant can be thrown by text beside it; each is right on pages where the
   * other is not (issue 20's harder set), so both are read.
   */
  relevelled: Buffer | null;
  /** Where it was found, in the full image's pixels, and how far it was turned to level it. */
  box: { left: number; top: number; width: number; height: number };
  angleDegrees: number;
}

type Box = MrzBand['box'];

/**
 * Zones that lie one above the other, aligned, as the lines of one MRZ do when they are spaced too
 * widely for the closing to join them into one zone (issue 20's real set: the front and back of a
 * card scanned on one page). Each group is two or three neighbours, by index into `boxes`, top to
 * bottom: their next line starts within three line heights and overlaps at least 80 % of the
 * narrower one's width.
 */
export function stackedZones(boxes: readonly Box[]): number[][] {
  const order = boxes.map((box, index) => ({ box, index })).sort((a, b) => a.box.top - b.box.top);
  const follows = (upper: Box, lower: Box) => {
    const overlap = Math.min(upper.left + upper.width, lower.left + lower.width) - Math.max(upper.left, lower.left);
    const step = lower.top - upper.top;
    return overlap >= 0.8 * Math.min(upper.width, lower.width) && step > 0 && step <= 3 * Math.max(upper.height, lower.height);
  };
  const groups: number[][] = [];
  for (let k = 0; k + 1 < order.length; k++) {
    const [first, second, third] = [order[k]!, order[k + 1]!, order[k + 2]];
    if (!follows(first.box, second.box)) continue;
    groups.push([first.index, second.index]);
    if (third && follows(second.box, third.box)) groups.push([first.index, second.index, third.index]);
  }
  return groups;
}

/** Candidate MRZ zones of `image`, likeliest first; empty when nothing looks like one. */
export async function locateMrzBands(image: DecodedImage): Promise<MrzBand[]> {
  const scale = Math.min(1, SEARCH_WIDTH / image.width);
  const { data, info } = await decodedSharp(image)
    .resize({ width: Math.round(image.width * scale) })
    .greyscale()
    .raw()
    .toBuffer({ resolveWithObject: true });
  const width = info.width;
  const height = info.height;
  const grey = new Uint8Array(data.buffer, data.byteOffset, width * height);

  const closed = minFilter(maxFilter(grey, width, height, LINE_KERNEL), width, height, LINE_KERNEL);
  const blackHat = new Float32Array(width * height);
  for (let i = 0; i < blackHat.length; i++) blackHat[i] = closed[i]! - grey[i]!;
  const gradient = normalised(horizontalGradient(blackHat, width, height));
  const joined = minFilter(maxFilter(gradient, width, height, LINE_KERNEL), width, height, LINE_KERNEL);
  const threshold = otsu(joined);
  const binary = new Uint8Array(width * height);
  for (let i = 0; i < binary.length; i++) binary[i] = joined[i]! > threshold ? 255 : 0;
  // An opening along the rows drops what is narrower than a run of characters, such as a page's
  // vertical edge, which would otherwise join the zone to everything beside it.
  const rows = maxFilter(minFilter(binary, width, height, ROW_KERNEL), width, height, ROW_KERNEL);
  const zones = minFilter(maxFilter(rows, width, height, ZONE_KERNEL), width, height, ZONE_KERNEL);
  // A little erosion parts blocks that only touch, such as the zone and the text above it.
  const parted = minFilter(zones, width, height, { width: 5, height: 5 });

  const isZone = (c: Component) => c.box.width >= MIN_WIDTH_SHARE * width && c.box.width >= MIN_ASPECT * c.box.height;
  const closedBlocks = components(parted, width, height);
  const closedZones = closedBlocks.filter(isZone).sort((a, b) => b.box.width - a.box.width);
  // On a busy table the closing also joins the zone to the text around it, and the block is no
  // longer wide and flat. Before that closing, the zone's lines are apart from the clutter: a zone
  // is then rebuilt from its lines (zonesFromLines), or is one block already (its lines joined by
  // the line closing). Last come the zones of lines that glare or shade cut in pieces (joinedRuns),
  // so that they only fill the places the other candidates leave; and last of all a zone that glare
  // cut in two where the line closing had already joined the lines of each piece: its two closed
  // blocks, each too narrow to be a zone, side by side on one row with a gap no wider than they are
  // tall (decision 0107).
  const blocks = components(rows, width, height);
  const fromLines = [
    ...zonesFromLines(blocks),
    ...blocks.filter(isZone).sort((a, b) => b.box.width - a.box.width),
    ...zonesFromLines(joinedRuns(blocks)),
    ...joinedRuns(closedBlocks, CLOSED_GAP_HEIGHTS, CLOSED_HEIGHT_RATIO),
  ];
  const lineZones: Component[] = [];
  for (const zone of fromLines) {
    if (isZone(zone) && ![...closedZones, ...lineZones].some((other) => overlaps(other.box, zone.box))) lineZones.push(zone);
  }
  const candidates = [...closedZones, ...lineZones].slice(0, MAX_CANDIDATES);

  const bands: MrzBand[] = [];
  for (const candidate of candidates) bands.push(await cropBand(image, candidate, scale));
  return bands;
}

/** Lines of one zone: about as wide as each other (a tenth), starting at about the same place. */
const LINE_WIDTH_TOLERANCE = 0.1;
/** The next line of a zone starts at most this many line heights below the top of the previous one. */
const LINE_PITCH = 2.5;

/**
 * The MRZ's two or three lines, found one by one: runs of characters about as wide as each other,
 * left-aligned, one under the other at about a line's pitch (Doc 9303 prints every line of a zone
 * the same length). Each group of two or three is a zone.
 */
export function zonesFromLines(lines: readonly Component[]): Component[] {
  const sorted = [...lines].sort((a, b) => a.box.top - b.box.top);
  const zones: Component[] = [];
  const used = new Set<Component>();
  for (const first of sorted) {
    if (used.has(first)) continue;
    const group = [first];
    for (const next of sorted) {
      const last = group[group.length - 1]!;
      if (group.length === 3) break;
      if (next === first || used.has(next) || next.box.top <= last.box.top) continue;
      const sameWidth = Math.abs(next.box.width - first.box.width) <= LINE_WIDTH_TOLERANCE * first.box.width;
      const aligned = Math.abs(next.box.left - first.box.left) <= LINE_WIDTH_TOLERANCE * first.box.width;
      const close = next.box.top - last.box.top <= LINE_PITCH * Math.max(last.box.height, next.box.height);
      if (sameWidth && aligned && close) group.push(next);
    }
    if (group.length < 2) continue;
    for (const line of group) used.add(line);
    const left = Math.min(...group.map((line) => line.box.left));
    const top = Math.min(...group.map((line) => line.box.top));
    const right = Math.max(...group.map((line) => line.box.left + line.box.width));
    const bottom = Math.max(...group.map((line) => line.box.top + line.box.height));
    const angle = group.reduce((sum, line) => sum + line.angle, 0) / group.length;
    zones.push({ box: { left, top, width: right - left, height: bottom - top }, angle });
  }
  return zones;
}

function overlaps(a: Component['box'], b: Component['box']): boolean {
  return a.left < b.left + b.width && b.left < a.left + a.width && a.top < b.top + b.height && b.top < a.top + a.height;
}

export interface Component {
  box: { left: number; top: number; width: number; height: number };
  /** Orientation of the block's pixels (radians, image y downwards): its lines' slant. */
  angle: number;
}

async function cropBand(image: DecodedImage, { box, angle }: Component, scale: number): Promise<MrzBand> {
  // A margin of half the block's height above and below (the closing may have trimmed the glyphs'
  // tops and tails), and of the slant's rise at the ends.
  const rise = Math.abs(Math.tan(angle)) * box.width;
  const marginY = box.height * 0.5 + rise / 2;
  const marginX = box.height * 0.5;
  const left = Math.max(0, Math.floor((box.left - marginX) / scale));
  const top = Math.max(0, Math.floor((box.top - marginY) / scale));
  const right = Math.min(image.width, Math.ceil((box.left + box.width + marginX) / scale));
  const bottom = Math.min(image.height, Math.ceil((box.top + box.height + marginY) / scale));
  const full = { left, top, width: right - left, height: bottom - top };
  const crop = decodedSharp(image).extract(full);
  const angleDegrees = (angle * 180) / Math.PI;
  const linesDegrees = await linesAngle(crop.clone(), angle);
  const png = await levelled(crop.clone(), angleDegrees);
  const relevelled = Math.abs(linesDegrees - angleDegrees) >= RELEVEL_MIN_DEGREES ? await levelled(crop, linesDegrees) : null;
  return { png, relevelled, box: full, angleDegrees };
}

/**
 * Contrast equalised tile by tile (CLAHE), gently and strongly: the gentle one reads most pages
 * best; under a bright glare spot the text left is a pale grey that only the strong one, small tiles
 * and a steep slope, darkens enough (issue 20's harder set; decision 0074).
 */
export const EQUALISATIONS = {
  gentle: { width: 40, height: 40, maxSlope: 3 },
  strong: { width: 20, height: 20, maxSlope: 6 },
} as const;

/**
 * A zone's crop carried on sideways by `extra` pixels of the full image, to its left or to its
 * right, levelled as the zone was, and its contrast equalised tile by tile (EQUALISATIONS): glare
 * or shade across one end of the lines hides that end from the search, which then crops only part
 * of each line, and leaves that end too faint for one threshold (issue 20's harder set).
 */
export async function extendedBand(
  image: DecodedImage,
  band: MrzBand,
  side: 'left' | 'right',
  extra: number,
  equalisation: keyof typeof EQUALISATIONS = 'gentle',
): Promise<Buffer> {
  const { box } = band;
  const rise = Math.abs(Math.tan((band.angleDegrees * Math.PI) / 180)) * extra;
  const left = side === 'left' ? Math.max(0, Math.floor(box.left - extra)) : box.left;
  const right = side === 'right' ? Math.min(image.width, Math.ceil(box.left + box.width + extra)) : box.left + box.width;
  const top = Math.max(0, Math.floor(box.top - rise / 2));
  const bottom = Math.min(image.height, Math.ceil(box.top + box.height + rise / 2));
  const crop = decodedSharp(image).extract({
    left,
    top,
    width: right - left,
    height: bottom - top,
  });
  return equalised(crop, band.angleDegrees, equalisation);
}

/**
 * A zone's crop carried on up and down by twice its height each way, levelled as the zone was and
 * equalised (EQUALISATIONS): glare across the other lines of a card's zone hides them from the
 * search, which then finds one line as the zone (issue 20's harder set, a TD1 card whose first line
 * alone was found); the lines above or below it are then in the crop.
 */
export async function stackedBand(image: DecodedImage, band: MrzBand, equalisation: keyof typeof EQUALISATIONS): Promise<Buffer> {
  const { box } = band;
  const top = Math.max(0, Math.floor(box.top - 2 * box.height));
  const bottom = Math.min(image.height, Math.ceil(box.top + 3 * box.height));
  const crop = decodedSharp(image).extract({ left: box.left, top, width: box.width, height: bottom - top });
  return equalised(crop, band.angleDegrees, equalisation);
}

/** A zone's own crop (its first levelling) equalised (EQUALISATIONS), for a zone no step read. */
export function equalisedZone(band: MrzBand, equalisation: keyof typeof EQUALISATIONS): Promise<Buffer> {
  return equalise(band.png, equalisation);
}

/** A crop levelled and enlarged as a zone's is (levelled), then equalised (EQUALISATIONS). */
async function equalised(crop: Sharp, degrees: number, equalisation: keyof typeof EQUALISATIONS): Promise<Buffer> {
  return equalise(await levelled(crop, degrees), equalisation);
}

/**
 * The tiles are at most the image's own size: libvips refuses a larger window ("hist_local: window
 * too large"), and a zone found as a thin sliver of a real photo is smaller than a tile.
 */
async function equalise(png: Buffer, equalisation: keyof typeof EQUALISATIONS): Promise<Buffer> {
  const { width = 1, height = 1 } = await sharp(png).metadata();
  const tile = EQUALISATIONS[equalisation];
  return sharp(png)
    .clahe({ ...tile, width: Math.min(tile.width, width), height: Math.min(tile.height, height) })
    .png()
    .toBuffer();
}

/**
 * A crop's ink against the paper around it: each pixel divided by the crop blurred wide (a
 * flat-field correction), then one fixed threshold (thresholded), as a share of that paper's
 * brightness; the correction is built once for both FLAT_THRESHOLDS. Glare adds light that grows
 * smoothly across the zone, and a shade takes it away: the end of a line under glare is a pale grey
 * on a white page, which Otsu's threshold for the crop whitens and CLAHE's tiles leave faint, and
 * divided by its own bright surround it is as dark as the rest (issue 20's harder set, `combined`
 * pages whose lines were read cut where a glare spot starts; decision 0104).
 */
export async function flatField(png: Buffer): Promise<Buffer> {
  const surround = await sharp(png).greyscale().blur(FLAT_SURROUND_SIGMA).negate().toBuffer();
  // colour-dodge is dst / (1 − src): with the surround negated, each pixel over its surround.
  return sharp(png)
    .greyscale()
    .composite([{ input: surround, blend: 'colour-dodge' }])
    .png()
    .toBuffer();
}

/** A flat field (flatField) thresholded: ink black, paper white. */
export async function thresholded(flat: Buffer, threshold: number): Promise<Buffer> {
  return sharp(flat).greyscale().threshold(threshold).png().toBuffer();
}

/**
 * The blur that gives a pixel's surround (Gaussian sigma, in pixels of a crop READ_WIDTH wide):
 * about half a passport line's glyph height, wide enough that a stroke barely darkens its own
 * surround, narrow enough to follow the edge of a glare spot.
 */
const FLAT_SURROUND_SIGMA = 20;

/**
 * The thresholds a flattened crop is read at (flatField, thresholded), out of 255: a pixel darker
 * than this share of its surround is ink. High, because a filler under glare is only a little
 * darker than the paper around it; the higher first.
 */
export const FLAT_THRESHOLDS = [240, 225] as const;

/** The lines' slant is read as a second levelling when it differs from the block's by this much. */
const RELEVEL_MIN_DEGREES = 1;

/** The crop turned level by `degrees` (only when the slant is visible: a turn resamples the glyphs), enlarged, grey. */
async function levelled(crop: Sharp, degrees: number): Promise<Buffer> {
  let level = crop;
  if (Math.abs(degrees) >= 0.5) {
    const rotated = await crop.rotate(-degrees, { background: '#ffffff' }).raw().toBuffer({ resolveWithObject: true });
    level = sharp(rotated.data, { raw: { width: rotated.info.width, height: rotated.info.height, channels: 3 } });
  }
  return level.resize({ width: READ_WIDTH, kernel: 'lanczos3' }).greyscale().normalise().png().toBuffer();
}

/** The width a crop is measured at to find its lines' slant. */
const SLANT_WIDTH = 600;
/** Slants tried, in degrees either way from level, and the step between them. */
const SLANT_RANGE = 12;
const SLANT_STEP = 0.25;

/**
 * The slant of the text lines in a crop, in degrees (image y downwards), by projection profile: the
 * glyphs' strokes (pixels with a strong horizontal gradient: a background, dark or light, has none,
 * and a page's near-level edge little) sheared by each slant tried, the slant whose row histogram
 * is sharpest (the largest sum of squared row counts) is the lines'. Falls back to the block's own
 * orientation when the crop has too little text to say.
 */
async function linesAngle(crop: Sharp, blockAngle: number): Promise<number> {
  const { data, info } = await crop.resize({ width: SLANT_WIDTH }).greyscale().raw().toBuffer({ resolveWithObject: true });
  const slant = textSlant(new Uint8Array(data.buffer, data.byteOffset, info.width * info.height), info.width, info.height);
  return slant ?? (blockAngle * 180) / Math.PI;
}

/** A stroke's horizontal gradient is at least this (grey levels over two pixels). */
const MIN_STROKE_GRADIENT = 24;

/** See linesAngle; pure, for tests. Null when fewer than 1 % of the pixels are strokes. */
export function textSlant(grey: ArrayLike<number>, width: number, height: number): number | null {
  const gradient = new Float32Array(width * height);
  for (let y = 0; y < height; y++) {
    for (let x = 1; x < width - 1; x++) gradient[y * width + x] = Math.abs(grey[y * width + x + 1]! - grey[y * width + x - 1]!);
  }
  const threshold = Math.max(MIN_STROKE_GRADIENT, otsu(gradient));
  const xs: number[] = [];
  const ys: number[] = [];
  for (let y = 0; y < height; y++) {
    for (let x = 0; x < width; x++) {
      if (gradient[y * width + x]! > threshold) {
        xs.push(x);
        ys.push(y);
      }
    }
  }
  if (xs.length < width * height * 0.01) return null;
  let best = 0;
  let bestScore = -1;
  const rows = new Float64Array(height + 2 * width);
  for (let degrees = -SLANT_RANGE; degrees <= SLANT_RANGE + 1e-9; degrees += SLANT_STEP) {
    const tan = Math.tan((degrees * Math.PI) / 180);
    rows.fill(0);
    for (let i = 0; i < xs.length; i++) rows[Math.round(ys[i]! - xs[i]! * tan) + width]! += 1;
    let score = 0;
    for (let r = 0; r < rows.length; r++) score += rows[r]! * rows[r]!;
    // The level reading wins a tie (no turn resamples the glyphs for nothing).
    if (score > bestScore || (score === bestScore && Math.abs(degrees) < Math.abs(best))) {
      bestScore = score;
      best = degrees;
    }
  }
  return best;
}

/** Separable running maximum over a `width` × `height` window (a grey dilation). */
export function maxFilter(source: ArrayLike<number>, w: number, h: number, kernel: { width: number; height: number }): Float32Array {
  return separable(source, w, h, kernel, Math.max, Number.NEGATIVE_INFINITY);
}

/** Separable running minimum over a `width` × `height` window (a grey erosion). */
export function minFilter(source: ArrayLike<number>, w: number, h: number, kernel: { width: number; height: number }): Float32Array {
  return separable(source, w, h, kernel, Math.min, Number.POSITIVE_INFINITY);
}

/**
 * The window is clipped at the image's edges (as if padded with `neutral`). Rows, then columns,
 * each line by van Herk / Gil–Werman: three comparisons per pixel whatever the window's size, where
 * comparing the whole window took a second of the zone search on 2 cores (decision 0076).
 */
function separable(
  source: ArrayLike<number>,
  w: number,
  h: number,
  { width, height }: { width: number; height: number },
  pick: (a: number, b: number) => number,
  neutral: number,
): Float32Array {
  const rows = new Float32Array(w * h);
  const rx = Math.floor(width / 2);
  const rowLine = new SlidingExtreme(w, rx, pick, neutral);
  for (let y = 0; y < h; y++) rowLine.run(source, y * w, 1, rows);
  const out = new Float32Array(w * h);
  const ry = Math.floor(height / 2);
  const columnLine = new SlidingExtreme(h, ry, pick, neutral);
  for (let x = 0; x < w; x++) columnLine.run(rows, x, w, out);
  return out;
}

/** The extreme over [i − r, i + r] of each value of a line of `n`, with its buffers kept for the next line. */
class SlidingExtreme {
  private readonly span: number;
  private readonly padded: Float32Array;
  /** The extreme from the start of each block of `span` to here, and from here to the block's end. */
  private readonly fromStart: Float32Array;
  private readonly toEnd: Float32Array;

  constructor(
    private readonly n: number,
    private readonly r: number,
    private readonly pick: (a: number, b: number) => number,
    neutral: number,
  ) {
    this.span = 2 * r + 1;
    this.padded = new Float32Array(n + 2 * r).fill(neutral);
    this.fromStart = new Float32Array(n + 2 * r);
    this.toEnd = new Float32Array(n + 2 * r);
  }

  /** Reads the line at `offset`, every `stride`, from `source` and writes its extremes in place in `out`. */
  run(source: ArrayLike<number>, offset: number, stride: number, out: Float32Array): void {
    const { n, r, span, padded, fromStart, toEnd, pick } = this;
    for (let i = 0; i < n; i++) padded[i + r] = source[offset + i * stride]!;
    const m = padded.length;
    for (let block = 0; block < m; block += span) {
      const end = Math.min(m, block + span) - 1;
      fromStart[block] = padded[block]!;
      for (let j = block + 1; j <= end; j++) fromStart[j] = pick(fromStart[j - 1]!, padded[j]!);
      toEnd[end] = padded[end]!;
      for (let j = end - 1; j >= block; j--) toEnd[j] = pick(toEnd[j + 1]!, padded[j]!);
    }
    // The window [i − r, i + r] is padded[i .. i + span − 1]: the end of one block and the start of the next.
    for (let i = 0; i < n; i++) out[offset + i * stride] = pick(toEnd[i]!, fromStart[i + span - 1]!);
  }
}

/** |Sobel x|: strong on the vertical strokes of a line of characters, weak on a smooth edge across it. */
function horizontalGradient(source: Float32Array, w: number, h: number): Float32Array {
  const out = new Float32Array(w * h);
  for (let y = 1; y < h - 1; y++) {
    for (let x = 1; x < w - 1; x++) {
      const at = (dx: number, dy: number) => source[(y + dy) * w + x + dx]!;
      out[y * w + x] = Math.abs(at(1, -1) + 2 * at(1, 0) + at(1, 1) - at(-1, -1) - 2 * at(-1, 0) - at(-1, 1));
    }
  }
  return out;
}

function normalised(source: Float32Array): Float32Array {
  let low = Number.POSITIVE_INFINITY;
  let high = Number.NEGATIVE_INFINITY;
  for (const value of source) {
    if (value < low) low = value;
    if (value > high) high = value;
  }
  const span = high - low || 1;
  return source.map((value) => (255 * (value - low)) / span);
}

/** Otsu's threshold of values in 0–255. */
export function otsu(values: ArrayLike<number>): number {
  const histogram = new Array<number>(256).fill(0);
  for (let i = 0; i < values.length; i++) histogram[Math.min(255, Math.max(0, Math.round(values[i]!)))]! += 1;
  const total = values.length;
  let sum = 0;
  for (let t = 0; t < 256; t++) sum += t * histogram[t]!;
  let below = 0;
  let sumBelow = 0;
  let best = 0;
  let bestVariance = -1;
  for (let t = 0; t < 256; t++) {
    below += histogram[t]!;
    if (below === 0) continue;
    const above = total - below;
    if (above === 0) break;
    sumBelow += t * histogram[t]!;
    const meanBelow = sumBelow / below;
    const meanAbove = (sum - sumBelow) / above;
    const variance = below * above * (meanBelow - meanAbove) ** 2;
    if (variance > bestVariance) {
      bestVariance = variance;
      best = t;
    }
  }
  return best;
}

/** 4-connected blocks of non-zero pixels, with their boxes and orientation. */
function components(binary: Float32Array, w: number, h: number): Component[] {
  const label = new Int32Array(w * h).fill(-1);
  const found: Component[] = [];
  const stack: number[] = [];
  for (let start = 0; start < binary.length; start++) {
    if (binary[start] === 0 || label[start] !== -1) continue;
    label[start] = found.length;
    stack.push(start);
    let n = 0;
    let sx = 0;
    let sy = 0;
    let sxx = 0;
    let syy = 0;
    let sxy = 0;
    let minX = w;
    let minY = h;
    let maxX = 0;
    let maxY = 0;
    while (stack.length > 0) {
      const at = stack.pop()!;
      const x = at % w;
      const y = (at - x) / w;
      n++;
      sx += x;
      sy += y;
      sxx += x * x;
      syy += y * y;
      sxy += x * y;
      minX = Math.min(minX, x);
      maxX = Math.max(maxX, x);
      minY = Math.min(minY, y);
      maxY = Math.max(maxY, y);
      for (const next of [x > 0 ? at - 1 : -1, x < w - 1 ? at + 1 : -1, y > 0 ? at - w : -1, y < h - 1 ? at + w : -1]) {
        if (next >= 0 && binary[next] !== 0 && label[next] === -1) {
          label[next] = found.length;
          stack.push(next);
        }
      }
    }
    const mx = sx / n;
    const my = sy / n;
    const angle = 0.5 * Math.atan2(2 * (sxy / n - mx * my), sxx / n - mx * mx - (syy / n - my * my));
    found.push({ box: { left: minX, top: minY, width: maxX - minX + 1, height: maxY - minY + 1 }, angle });
  }
  return found;
}

/**
 * How far down the page `next` sits from where `run`'s line, carried on along its slant, would
 * reach it: the pieces of a slanted line cut apart by a wide gap no longer share a row (issue 20's
 * harder set, development seed 4005 `0118`: a visa's zone slanting about 2.5° under glare that
 * pales a third of its width).
 */
function slantDrift(run: Component, next: Component): number {
  const angle = (run.angle * run.box.width + next.angle * next.box.width) / (run.box.width + next.box.width);
  const across = next.box.left + next.box.width / 2 - (run.box.left + run.box.width / 2);
  return Math.tan(angle) * across;
}

/**
 * Pieces further apart than this many line heights are not one line cut apart. Ten, not five: a
 * glare spot pales a stretch of fourteen characters or more, and the pieces of a line that still
 * share a row along its slant are the line's (decision 0107).
 */
const RUN_GAP_HEIGHTS = 10;
/** Pieces of one line are about as tall as each other: a block of several lines is not one of them. */
const RUN_HEIGHT_RATIO = 2.5;
/**
 * The closed blocks of a zone cut in two (locateMrzBands) are each the whole zone's height: closer
 * alike than a line's pieces, and nearer each other, since a closed block holds the clutter the
 * closing joined to it.
 */
const CLOSED_GAP_HEIGHTS = 1;
const CLOSED_HEIGHT_RATIO = 1.5;

/**
 * The lines of text that glare or shade cut into pieces, each joined again: pieces on one row (each
 * overlapping the other's height by half the shorter, the run carried on along its slant,
 * slantDrift), at most `gapHeights` line heights apart (RUN_GAP_HEIGHTS).
 * Only lines of two pieces or more are returned. The pieces of a cut MRZ line are each too narrow
 * to be a zone, and the closing, which would join them, also joins the zone to the clutter around
 * it (issue 20's harder set, development seed 20 `0116-td1-combined.jpg`: a card whose three
 * lines were each cut by glare at the same place).
 */
export function joinedRuns(blocks: readonly Component[], gapHeights = RUN_GAP_HEIGHTS, heightRatio = RUN_HEIGHT_RATIO): Component[] {
  const byLeft = [...blocks].sort((a, b) => a.box.left - b.box.left);
  const used = new Set<Component>();
  const runs: Component[] = [];
  for (const first of byLeft) {
    if (used.has(first)) continue;
    let run: Component = { box: { ...first.box }, angle: first.angle };
    let pieces = 1;
    for (const next of byLeft) {
      if (next === first || used.has(next)) continue;
      const gap = next.box.left - (run.box.left + run.box.width);
      const drift = slantDrift(run, next);
      const overlap = Math.min(run.box.top + run.box.height, next.box.top + next.box.height - drift) - Math.max(run.box.top, next.box.top - drift);
      const [shorter, taller] = [Math.min(first.box.height, next.box.height), Math.max(first.box.height, next.box.height)];
      if (gap < 0 || gap > gapHeights * taller || overlap < shorter / 2 || taller > heightRatio * shorter) continue;
      used.add(next);
      const top = Math.min(run.box.top, next.box.top);
      const bottom = Math.max(run.box.top + run.box.height, next.box.top + next.box.height);
      const width = next.box.left + next.box.width - run.box.left;
      // The slant of the joined line: its pieces' slants weighted by their widths.
      const angle = (run.angle * run.box.width + next.angle * next.box.width) / (run.box.width + next.box.width);
      run = { box: { left: run.box.left, top, width, height: bottom - top }, angle };
      pieces++;
    }
    if (pieces > 1) runs.push(run);
  }
  return runs;
}
