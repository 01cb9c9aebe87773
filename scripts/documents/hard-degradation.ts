/**
 * The harder synthetic set of issue 20 (Deliver 5): a data page photographed like a phone does it
 * badly. Each image gets one degradation kind on top of a common base (a page on a table, a small
 * tilt, blur, noise, JPEG quality 40–70), so the accuracy run can say which kind costs what:
 * - perspective: the page shot at an angle (a keystone of 10–25 % plus corner jitter);
 * - clutter: a busy background (papers, objects, printed text) with the page filling 45–65 % of the frame;
 * - glare: one or two bright spots on the page;
 * - shadow: a soft shadow across part of the photo;
 * - exif_rotation: the pixels stored turned by 90° with an EXIF Orientation tag that turns them back;
 * - low_resolution: MRZ glyphs 8–12 px high;
 * - combined: all of the above at once (glyphs 10–14 px).
 * sharp draws, resizes, composites and encodes; only the perspective warp (sharp has none) is done
 * here on raw pixels, by a homography with bilinear sampling. Every document is fictional and the
 * plan is seeded, so a run is reproducible.
 */
import sharp, { type OverlayOptions } from 'sharp';
import { mrzFontSize, OCR_B_GLYPH_PER_EM, pageSize, type SyntheticFormat } from './synthetic-documents';

export const HARD_KINDS = ['baseline', 'perspective', 'clutter', 'glare', 'shadow', 'exif_rotation', 'low_resolution', 'combined'] as const;
export type HardKind = (typeof HARD_KINDS)[number];

/** The MRZ layouts of the hard set, with the document type a user would choose for each. */
export const HARD_LAYOUTS = [
  { format: 'TD3', documentType: 'passport' },
  { format: 'TD1', documentType: 'id_card' },
  { format: 'TD2', documentType: 'id_card' },
  { format: 'MRVA', documentType: 'passport' },
  { format: 'MRVB', documentType: 'passport' },
] as const satisfies readonly { format: SyntheticFormat; documentType: string }[];

/**
 * Item i of the hard set: the layout cycles fastest and the kind every 5 items, so 40 items hold each
 * layout × kind once; one item in ten has its date-of-birth check digit altered, at a layout and a kind
 * that move from one ten to the next.
 */
export function hardItem(index: number): { format: SyntheticFormat; documentType: string; kind: HardKind; altered: boolean } {
  const layout = HARD_LAYOUTS[index % HARD_LAYOUTS.length]!;
  return {
    format: layout.format,
    documentType: layout.documentType,
    kind: HARD_KINDS[Math.floor(index / HARD_LAYOUTS.length) % HARD_KINDS.length]!,
    altered: index % 10 === Math.floor(index / 10) % 10,
  };
}

export interface Point {
  x: number;
  y: number;
}

/** Which edge of the page is farther from the camera, and how much shorter it is than the near one. */
export interface Keystone {
  farEdge: 'top' | 'bottom' | 'left' | 'right';
  /** Share of the edge's length lost (0.1–0.25). */
  amount: number;
}

/** A glare spot: centre as a share of the page's width and height, radius as a share of its width. */
export interface GlareSpot {
  x: number;
  y: number;
  radius: number;
  /** Peak opacity of the white. */
  strength: number;
}

/** A soft shadow over the part of the photo beyond a line through (x, y) of the photo (shares) at angle degrees. */
export interface Shadow {
  x: number;
  y: number;
  angleDegrees: number;
  /** Share of the light removed. */
  darkness: number;
  /** Blur of the edge, as a share of the photo's width. */
  softness: number;
}

export interface HardDegradation {
  kind: HardKind;
  /** Height of an MRZ glyph in the photo, in pixels (before the engine's own resizing). */
  glyphHeight: number;
  /** Share of the photo's width the page spans. */
  fill: number;
  rotateDegrees: number;
  keystone: Keystone | null;
  /** Each corner moved by up to this share of the page width (the hand is never steady). */
  jitter: number;
  /** Where the page sits in the room left around it (0: left/top, 1: right/bottom). */
  position: Point;
  background: 'table' | 'clutter';
  glare: GlareSpot[];
  shadow: Shadow | null;
  /** EXIF Orientation written with the pixels turned to match: 1 upright, 6 or 8 turned by 90°. */
  orientation: 1 | 6 | 8;
  blurSigma: number;
  noise: number;
  jpegQuality: number;
}

const between = (random: () => number, low: number, high: number) => low + random() * (high - low);

