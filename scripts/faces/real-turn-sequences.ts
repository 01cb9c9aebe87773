/**
 * `bun scripts/faces/real-turn-sequences.ts --out DIR LABELS.csv [--scale S] [--pad F] [--people a,b,...] [--attack-sets N]`:
 * the liveness evaluation set of `bun run accuracy --liveness DIR` (issue 19) from photographs of
 * real people turning their heads, instead of the rendered turns of liveness-sequences.ts, which
 * the mesh reads as much smaller turns than a person makes (docs/verification.md "Liveness motion check").
 *
 * LABELS.csv is `file,person,session,pan` (paths relative to it): one photo per head pan in degrees,
 * negative when the person turned toward their own left (the nose toward the image's right, as
 * motion-check.ts reads an unmirrored camera), 0 for the frontal photo of the same session. For the
 * Pointing'04 head-pose set that is its own pan sign.
 * For each person and session, and each move set of liveness-sequences.ts:
 * - genuine, per peak pan P: the frontal photo as the baseline, then for each move the photos of that
 *   side up to P, as a turn is filmed on its way out (amplitude P);
 * - attacks: the frontal photo moved as a held picture would be (liveness-sequences.ts ATTACKS), for
 *   the first N move sets only with --attack-sets N (each costs some 100 frames to measure per session).
 * --scale and --pad enlarge small, tightly cropped photos (grey border of F × width), as the ORL
 * faces were for the rendered set. The photos' licences are the caller's to record; the frames stay
 * outside the repository unless the licence allows committing them.
 */
import { dirname, join } from 'node:path';
import sharp from 'sharp';
import { readLabelsCsv } from '../../backend/src/cli/labels-csv';
import type { Move } from '../../backend/src/modules/engine/liveness/motion-check';
import { type RawImage, readRaw, warpFlat } from '../../backend/src/modules/engine/liveness/testing/head-pose-render';
import { ATTACKS, type Frame, MOVE_SETS, seeded, write } from './liveness-sequences';

/** The baseline is held for as many frames as in liveness-sequences.ts, so attacks match that set. */
const BASELINE_FRAMES = 3;
const RAMP = [0.35, 0.7, 1, 0.85];

interface Labelled {
  file: string;
  person: string;
  session: string;
  pan: number;
}

function readLabels(path: string): Labelled[] {
  return readLabelsCsv(path, ['file', 'person', 'session', 'pan']).map((row) => ({
    file: join(dirname(path), row.file!),
    person: row.person!,
    session: row.session!,
    pan: Number(row.pan),
  }));
}

async function prepare(path: string, scale: number, pad: number): Promise<RawImage> {
  const { width = 0, height = 0 } = await sharp(path).metadata();
  const w = Math.round(width * scale);
  const border = Math.round(w * pad);
  const bytes = await sharp(path)
    .resize(w, Math.round(height * scale), { kernel: 'lanczos3' })
    .extend({ top: border, bottom: border, left: border, right: border, background: { r: 128, g: 128, b: 128 } })
    .png()
    .toBuffer();
  return readRaw(bytes);
}

/** The person's own left is a negative pan (see the header). */
const onSide = (move: Move, pan: number) => (move === 'left' ? pan < 0 : pan > 0);

if (import.meta.main) {
  const args = process.argv.slice(2);
  const option = (name: string) => {
    const at = args.indexOf(`--${name}`);
    return at >= 0 ? args[at + 1] : undefined;
  };
  const out = option('out');
  const labelsPath = args.find((arg, i) => !arg.startsWith('--') && !args[i - 1]?.startsWith('--'));
  if (!out || !labelsPath) {
    console.error('usage: bun scripts/faces/real-turn-sequences.ts --out DIR LABELS.csv [--scale S] [--pad F] [--people a,b,...] [--attack-sets N]');
    process.exit(1);
  }
  const scale = Number(option('scale') ?? 1);
  const pad = Number(option('pad') ?? 0);
  const people = option('people')?.split(',');
  const attackSets = Number(option('attack-sets') ?? MOVE_SETS.length);
  const labels = readLabels(labelsPath).filter((l) => !people || people.includes(l.person));
  const sessions = [...new Set(labels.map((l) => `${l.person}\t${l.session}`))].sort();
  let written = 0;
  for (const key of sessions) {
    const [person, session] = key.split('\t') as [string, string];
    const photos = labels.filter((l) => l.person === person && l.session === session);
    const frontal = photos.find((l) => l.pan === 0);
    if (!frontal) {
      console.error(`${person} session ${session}: no frontal (pan 0) photo, skipped`);
      continue;
    }
    const images = new Map<string, RawImage>();
    for (const l of photos) images.set(l.file, await prepare(l.file, scale, pad));
    const base = images.get(frontal.file)!;
    const peaks = [...new Set(photos.map((l) => Math.abs(l.pan)).filter((p) => p > 0))].sort((a, b) => a - b);
    const stem = `${person}-s${session}`;
    for (const [setIndex, moves] of MOVE_SETS.entries()) {
      for (const peak of peaks) {
        const frames: Frame[] = [{ step: 0, image: base }];
        for (const [index, move] of moves.entries()) {
          const turned = photos.filter((l) => onSide(move, l.pan) && Math.abs(l.pan) <= peak).sort((a, b) => Math.abs(a.pan) - Math.abs(b.pan));
          for (const l of turned) frames.push({ step: index + 1, image: images.get(l.file)! });
        }
        await write(
          join(out, `${stem}-genuine-${peak}-${setIndex}`),
          { photo: frontal.file, kind: 'genuine', genuine: true, amplitude: peak, moves: [...moves] },
          frames,
        );
        written++;
      }
      if (setIndex >= attackSets) continue;
      const random = seeded(stem.length * 7919 + base.width + setIndex);
      for (const [kind, transform] of Object.entries(ATTACKS)) {
        const frames: Frame[] = [];
        for (let i = 0; i < BASELINE_FRAMES; i++) frames.push({ step: 0, image: warpFlat(base, transform(base, null, 0, random)) });
        for (const [index, move] of moves.entries())
          for (const share of RAMP) frames.push({ step: index + 1, image: warpFlat(base, transform(base, move, share, random)) });
        await write(join(out, `${stem}-${kind}-${setIndex}`), { photo: frontal.file, kind, genuine: false, amplitude: null, moves: [...moves] }, frames);
        written++;
      }
    }
    console.log(
      `${person} session ${session}: ${peaks.length} peaks × ${MOVE_SETS.length} move sets, ${Object.keys(ATTACKS).length} attacks × ${Math.min(attackSets, MOVE_SETS.length)}`,
    );
  }
  console.log(`${written} sequences in ${out}`);
  process.exit(0);
}
