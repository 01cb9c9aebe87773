import { describe, expect, test } from 'bun:test';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import sharp from 'sharp';
import { decodeImage } from '../image-decoding';
import {
  type Component,
  EQUALISATIONS,
  equalisedZone,
  flatField,
  thresholded,
  locateMrzBands,
  type MrzBand,
  maxFilter,
  minFilter,
  otsu,
  stackedZones,
  textSlant,
  joinedRuns,
  zonesFromLines,
} from './mrz-band';

const fixture = (name: string) => readFileSync(join(import.meta.dir, '..', 'fixtures', name));

describe('locateMrzBands', () => {
  test("finds the passport's zone: a wide block in the lowest part of the page, about level", async () => {
    const image = await decodeImage(fixture('passport.jpg'), { maxSide: 1600 });
    const [band] = await locateMrzBands(image);
    expect(band).toBeDefined();
    expect(band!.box.top).toBeGreaterThan(image.height * 0.7);
    expect(band!.box.width).toBeGreaterThan(image.width * 0.7);
    expect(Math.abs(band!.angleDegrees)).toBeLessThan(2);
  });

  test('follows the zone on a page that fills a third of a busy frame, turned 6°: found where it is, levelled by about 6°', async () => {
    const page = await sharp(fixture('passport.jpg')).resize({ width: 700 }).rotate(6, { background: '#6b8e23' }).toBuffer();
    const { width } = await sharp(page).metadata();
    // The page pasted at the right of a larger frame, the rest a grey-green background.
    const frame = await sharp({ create: { width: 1500, height: 1000, channels: 3, background: '#6b8e23' } })
      .composite([{ input: page, left: 1500 - width! - 40, top: 150 }])
      .jpeg()
      .toBuffer();
    const image = await decodeImage(new Uint8Array(frame), { maxSide: 1600 });
    const bands = await locateMrzBands(image);
    const zone = bands.find((band) => band.box.left > 1500 - width! - 80);
    expect(zone).toBeDefined();
    expect(Math.abs(zone!.angleDegrees)).toBeGreaterThan(4);
    expect(Math.abs(zone!.angleDegrees)).toBeLessThan(8);
  });

  test('three candidates are kept: a zone below two wider lines of print is still found (issue 20 real set, the German card of 2004)', async () => {
    const print = (text: string) =>
      sharp(
        Buffer.from(
          `<svg xmlns="http://www.w3.org/2000/svg" width="1500" height="70"><text x="0" y="52" font-family="DejaVu Sans" font-size="46" fill="#222">${text}</text></svg>`,
        ),
      )
        .png()
        .toBuffer();
    // The TD2 card (799 × 571, MRZ lines at 474–556) at (400, 400) of the page, under two lines of print wider than its zone.
    const page = await sharp({ create: { width: 1600, height: 1100, channels: 3, background: '#f2f2ee' } })
      .composite([
        { input: await print('BUNDESREPUBLIK DEUTSCHLAND  PERSONALAUSWEIS  IDENTITY CARD'), left: 40, top: 40 },
        { input: await print('CARTE D IDENTITE  ANSCHRIFT  HAUPTSTRASSE 12  51147 KOELN'), left: 40, top: 200 },
        { input: fixture('id-card-td2.jpg'), left: 400, top: 400 },
      ])
      .jpeg({ quality: 90 })
      .toBuffer();
    const bands = await locateMrzBands(await decodeImage(page, { maxSide: 1600 }));
    // The two lines of print are the widest candidates; the zone is the third.
    expect(bands.slice(0, 2).map((band) => band.box.top < 300)).toEqual([true, true]);
    expect(bands.some((band) => band.box.top <= 874 && band.box.top + band.box.height >= 956 && band.box.left <= 410)).toBe(true);
  });

  test('a plain light picture has no zone', async () => {
    const blank = await sharp({ create: { width: 900, height: 600, channels: 3, background: '#f0f0f0' } })
      .jpeg()
      .toBuffer();
    expect(await locateMrzBands(await decodeImage(new Uint8Array(blank), { maxSide: 1600 }))).toEqual([]);
  });
});