/** The degradation plan of one image: pure and seeded (the drawing is in renderHardPhoto). */
export function hardDegradation(kind: HardKind, random: () => number): HardDegradation {
  const on = (k: HardKind) => kind === k || kind === 'combined';
  const glyphHeight = kind === 'low_resolution' ? between(random, 8, 12) : kind === 'combined' ? between(random, 10, 14) : between(random, 14, 22);
  const fill = on('clutter') ? between(random, 0.45, 0.65) : between(random, 0.7, 0.85);
  const rotateDegrees = between(random, -2.5, 2.5);
  const keystone: Keystone | null = on('perspective')
    ? { farEdge: (['top', 'bottom', 'left', 'right'] as const)[Math.floor(random() * 4)]!, amount: between(random, 0.1, 0.25) }
    : null;
  const jitter = on('perspective') ? between(random, 0.01, 0.03) : 0;
  const position = { x: random(), y: random() };
  const glare = on('glare')
    ? Array.from({ length: 1 + Math.floor(random() * 2) }, () => ({
        x: between(random, 0.1, 0.9),
        y: between(random, 0.15, 0.95),
        radius: between(random, 0.06, 0.16),
        strength: between(random, 0.7, 0.95),
      }))
    : [];
  const shadow = on('shadow')
    ? {
        x: between(random, 0.3, 0.7),
        y: between(random, 0.3, 0.7),
        angleDegrees: random() * 360,
        darkness: between(random, 0.3, 0.55),
        softness: between(random, 0.01, 0.04),
      }
    : null;
  const orientation = on('exif_rotation') ? (random() < 0.5 ? 6 : 8) : 1;
  return {
    kind,
    glyphHeight,
    fill,
    rotateDegrees,
    keystone,
    jitter,
    position,
    background: on('clutter') ? 'clutter' : 'table',
    glare,
    shadow,
    orientation,
    blurSigma: between(random, 0, 0.9),
    noise: between(random, 0, 10),
    jpegQuality: 40 + Math.floor(random() * 31),
  };
}

/** The photo's geometry: the page scale, the photo size and the page's corners in it (top-left, top-right, bottom-right, bottom-left). */
export interface Placement {
  pageScale: number;
  width: number;
  height: number;
  corners: [Point, Point, Point, Point];
  /** The MRZ glyph height the photo really has (the photo is kept within the engine's 1600 px). */
  glyphHeight: number;
}

/** The engine reads documents at most 1600 px on a side (engine-worker.ts); a larger photo would be shrunk there. */
export const MAX_PHOTO_SIDE = 1600;

export function placePage(plan: HardDegradation, page: { width: number; height: number; glyphHeight: number }, random: () => number): Placement {
  let pageScale = plan.glyphHeight / page.glyphHeight;
  let width = Math.round((page.width * pageScale) / plan.fill);
  if (width > MAX_PHOTO_SIDE) {
    pageScale *= MAX_PHOTO_SIDE / width;
    width = MAX_PHOTO_SIDE;
  }
  const w = page.width * pageScale;
  const h = page.height * pageScale;
  // A 4:3 photo, taller when the page would not fit with a margin.
  const height = Math.max(Math.round((width * 3) / 4), Math.round(h / 0.8));
  // The page centred on the origin, its far edge shortened and the depth foreshortened by half as much.
  let corners: Point[] = [
    { x: -w / 2, y: -h / 2 },
    { x: w / 2, y: -h / 2 },
    { x: w / 2, y: h / 2 },
    { x: -w / 2, y: h / 2 },
  ];
  const k = plan.keystone;
  if (k) {
    const squeeze = (p: Point, far: boolean, horizontal: boolean): Point =>
      horizontal ? { x: far ? p.x * (1 - k.amount) : p.x, y: p.y * (1 - k.amount / 2) } : { x: p.x * (1 - k.amount / 2), y: far ? p.y * (1 - k.amount) : p.y };
    corners = corners.map((p) => {
      if (k.farEdge === 'top') return squeeze(p, p.y < 0, true);
      if (k.farEdge === 'bottom') return squeeze(p, p.y > 0, true);
      if (k.farEdge === 'left') return squeeze(p, p.x < 0, false);
      return squeeze(p, p.x > 0, false);
    });
  }
  const angle = (plan.rotateDegrees * Math.PI) / 180;
  corners = corners.map((p) => {
    const jx = (random() - 0.5) * 2 * plan.jitter * w;
    const jy = (random() - 0.5) * 2 * plan.jitter * w;
    return { x: p.x * Math.cos(angle) - p.y * Math.sin(angle) + jx, y: p.x * Math.sin(angle) + p.y * Math.cos(angle) + jy };
  });
  // Placed where plan.position says within the room the photo leaves, 2 % from every edge.
  const xs = corners.map((p) => p.x);
  const ys = corners.map((p) => p.y);
  const [minX, maxX, minY, maxY] = [Math.min(...xs), Math.max(...xs), Math.min(...ys), Math.max(...ys)];
  const margin = 0.02 * width;
  const roomX = Math.max(0, width - 2 * margin - (maxX - minX));
  const roomY = Math.max(0, height - 2 * margin - (maxY - minY));
  const dx = margin + plan.position.x * roomX - minX;
  const dy = margin + plan.position.y * roomY - minY;
  const placed = corners.map((p) => ({ x: p.x + dx, y: p.y + dy })) as Placement['corners'];
  return { pageScale, width, height, corners: placed, glyphHeight: page.glyphHeight * pageScale };
}

