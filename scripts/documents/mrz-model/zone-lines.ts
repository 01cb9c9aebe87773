/**
 * Training lines cut from the engine's own zone crops (decision 0081): generated hard pages
 * (hard-degradation.ts; half of them `combined`) whose zone the engine finds (mrz-band.ts), split
 * into lines by Tesseract's layout analysis with Debian's generic model (`tesseract --psm 6 tsv`),
 * kept only when it finds as many full-width lines as the layout has and reads each near its
 * label. These are the lines the recogniser is shown in the engine: tight, levelled, enlarged.
 * Seeds from 1000 on, far from the evaluation seeds. Half the pages print a security pattern under
 * the page (security-pattern.ts), as real data pages do. Writes DIR/cSEED-I-B-K.png, .gt.txt and
 * .box (training-line.ts); needs Debian `tesseract-ocr`.
 * `--band`: the lines are cut instead from the lower part of the page as the reader's first passes
 * read it (mrz-reading.ts bandPng; the lowest 35 %, else the lowest 60 %): neither levelled nor
 * enlarged, a slanted line cut with parts of its neighbours, among the page's other text. Stop 45
 * found the model of stop 44 misreading such lines where the MRZ model did not, so that a misread
 * passed every check digit (decision 0081). Each MRZ line is matched to the line of the layout
 * analysis read nearest its label.
 * Run: bun scripts/documents/mrz-model/zone-lines.ts --out DIR --count N --seed S [--band]
 */
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { distance } from 'fastest-levenshtein';
import sharp from 'sharp';
import { locateMrzBands } from '../../../backend/src/modules/engine/documents/mrz-band';
import { bandPng } from '../../../backend/src/modules/engine/documents/mrz-reading';
import { decodeImage } from '../../../backend/src/modules/engine/image-decoding';
import { requiredOption } from '../../clones';
import { HARD_KINDS, hardDegradation, hardItem, renderHardPhoto } from '../hard-degradation';
import { mrzFontSize, mrzLines, pageSize, pick, randomIdentity, renderDocument, seededRandom } from '../synthetic-documents';
import { PATTERN_KINDS, securityPattern } from './security-pattern';
import { writeTrainingLine } from './training-line';

const USAGE = 'usage: bun scripts/documents/mrz-model/zone-lines.ts --out DIR --count N --seed S [--band]';
const out = requiredOption('--out', USAGE);
const count = Number(requiredOption('--count', USAGE));
const seed = Number(requiredOption('--seed', USAGE));
const band = process.argv.includes('--band');
mkdirSync(out, { recursive: true });
const random = seededRandom(seed);
const today = new Date();
let kept = 0;
for (let i = 0; i < count; i++) {
  const item = hardItem(i);
  // The harder kinds more often: combined half the time.
  const kind = random() < 0.5 ? 'combined' : pick(random, HARD_KINDS);
  const id = randomIdentity(random, item.format, today);
  const lines: string[] = mrzLines(id);
  const size = pageSize(item.format);
  const pattern = random() < 0.5 ? securityPattern(pick(random, PATTERN_KINDS), { ...size, em: mrzFontSize(size.width, lines[0]!.length) }, 240, random) : '';
  const page = await renderDocument(id, lines, undefined, pattern);
  const photo = await renderHardPhoto(page, item.format, lines[0]!.length, hardDegradation(kind, random), random);
  const image = await decodeImage(new Uint8Array(photo), { maxSide: 1600 });
  // Built one at a time: the first crop whose lines match is the only one used.
  const crops: (() => Promise<Buffer>)[] = band
    ? [() => bandPng(image, 0.65), () => bandPng(image, 0.4)]
    : (await locateMrzBands(image)).map((zone) => async () => zone.png);
  for (const [b, build] of crops.entries()) {
    const crop = await build();
    const meta = await sharp(crop).metadata();
    const boxes = band ? matchedLines(layoutLines(crop), lines) : zoneLines(layoutLines(crop), lines, meta.width!);
    if (!boxes) continue;
    for (const [k, box] of boxes.entries()) {
      const pad = Math.round(box.height * 0.15);
      const left = Math.max(0, box.left - pad),
        top = Math.max(0, box.top - pad);
      const png = await sharp(crop)
        .extract({ left, top, width: Math.min(meta.width! - left, box.width + 2 * pad), height: Math.min(meta.height! - top, box.height + 2 * pad) })
        .png()
        .toBuffer();
      await writeTrainingLine(join(out, `c${seed}-${i}-${b}-${k}`), png, lines[k]!);
      kept++;
    }
    break;
  }
}
console.log('kept', kept);

type LineBox = { left: number; top: number; width: number; height: number; text: string };

/** The lines Tesseract's layout analysis finds in a crop, top to bottom, each with what the generic model reads. */
function layoutLines(png: Buffer): LineBox[] {
  const tsv = Bun.spawnSync(['tesseract', 'stdin', '-', '--psm', '6', 'tsv'], { stdin: png }).stdout.toString();
  const rows = tsv
    .split('\n')
    .slice(1)
    .map((l) => l.split('\t'));
  const key = (c: string[]) => c.slice(1, 5).join('.');
  return rows
    .filter((c) => c[0] === '4')
    .map((c) => ({
      left: +c[6]!,
      top: +c[7]!,
      width: +c[8]!,
      height: +c[9]!,
      text: rows
        .filter((w) => w[0] === '5' && key(w) === key(c))
        .map((w) => w[11] ?? '')
        .join(''),
    }))
    .sort((a, b) => a.top - b.top);
}

/**
 * A zone's lines: as many full-width lines as the layout has, each read near its label. A band that
 * is no zone (the page's header, say) can split into as many lines as the layout has: the generic
 * model's reading of each line must be near its label, or the band is skipped.
 */
function zoneLines(found: LineBox[], labels: readonly string[], width: number): LineBox[] | null {
  const boxes = found.filter((x) => x.width > 0.6 * width);
  return boxes.length !== labels.length || boxes.some((x, k) => !readNear(x, labels[k]!)) ? null : boxes;
}

/** For each label, in order, the line read nearest it, when it is near enough; null when one is not. */
function matchedLines(found: LineBox[], labels: readonly string[]): LineBox[] | null {
  const boxes: LineBox[] = [];
  for (const label of labels) {
    const after = found.filter((x) => boxes.length === 0 || x.top > boxes.at(-1)!.top);
    const nearest = after.sort((a, b) => distance(a.text, label) - distance(b.text, label))[0];
    if (!nearest || !readNear(nearest, label)) return null;
    boxes.push(nearest);
  }
  return boxes;
}

/** The generic model read the line within half its label's length of edits. */
function readNear(line: LineBox, label: string): boolean {
  return distance(line.text, label) <= 0.5 * label.length;
}
