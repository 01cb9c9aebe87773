/**
 * `bun scripts/documents/second-ocr-probe.ts --ocr DIR --documents DIR`: reads a labelled document
 * set (generate-evaluation-set.ts) with a second OCR engine, PaddleOCR's PP-OCRv4 models through
 * onnxruntime-node, and decides each page with the engine's own MRZ rules (mrz-reading.ts
 * readText), to tell whether that engine could stand beside tesseract as another witness or
 * replace the MRZ model (decision 0083, where the figures are). Not a dependency of the service:
 * `DIR` is a folder where `ONNXRUNTIME_NODE_INSTALL=skip bun add @gutenye/ocr-node` was run.
 *
 * PP-OCRv4's detector finds the text lines on the page (the package's own pre- and
 * post-processing); each line is recognised here with the normalisation the recogniser was trained
 * with and its output restricted to the MRZ's 37 characters, and the lines, top to bottom, are read
 * as one OCR text. Pages are decoded in memory; nothing is written.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import sharp from 'sharp';
import { readText } from '../../backend/src/modules/engine/documents/mrz-reading';
import { readLabelsCsv } from '../../backend/src/cli/labels-csv';
import { requiredOption } from '../clones';

type Point = [number, number];
interface LineImage {
  box: Point[];
  image: { data: Uint8Array; width: number; height: number };
}
interface OrtTensor {
  dims: readonly number[];
  data: Float32Array;
}
interface OrtSession {
  inputNames: readonly string[];
  outputNames: readonly string[];
  run(feeds: Record<string, unknown>): Promise<Record<string, OrtTensor>>;
}

const MRZ_ALPHABET = new Set('ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789<');
/** PP-OCR's recogniser reads lines 48 px high. */
const LINE_HEIGHT = 48;
/** Lines shorter than this are print on the page or the table, never a line of an MRZ. */
const MIN_LINE_CHARS = 10;

const USAGE = 'usage: bun scripts/documents/second-ocr-probe.ts --ocr DIR (where @gutenye/ocr-node is installed) --documents DIR';
const ocrDir = requiredOption('--ocr', USAGE);
const documents = requiredOption('--documents', USAGE);
const modules = join(ocrDir, 'node_modules');
const assets = join(modules, '@gutenye', 'ocr-models', 'assets');
// The package registers its onnxruntime-node backend when loaded; the detector is its source, as Bun resolves it.
await import(join(modules, '@gutenye', 'ocr-node', 'build', 'index.js'));
const { Detection } = await import(join(modules, '@gutenye', 'ocr-common', 'src', 'models', 'index.ts'));
const ort = await import(join(modules, 'onnxruntime-node', 'dist', 'index.js'));
const detection: { run(image: Buffer): Promise<LineImage[]> } = await Detection.create({
  models: { detectionPath: join(assets, 'ch_PP-OCRv4_det_infer.onnx') },
});
const recogniser: OrtSession = await ort.InferenceSession.create(join(assets, 'ch_PP-OCRv4_rec_infer.onnx'), { intraOpNumThreads: 2 });
const dictionary = [...readFileSync(join(assets, 'ppocr_keys_v1.txt'), 'utf8').split('\n'), ' '];
/** Output classes the decoding may choose: the CTC blank (0) and the MRZ's characters. */
const allowed = [0, ...dictionary.flatMap((char, i) => (MRZ_ALPHABET.has(char) ? [i + 1] : []))];

async function recognise(line: LineImage['image']): Promise<string> {
  const width = Math.max(16, Math.round((line.width * LINE_HEIGHT) / line.height));
  const rgb = await sharp(line.data, { raw: { width: line.width, height: line.height, channels: 4 } })
    .removeAlpha()
    .resize({ width, height: LINE_HEIGHT, fit: 'fill' })
    .raw()
    .toBuffer();
  // BGR planes scaled to [-1, 1], as PaddleOCR's recogniser was trained.
  const plane = LINE_HEIGHT * width;
  const input = new Float32Array(3 * plane);
  for (let i = 0; i < plane; i++) for (let c = 0; c < 3; c++) input[c * plane + i] = rgb[i * 3 + (2 - c)]! / 127.5 - 1;
  const outputs = await recogniser.run({ [recogniser.inputNames[0]!]: new ort.Tensor('float32', input, [1, 3, LINE_HEIGHT, width]) });
  const { dims, data } = outputs[recogniser.outputNames[0]!]!;
  const [steps, classes] = [dims[1]!, dims[2]!];
  let text = '';
  let previous = -1;
  for (let t = 0; t < steps; t++) {
    let best = 0;
    for (const k of allowed) if (data[t * classes + k]! > data[t * classes + best]!) best = k;
    if (best !== 0 && best !== previous) text += dictionary[best - 1];
    previous = best;
  }
  return text;
}

let genuine = 0;
let readRight = 0;
let wronglyAccepted = 0;
for (const row of readLabelsCsv(join(documents, 'labels.csv'))) {
  const started = performance.now();
  const page = await sharp(join(documents, row.file!)).rotate().png().toBuffer();
  const lines: { y: number; x: number; text: string }[] = [];
  for (const line of await detection.run(page)) {
    const text = await recognise(line.image);
    if (text.length < MIN_LINE_CHARS) continue;
    const ys = line.box.map((point) => point[1]);
    lines.push({ y: (Math.min(...ys) + Math.max(...ys)) / 2, x: Math.min(...line.box.map((point) => point[0])), text });
  }
  lines.sort((a, b) => a.y - b.y || a.x - b.x);
  const result = readText(lines.map((line) => line.text).join('\n'));
  const birthDate = result && 'found' in result && result.valid ? result.birthDate : null;
  const right = birthDate !== null && row.birth_date!.replace(/-/g, '').slice(2) === birthDate;
  if (row.valid === 'true') {
    genuine++;
    if (right) readRight++;
  } else if (birthDate !== null) wronglyAccepted++;
  console.log(row.file, row.valid, birthDate ?? '-', right ? 'read right' : 'not read', `${Math.round(performance.now() - started)} ms`);
}
console.log(`genuine read right ${readRight}/${genuine}; altered or wrong accepted ${wronglyAccepted}`);