describe('zonesFromLines: a zone rebuilt from its lines when the closing joined it to the clutter', () => {
  const line = (left: number, top: number, width: number, height = 10, angle = 0): Component => ({ box: { left, top, width, height }, angle });

  test.each([
    ['two lines of a passport, one under the other', [line(100, 300, 400), line(102, 318, 398)], [{ left: 100, top: 300, width: 400, height: 28 }]],
    ['three lines of an ID card', [line(50, 200, 300), line(50, 215, 302), line(51, 230, 299)], [{ left: 50, top: 200, width: 302, height: 40 }]],
    ['a line of another length is not part of the zone', [line(100, 300, 400), line(100, 318, 250)], []],
    ['lines that do not start at the same place are not one zone', [line(100, 300, 400), line(160, 318, 400)], []],
    ['lines far apart are not one zone', [line(100, 300, 400), line(100, 360, 400)], []],
    ['one line alone is not a zone', [line(100, 300, 400)], []],
  ])('%s', (_, lines, zones) => {
    expect(zonesFromLines(lines).map((zone) => zone.box)).toEqual(zones);
  });

  test("the zone's slant is its lines' slant", () => {
    const [zone] = zonesFromLines([line(100, 300, 400, 10, 0.02), line(100, 316, 400, 10, 0.04)]);
    expect(zone!.angle).toBeCloseTo(0.03, 9);
  });
});

describe('joinedRuns: the pieces of a line that glare or shade cut apart (engine 2026.12.8)', () => {
  const piece = (left: number, top: number, width: number, height = 10, angle = 0): Component => ({ box: { left, top, width, height }, angle });

  test.each([
    ['two pieces on one row, a few line heights apart', [piece(92, 506, 182, 11), piece(300, 506, 82, 8)], [{ left: 92, top: 506, width: 290, height: 11 }]],
    ['pieces further apart than ten line heights stay apart', [piece(100, 300, 180), piece(381, 300, 80)], []],
    [
      'pieces ten line heights apart are one line (engine 2026.12.20)',
      [piece(100, 300, 180), piece(380, 300, 80)],
      [{ left: 100, top: 300, width: 360, height: 10 }],
    ],
    ['pieces on different rows stay apart', [piece(100, 300, 180), piece(300, 312, 80)], []],
    ['a line beside a block of several lines stays apart', [piece(100, 300, 180), piece(300, 292, 80, 30)], []],
    ['one piece alone is no run', [piece(100, 300, 180)], []],
  ])('%s', (_, pieces, runs) => {
    expect(joinedRuns(pieces).map((run) => run.box)).toEqual(runs);
  });

  // Development seed 20 `0116-td1-combined.jpg` of the harder set: glare across the card cut each
  // of its three lines, and the pieces left of the cut (185 px) were under a quarter of the 796 px
  // page, too narrow to be a zone.
  test("a card's three lines, each cut at the same place, are its zone again", () => {
    const pieces = [
      piece(92, 506, 182, 11),
      piece(300, 506, 82, 8),
      piece(90, 522, 174, 14),
      piece(325, 521, 57, 8),
      piece(89, 540, 174, 15),
      piece(328, 536, 53, 8),
    ];
    expect(zonesFromLines(pieces).map((zone) => zone.box.width)).toEqual([185, 57]);
    expect(zonesFromLines(joinedRuns(pieces)).map((zone) => zone.box)).toEqual([{ left: 89, top: 506, width: 293, height: 49 }]);
  });

  // Development seed 4005 `0118-mrva-combined.jpg` (decision 0107): a visa's zone slanting about
  // 2.5° (0.04 rad), glare paling 111 px (fourteen characters) of both lines. The right piece of the
  // first line sits 9 px lower than its left piece, level with the left piece of the second line.
  test("a slanting zone's pieces far apart are joined along their slant, line by line", () => {
    const pieces = [piece(113, 409, 81, 9, 0.04), piece(115, 422, 77, 10, 0.049), piece(305, 418, 160, 12, 0.039), piece(296, 430, 167, 13, 0.043)];
    expect(zonesFromLines(joinedRuns(pieces)).map((zone) => zone.box)).toEqual([{ left: 113, top: 409, width: 352, height: 34 }]);
    const level = pieces.map((one) => ({ ...one, angle: 0 }));
    expect(zonesFromLines(joinedRuns(level))).toEqual([]);
  });
});