/** The homography (row-major 3 × 3, h[8] = 1) taking the four points `from` to the four points `to`. */
export function homography(from: readonly Point[], to: readonly Point[]): number[] {
  // Two equations per correspondence in the eight unknowns, solved by Gaussian elimination.
  const rows: number[][] = [];
  for (let i = 0; i < 4; i++) {
    const { x, y } = from[i]!;
    const { x: u, y: v } = to[i]!;
    rows.push([x, y, 1, 0, 0, 0, -u * x, -u * y, u]);
    rows.push([0, 0, 0, x, y, 1, -v * x, -v * y, v]);
  }
  for (let col = 0; col < 8; col++) {
    let pivot = col;
    for (let r = col + 1; r < 8; r++) if (Math.abs(rows[r]![col]!) > Math.abs(rows[pivot]![col]!)) pivot = r;
    [rows[col], rows[pivot]] = [rows[pivot]!, rows[col]!];
    const p = rows[col]!;
    if (Math.abs(p[col]!) < 1e-12) throw new Error('homography: degenerate corners');
    for (let r = 0; r < 8; r++) {
      if (r === col) continue;
      const f = rows[r]![col]! / p[col]!;
      for (let c = col; c < 9; c++) rows[r]![c]! -= f * p[c]!;
    }
  }
  return [...rows.map((r, i) => r[8]! / r[i]!), 1];
}

export function project(h: readonly number[], p: Point): Point {
  const w = h[6]! * p.x + h[7]! * p.y + h[8]!;
  return { x: (h[0]! * p.x + h[1]! * p.y + h[2]!) / w, y: (h[3]! * p.x + h[4]! * p.y + h[5]!) / w };
}

/**
 * Draws an RGB page into an RGB photo (both raw, 3 channels) so that its corners land on `corners`:
 * for every photo pixel the page point it shows (the inverse homography), sampled bilinearly, with
 * the page's edge anti-aliased over a pixel.
 */
export function warpInto(
  page: { data: Uint8Array; width: number; height: number },
  photo: { data: Uint8Array; width: number; height: number },
  corners: readonly Point[],
) {
  const { width: pw, height: ph, data: src } = page;
  const toPage = homography(corners, [
    { x: 0, y: 0 },
    { x: pw, y: 0 },
    { x: pw, y: ph },
    { x: 0, y: ph },
  ]);
  const xs = corners.map((p) => p.x);
  const ys = corners.map((p) => p.y);
  const x0 = Math.max(0, Math.floor(Math.min(...xs)) - 1);
  const x1 = Math.min(photo.width - 1, Math.ceil(Math.max(...xs)) + 1);
  const y0 = Math.max(0, Math.floor(Math.min(...ys)) - 1);
  const y1 = Math.min(photo.height - 1, Math.ceil(Math.max(...ys)) + 1);
  const out = photo.data;
  for (let y = y0; y <= y1; y++) {
    for (let x = x0; x <= x1; x++) {
      const { x: u, y: v } = project(toPage, { x: x + 0.5, y: y + 0.5 });
      const coverage = Math.min(1, Math.max(0, Math.min(u, v, pw - u, ph - v) + 0.5));
      if (coverage <= 0) continue;
      // Pixel centres are at +0.5; clamp to the page so the edge repeats its last pixel.
      const fx = Math.min(pw - 1, Math.max(0, u - 0.5));
      const fy = Math.min(ph - 1, Math.max(0, v - 0.5));
      const ix = Math.min(pw - 2, Math.floor(fx));
      const iy = Math.min(ph - 2, Math.floor(fy));
      const ax = fx - ix;
      const ay = fy - iy;
      const o = (y * photo.width + x) * 3;
      for (let c = 0; c < 3; c++) {
        const i = (iy * pw + ix) * 3 + c;
        const top = src[i]! * (1 - ax) + src[i + 3]! * ax;
        const bottom = src[i + pw * 3]! * (1 - ax) + src[i + pw * 3 + 3]! * ax;
        const value = top * (1 - ay) + bottom * ay;
        out[o + c] = Math.round(out[o + c]! * (1 - coverage) + value * coverage);
      }
    }
  }
}

