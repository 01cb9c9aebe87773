import { describe, expect, test } from 'bun:test';
import sharp from 'sharp';
import {
  HARD_KINDS,
  HARD_LAYOUTS,
  hardDegradation,
  hardItem,
  homography,
  MAX_PHOTO_SIDE,
  placePage,
  project,
  renderHardPhoto,
  warpInto,
} from './hard-degradation';
import { seededRandom } from './synthetic-documents';

describe('hardItem', () => {
  test('40 items hold every layout × kind once, and one in ten is altered across layouts', () => {
    const items = Array.from({ length: 40 }, (_, i) => hardItem(i));
    expect(new Set(items.map((it) => `${it.format}/${it.kind}`)).size).toBe(HARD_LAYOUTS.length * HARD_KINDS.length);
    const altered = Array.from({ length: 100 }, (_, i) => hardItem(i)).filter((it) => it.altered);
    expect(altered).toHaveLength(10);
    expect(new Set(altered.map((it) => it.format)).size).toBe(HARD_LAYOUTS.length);
  });
});

describe('hardDegradation', () => {
  test('each kind switches on only its own degradation, within the issue-20 ranges', () => {
    const random = seededRandom(7);
    for (let round = 0; round < 20; round++) {
      for (const kind of HARD_KINDS) {
        const plan = hardDegradation(kind, random);
        const on = (k: string) => kind === k || kind === 'combined';
        expect(plan.keystone !== null).toBe(on('perspective'));
        expect(plan.background === 'clutter').toBe(on('clutter'));
        expect(plan.glare.length > 0).toBe(on('glare'));
        expect(plan.shadow !== null).toBe(on('shadow'));
        expect(plan.orientation !== 1).toBe(on('exif_rotation'));
        expect(plan.jpegQuality).toBeGreaterThanOrEqual(40);
        expect(plan.jpegQuality).toBeLessThanOrEqual(70);
        if (kind === 'low_resolution') {
          expect(plan.glyphHeight).toBeGreaterThanOrEqual(8);
          expect(plan.glyphHeight).toBeLessThanOrEqual(12);
        }
      }
    }
  });

  test('the same seed gives the same plan', () => {
    expect(hardDegradation('combined', seededRandom(3))).toEqual(hardDegradation('combined', seededRandom(3)));
  });
});

describe('placePage', () => {
  test('the page lies inside the photo, at the planned glyph height, within the engine size limit', () => {
    const random = seededRandom(11);
    const page = { width: 1250, height: 880, glyphHeight: 28 };
    for (let round = 0; round < 30; round++) {
      for (const kind of HARD_KINDS) {
        const plan = hardDegradation(kind, random);
        const placement = placePage(plan, page, random);
        expect(Math.max(placement.width, placement.height)).toBeLessThanOrEqual(MAX_PHOTO_SIDE);
        expect(placement.width).toBeLessThanOrEqual(MAX_PHOTO_SIDE);
        for (const p of placement.corners) {
          expect(p.x).toBeGreaterThanOrEqual(0);
          expect(p.x).toBeLessThanOrEqual(placement.width);
          expect(p.y).toBeGreaterThanOrEqual(0);
          expect(p.y).toBeLessThanOrEqual(placement.height);
        }
        if (placement.width < MAX_PHOTO_SIDE) expect(placement.glyphHeight).toBeCloseTo(plan.glyphHeight, 6);
        else expect(placement.glyphHeight).toBeLessThan(plan.glyphHeight);
      }
    }
  });

  test('a keystone makes the far edge shorter than the near one', () => {
    const plan = { ...hardDegradation('perspective', seededRandom(1)), keystone: { farEdge: 'top' as const, amount: 0.2 }, jitter: 0, rotateDegrees: 0 };
    const [tl, tr, br, bl] = placePage(plan, { width: 1000, height: 600, glyphHeight: 28 }, seededRandom(1)).corners;
    expect((tr.x - tl.x) / (br.x - bl.x)).toBeCloseTo(0.8, 6);
  });
});

describe('homography', () => {
  test('maps the four corners onto the four targets, and a straight line stays straight', () => {
    const from = [
      { x: 0, y: 0 },
      { x: 100, y: 0 },
      { x: 100, y: 50 },
      { x: 0, y: 50 },
    ];
    const to = [
      { x: 20, y: 10 },
      { x: 90, y: 18 },
      { x: 110, y: 70 },
      { x: 5, y: 60 },
    ];
    const h = homography(from, to);
    for (let i = 0; i < 4; i++) {
      const p = project(h, from[i]!);
      expect(p.x).toBeCloseTo(to[i]!.x, 6);
      expect(p.y).toBeCloseTo(to[i]!.y, 6);
    }
    const [a, b, c] = [project(h, { x: 0, y: 25 }), project(h, { x: 50, y: 25 }), project(h, { x: 100, y: 25 })];
    expect((b.x - a.x) * (c.y - a.y) - (b.y - a.y) * (c.x - a.x)).toBeCloseTo(0, 6);
  });
});

describe('warpInto', () => {
  test('an unturned, unscaled placement copies the page pixel for pixel', () => {
    const page = { width: 4, height: 3, data: Uint8Array.from({ length: 36 }, (_, i) => (i * 7) % 256) };
    const photo = { width: 8, height: 6, data: new Uint8Array(8 * 6 * 3) };
    warpInto(page, photo, [
      { x: 2, y: 1 },
      { x: 6, y: 1 },
      { x: 6, y: 4 },
      { x: 2, y: 4 },
    ]);
    for (let y = 0; y < 3; y++)
      for (let x = 0; x < 4; x++) for (let c = 0; c < 3; c++) expect(photo.data[((y + 1) * 8 + x + 2) * 3 + c]).toBe(page.data[(y * 4 + x) * 3 + c]!);
    expect(photo.data[0]).toBe(0);
  });
});

describe('renderHardPhoto', () => {
  test('an EXIF-rotated photo stores turned pixels with an Orientation tag that turns them upright', async () => {
    const page = await sharp({ create: { width: 500, height: 300, channels: 3, background: '#eee' } })
      .png()
      .toBuffer();
    const plan = { ...hardDegradation('exif_rotation', seededRandom(5)), orientation: 6 as const, blurSigma: 0, noise: 0 };
    const jpeg = await renderHardPhoto(page, 'TD1', 30, plan, seededRandom(5));
    const meta = await sharp(jpeg).metadata();
    expect(meta.format).toBe('jpeg');
    expect(meta.orientation).toBe(6);
    // Stored portrait, shown landscape (the 4:3 photo) once the tag is honoured.
    expect(meta.height!).toBeGreaterThan(meta.width!);
    const upright = await sharp(jpeg).rotate().toBuffer({ resolveWithObject: true });
    expect(upright.info.width).toBeGreaterThan(upright.info.height);
  });
});