describe('the filters it is made of', () => {
  test('min and max over a 3 × 1 window', () => {
    const row = [0, 9, 0, 0, 5];
    expect([...maxFilter(row, 5, 1, { width: 3, height: 1 })]).toEqual([9, 9, 9, 5, 5]);
    expect([...minFilter(row, 5, 1, { width: 3, height: 1 })]).toEqual([0, 0, 0, 0, 0]);
  });
  test('min and max over rectangles of every shape agree with comparing the whole window, edges included', () => {
    const bruteForce = (source: ArrayLike<number>, w: number, h: number, kw: number, kh: number, pick: (...values: number[]) => number) => {
      const [rx, ry] = [Math.floor(kw / 2), Math.floor(kh / 2)];
      return Float32Array.from({ length: w * h }, (_, i) => {
        const [x, y] = [i % w, Math.floor(i / w)];
        const window: number[] = [];
        for (let yy = Math.max(0, y - ry); yy <= Math.min(h - 1, y + ry); yy++) {
          for (let xx = Math.max(0, x - rx); xx <= Math.min(w - 1, x + rx); xx++) window.push(source[yy * w + xx]!);
        }
        return pick(...window);
      });
    };
    let seed = 7;
    const random = () => {
      seed = (seed * 16807) % 2147483647;
      return seed % 256;
    };
    for (const [w, h] of [
      [37, 23],
      [5, 1],
      [1, 9],
    ] as const) {
      const grey = Uint8Array.from({ length: w * h }, random);
      for (const [kw, kh] of [
        [1, 1],
        [3, 1],
        [15, 5],
        [21, 21],
        [4, 2],
        [80, 3],
      ] as const) {
        expect(maxFilter(grey, w, h, { width: kw, height: kh })).toEqual(bruteForce(grey, w, h, kw, kh, Math.max));
        expect(minFilter(grey, w, h, { width: kw, height: kh })).toEqual(bruteForce(grey, w, h, kw, kh, Math.min));
      }
    }
  });
  test("Otsu's threshold parts two groups of values", () => {
    const t = otsu([10, 12, 11, 10, 200, 210, 205]);
    expect(t).toBeGreaterThanOrEqual(12);
    expect(t).toBeLessThan(200);
  });
});

describe('textSlant: the slant of text lines by projection profile', () => {
  /** Two lines of 40 glyph-like strokes (3 × 14 px bars) on a light page, the lines turned `degrees`; 600 × 200 grey. */
  async function strokes(degrees: number, background = '#e8e8e8'): Promise<Uint8Array> {
    const bars = [0, 1]
      .flatMap((line) => Array.from({ length: 40 }, (_, i) => `<rect x="${60 + i * 12}" y="${80 + line * 24}" width="3" height="14" fill="#202020"/>`))
      .join('');
    const svg = `<svg xmlns="http://www.w3.org/2000/svg" width="600" height="200"><rect width="600" height="200" fill="${background}"/><g transform="rotate(${degrees} 300 100)">${bars}</g></svg>`;
    const { data } = await sharp(Buffer.from(svg)).greyscale().raw().toBuffer({ resolveWithObject: true });
    return new Uint8Array(data.buffer, data.byteOffset, 600 * 200);
  }

  test.each([0, 4, -6, 9])('lines turned %d°: found within half a degree', async (degrees) => {
    expect(Math.abs(textSlant(await strokes(degrees), 600, 200)! - degrees)).toBeLessThanOrEqual(0.5);
  });

  test('a dark page beside the text does not pull the slant to level (the strokes count, not the dark pixels)', async () => {
    const grey = await strokes(5);
    // The left third a dark table: many dark pixels, no strokes.
    for (let y = 0; y < 200; y++) for (let x = 0; x < 50; x++) grey[y * 600 + x] = 40;
    expect(Math.abs(textSlant(grey, 600, 200)! - 5)).toBeLessThanOrEqual(0.5);
  });

  test('a crop without text says nothing', () => expect(textSlant(new Uint8Array(600 * 200).fill(200), 600, 200)).toBeNull());
});