const WORDS = ['RECEIPT', 'TOTAL', 'INVOICE', 'COFFEE', 'TICKET', 'BOARDING', 'GATE', 'SEAT', 'VISA', 'CARD', 'NOTES', 'MEETING', 'TAXI', '12.50', '2026'];

/** A table top, and with `clutter` papers, a phone, a mug and printed text lying on it (SVG). */
function backgroundSvg(width: number, height: number, clutter: boolean, random: () => number): string {
  const shade = Math.floor(between(random, 50, 120));
  const parts = [
    `<defs><linearGradient id="t" x1="0" y1="0" x2="1" y2="1"><stop offset="0" stop-color="rgb(${shade + 30},${shade + 15},${shade})"/><stop offset="1" stop-color="rgb(${shade - 20},${shade - 30},${shade - 35})"/></linearGradient></defs>`,
    `<rect width="100%" height="100%" fill="url(#t)"/>`,
  ];
  if (clutter) {
    // Wood grain, then objects, then text, everywhere (the page is drawn over them afterwards).
    for (let i = 0; i < 25; i++) {
      const y = random() * height;
      parts.push(
        `<path d="M0 ${y} Q ${width / 2} ${y + between(random, -40, 40)} ${width} ${y + between(random, -20, 20)}" stroke="rgba(0,0,0,0.12)" stroke-width="${between(random, 1, 5)}" fill="none"/>`,
      );
    }
    for (let i = 0; i < 7; i++) {
      const [x, y] = [random() * width, random() * height];
      const [w, h] = [between(random, 0.15, 0.4) * width, between(random, 0.15, 0.4) * height];
      const grey = Math.floor(between(random, 200, 250));
      parts.push(
        `<g transform="rotate(${between(random, -30, 30)} ${x} ${y})"><rect x="${x}" y="${y}" width="${w}" height="${h}" fill="rgb(${grey},${grey - 5},${grey - 15})"/>` +
          Array.from(
            { length: 3 + Math.floor(random() * 6) },
            (_, line) =>
              `<text x="${x + 10}" y="${y + 24 + line * 22}" font-family="DejaVu Sans" font-size="${Math.floor(between(random, 12, 20))}" fill="#333">${Array.from({ length: 2 + Math.floor(random() * 3) }, () => WORDS[Math.floor(random() * WORDS.length)]).join(' ')}</text>`,
          ).join('') +
          '</g>',
      );
    }
    const [px, py] = [random() * width, random() * height];
    parts.push(
      `<rect x="${px}" y="${py}" width="${0.12 * width}" height="${0.24 * width}" rx="14" fill="#111" transform="rotate(${between(random, -40, 40)} ${px} ${py})"/>`,
    );
    parts.push(`<circle cx="${random() * width}" cy="${random() * height}" r="${0.07 * width}" fill="#a33" stroke="#eee" stroke-width="8"/>`);
    for (let i = 0; i < 12; i++)
      parts.push(
        `<line x1="${random() * width}" y1="${random() * height}" x2="${random() * width}" y2="${random() * height}" stroke="rgb(${Math.floor(random() * 255)},${Math.floor(random() * 255)},${Math.floor(random() * 255)})" stroke-width="${between(random, 2, 8)}"/>`,
      );
  }
  return `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}">${parts.join('')}</svg>`;
}

function glareSvg(width: number, height: number, spots: readonly Point[], radii: readonly number[], strengths: readonly number[]): string {
  const defs = strengths.map(
    (s, i) =>
      `<radialGradient id="g${i}"><stop offset="0" stop-color="#fff" stop-opacity="${s.toFixed(2)}"/><stop offset="0.45" stop-color="#fff" stop-opacity="${(s * 0.8).toFixed(2)}"/><stop offset="1" stop-color="#fff" stop-opacity="0"/></radialGradient>`,
  );
  const circles = spots.map((p, i) => `<ellipse cx="${p.x}" cy="${p.y}" rx="${radii[i]! * 1.4}" ry="${radii[i]}" fill="url(#g${i})"/>`);
  return `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}"><defs>${defs.join('')}</defs>${circles.join('')}</svg>`;
}

function shadowSvg(width: number, height: number, shadow: Shadow): string {
  // A half-plane: a big rectangle whose left edge passes through (x, y), turned by the angle, blurred.
  const [cx, cy] = [shadow.x * width, shadow.y * height];
  const size = 3 * Math.max(width, height);
  const grey = Math.round(255 * (1 - shadow.darkness));
  return `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}"><defs><filter id="b" x="-50%" y="-50%" width="200%" height="200%"><feGaussianBlur stdDeviation="${shadow.softness * width}"/></filter></defs><rect width="100%" height="100%" fill="#fff"/><rect x="${cx}" y="${cy - size / 2}" width="${size}" height="${size}" fill="rgb(${grey},${grey},${grey})" filter="url(#b)" transform="rotate(${shadow.angleDegrees} ${cx} ${cy})"/></svg>`;
}

/** The page's MRZ glyph height at the size renderDocument draws it. */
export function pageGlyphHeight(format: SyntheticFormat, lineLength: number): number {
  return mrzFontSize(pageSize(format).width, lineLength) * OCR_B_GLYPH_PER_EM;
}

/** The photo of a rendered page (PNG) under a plan, as a JPEG (with its EXIF Orientation when the plan turns it). */
export async function renderHardPhoto(
  pagePng: Buffer,
  format: SyntheticFormat,
  lineLength: number,
  plan: HardDegradation,
  random: () => number,
): Promise<Buffer> {
  const meta = await sharp(pagePng).metadata();
  const placement = placePage(plan, { width: meta.width!, height: meta.height!, glyphHeight: pageGlyphHeight(format, lineLength) }, random);
  const page = await sharp(pagePng)
    .resize({ width: Math.round(meta.width! * placement.pageScale) })
    .removeAlpha()
    .raw()
    .toBuffer({ resolveWithObject: true });
  const { width, height } = placement;
  const photo = await sharp(Buffer.from(backgroundSvg(width, height, plan.background === 'clutter', random)))
    .removeAlpha()
    .raw()
    .toBuffer();
  // The page was resized to whole pixels: its corners scale with it.
  warpInto({ data: page.data, width: page.info.width, height: page.info.height }, { data: photo, width, height }, placement.corners);

  const overlays: OverlayOptions[] = [];
  if (plan.glare.length) {
    const toPhoto = homography(
      [
        { x: 0, y: 0 },
        { x: 1, y: 0 },
        { x: 1, y: 1 },
        { x: 0, y: 1 },
      ],
      placement.corners,
    );
    const pageWidth = Math.hypot(placement.corners[1].x - placement.corners[0].x, placement.corners[1].y - placement.corners[0].y);
    overlays.push({
      input: Buffer.from(
        glareSvg(
          width,
          height,
          plan.glare.map((s) => project(toPhoto, s)),
          plan.glare.map((s) => s.radius * pageWidth),
          plan.glare.map((s) => s.strength),
        ),
      ),
    });
  }
  if (plan.shadow) overlays.push({ input: Buffer.from(shadowSvg(width, height, plan.shadow)), blend: 'multiply' });
  let image = sharp(photo, { raw: { width, height, channels: 3 } });
  if (overlays.length) image = sharp(await image.composite(overlays).png().toBuffer());
  if (plan.blurSigma >= 0.3) image = image.blur(plan.blurSigma);
  const raw = await image.removeAlpha().raw().toBuffer({ resolveWithObject: true });
  if (plan.noise > 0) {
    const data = raw.data;
    for (let i = 0; i < data.length; i++) data[i] = Math.max(0, Math.min(255, data[i]! + (random() - 0.5) * 2 * plan.noise));
  }
  // Orientation 6 means "turn 90° clockwise to show": the stored pixels are the upright photo turned
  // 90° anticlockwise (270°); 8 is the reverse.
  const turn = plan.orientation === 6 ? 270 : plan.orientation === 8 ? 90 : 0;
  let out = sharp(raw.data, { raw: { width: raw.info.width, height: raw.info.height, channels: 3 } });
  if (turn) out = sharp(await out.png().toBuffer()).rotate(turn);
  out = out.jpeg({ quality: plan.jpegQuality });
  if (plan.orientation !== 1) out = out.withMetadata({ orientation: plan.orientation });
  return out.toBuffer();
}