describe('stackedZones: one-line zones that are the lines of one MRZ (issue 20)', () => {
  const line = (top: number, left = 20, width = 700, height = 36) => ({ left, top, width, height });
  test.each([
    ['two lines, 80 px apart', [line(474), line(554)], [[0, 1]]],
    ['given bottom first, still grouped top to bottom', [line(554), line(474)], [[1, 0]]],
    [
      'three lines',
      [line(100), line(150), line(200)],
      [
        [0, 1],
        [0, 1, 2],
        [1, 2],
      ],
    ],
    ['the next line more than three line heights down', [line(100), line(220)], []],
    ['beside each other, not stacked', [line(100, 20, 300), line(130, 400, 300)], []],
    ['a short line over part of a long one', [line(100, 20, 700), line(140, 500, 100)], [[0, 1]]],
    ['a line overlapping less than 80 % of the narrower', [line(100, 20, 300), line(140, 260, 300)], []],
    ['one zone', [line(100)], []],
  ])('%s', (_, boxes, groups) => expect(stackedZones(boxes)).toEqual(groups));
});

describe('equalisedZone: a zone smaller than an equalisation tile', () => {
  // A real photo's zone can be found as a sliver (the real set, under a model that read it
  // differently); libvips refuses a tile larger than the image, and the check would have failed.
  test.each(Object.keys(EQUALISATIONS) as (keyof typeof EQUALISATIONS)[])('%s: equalised at its own size, not refused', async (equalisation) => {
    const png = await sharp({ create: { width: 300, height: 6, channels: 3, background: { r: 128, g: 128, b: 128 } } })
      .greyscale()
      .png()
      .toBuffer();
    const out = await equalisedZone({ png } as MrzBand, equalisation);
    expect(await sharp(out).metadata()).toMatchObject({ width: 300, height: 6 });
  });
});

describe('flattened: ink against the paper around it (engine 2026.12.17, decision 0104)', () => {
  // A crop lit unevenly: the paper runs from 160 (shade, left) to 255 (glare, right), and the ink
  // from 40 % of the paper around it to 85 %, pale under the glare as on issue 20's harder set.
  const width = 1200;
  const height = 140;
  const paper = (x: number) => 160 + (95 * x) / (width - 1);
  const inkShare = (x: number) => 0.4 + (0.45 * x) / (width - 1);
  const isStroke = (x: number, y: number) => x % 30 < 8 && y >= 50 && y < 90;
  const crop = async () => {
    const pixels = new Uint8Array(width * height);
    for (let y = 0; y < height; y++) {
      for (let x = 0; x < width; x++) pixels[y * width + x] = Math.round(paper(x) * (isStroke(x, y) ? inkShare(x) : 1));
    }
    return sharp(pixels, { raw: { width, height, channels: 1 } })
      .png()
      .toBuffer();
  };
  const at = async (png: Buffer) => {
    const { data, info } = await sharp(png).greyscale().raw().toBuffer({ resolveWithObject: true });
    return (x: number, y: number) => data[y * info.width + x]!;
  };

  test('no one threshold parts them: the shaded paper is darker than the ink under the glare', () => {
    expect(paper(0)).toBeLessThan(paper(width - 1) * inkShare(width - 1));
  });

  test('flattened, the ink is black and the paper white at both ends', async () => {
    const pixel = await at(await thresholded(await flatField(await crop()), 240));
    // Stroke centres and the paper between strokes, at the shaded end and under the glare.
    for (const x of [4, 64, width - 26, width - 56]) expect(pixel(x, 70)).toBe(0);
    for (const x of [19, 79, width - 11, width - 41]) expect(pixel(x, 70)).toBe(255);
    // Above and below the line, paper.
    for (const x of [4, width - 26]) expect([pixel(x, 10), pixel(x, 130)]).toEqual([255, 255]);
  });
});
