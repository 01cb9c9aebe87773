/**
 * `bun scripts/faces/liveness-sequences.ts --out DIR PHOTO...`: the liveness evaluation set that
 * `bun run accuracy --liveness DIR` reads (issue 19, Deliver 5). From each frontal photo it makes
 * frame sequences that answer a challenge (a baseline "look at the camera", then each move):
 * - genuine: the head turned left and right in three dimensions (head-pose-render.ts), peaking at
 *   15° to 35° as rendered (Human's mesh reads about 60 % of that);
 * - attacks, the photo itself moved as a held picture would be, each following the moves as well
 *   as a flat picture can: still (the same frame), jitter, shift, in-plane rotation, held turned or
 *   tilted (perspective), both ways, clear and extreme.
 * Each sequence is a folder of JPEG frames and sequence.json { photo, kind, genuine, amplitude,
 * moves, frames: [{ file, step }] }. The photos' licences are the caller's to record; the frames
 * stay outside the repository unless the photo's licence allows committing them.
 */
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { basename, dirname, extname, join } from 'node:path';
import type { Move } from '../../backend/src/modules/engine/liveness/motion-check';
import {
  faceMesh,
  heldTilt,
  type RawImage,
  readRaw,
  renderHeadPose,
  similarity,
  toJpeg,
  warpFlat,
} from '../../backend/src/modules/engine/liveness/testing/head-pose-render';

export const MOVE_SETS: readonly (readonly Move[])[] = [
  ['left', 'right'],
  ['right', 'left'],
  ['left', 'right', 'left'],
];
/** How far into the move each of a step's frames is: a turn is filmed on its way out and back. */
const RAMP = [0.35, 0.7, 1, 0.85];
const BASELINE_FRAMES = 3;
export const GENUINE_AMPLITUDES = [15, 20, 25, 30, 35];

export interface Frame {
  step: number;
  image: RawImage;
}
export interface SequenceManifest {
  photo: string;
  kind: string;
  genuine: boolean;
  amplitude: number | null;
  moves: Move[];
  frames: { file: string; step: number }[];
}

/** A pseudo-random generator with a seed, so a rerun writes the same frames. */
export function seeded(seed: number) {
  let state = seed >>> 0;
  return () => {
    state = (state * 1664525 + 1013904223) >>> 0;
    return state / 2 ** 32;
  };
}

/** The person's own left turns the face toward the camera image's right: negative yaw in the renderer. */
const yawOf = (move: Move, degrees: number) => (move === 'left' ? -degrees : degrees);

async function genuine(
  photo: RawImage,
  mesh: Awaited<ReturnType<typeof faceMesh>>,
  moves: readonly Move[],
  amplitude: number,
  random: () => number,
): Promise<Frame[]> {
  const frames: Frame[] = [];
  for (let i = 0; i < BASELINE_FRAMES; i++) frames.push({ step: 0, image: await renderHeadPose(photo, mesh, (random() - 0.5) * 3, (random() - 0.5) * 3) });
  for (const [index, move] of moves.entries()) {
    for (const share of RAMP) {
      const jitter = (random() - 0.5) * 2;
      frames.push({
        step: index + 1,
        image: await renderHeadPose(photo, mesh, yawOf(move, amplitude * share) + jitter, jitter),
      });
    }
  }
  return frames;
}

/** +1 for left, -1 for right, 0 for the baseline: the way a flat photo is moved to mimic the turn. */
const side = (move: Move | null) => (move === 'left' ? 1 : move === 'right' ? -1 : 0);

type Attack = (photo: RawImage, move: Move | null, share: number, random: () => number) => number[];

/** Each attack as the homography of the held photo for a move (null: the baseline) at `share` of its way. */
export const ATTACKS: Record<string, Attack> = {
  still: (photo) => similarity(photo, 0, 0, 1, 0),
  jitter: (photo, _move, _share, random) => similarity(photo, (random() - 0.5) * 16, (random() - 0.5) * 16, 1 + (random() - 0.5) * 0.1, (random() - 0.5) * 4),
  shift: (photo, move, share) => similarity(photo, 60 * share * side(move), 0, 1, 0),
  'in-plane': (photo, move, share) => similarity(photo, 0, 0, 1, 15 * share * side(move)),
  'held-turn-a': (photo, move, share) => heldTilt(photo, 0.35 * share * side(move), 0),
  'held-turn-b': (photo, move, share) => heldTilt(photo, -0.35 * share * side(move), 0),
  'held-extreme-a': (photo, move, share) => heldTilt(photo, 0.6 * share * side(move), 0),
  'held-extreme-b': (photo, move, share) => heldTilt(photo, -0.6 * share * side(move), 0),
  // Rocking the photo about both axes at once, the way a hand holding it would.
  'held-rock': (photo, move, share) => heldTilt(photo, 0.45 * share * side(move), 0.2 * share),
};

function attack(photo: RawImage, kind: Attack, moves: readonly Move[], random: () => number): Frame[] {
  const frames: Frame[] = [];
  for (let i = 0; i < BASELINE_FRAMES; i++) frames.push({ step: 0, image: warpFlat(photo, kind(photo, null, 0, random)) });
  for (const [index, move] of moves.entries())
    for (const share of RAMP) frames.push({ step: index + 1, image: warpFlat(photo, kind(photo, move, share, random)) });
  return frames;
}

/** Writes one sequence's frames and its manifest (sequence.json), as `accuracy --liveness` reads them. */
export async function write(dir: string, manifest: Omit<SequenceManifest, 'frames'>, frames: Frame[]): Promise<void> {
  mkdirSync(dir, { recursive: true });
  const listed: SequenceManifest['frames'] = [];
  for (const [i, frame] of frames.entries()) {
    const file = `frame-${String(i).padStart(2, '0')}.jpg`;
    writeFileSync(join(dir, file), await toJpeg(frame.image));
    listed.push({ file, step: frame.step });
  }
  writeFileSync(join(dir, 'sequence.json'), `${JSON.stringify({ ...manifest, frames: listed }, null, 1)}\n`);
}

if (import.meta.main) {
  const args = process.argv.slice(2);
  const outAt = args.indexOf('--out');
  const out = outAt >= 0 ? args[outAt + 1] : undefined;
  const photos = args.filter((_, i) => i !== outAt && i !== outAt + 1);
  if (!out || photos.length === 0) {
    console.error('usage: bun scripts/faces/liveness-sequences.ts --out DIR PHOTO...');
    process.exit(1);
  }
  for (const path of photos) {
    // The folder too: sets such as ORL name every person's photo 1.pgm.
    const stem = `${basename(dirname(path))}-${basename(path, extname(path))}`;
    const photo = await readRaw(readFileSync(path));
    const mesh = await faceMesh(photo);
    const random = seeded(stem.length * 7919 + photo.width);
    for (const [setIndex, moves] of MOVE_SETS.entries()) {
      for (const amplitude of GENUINE_AMPLITUDES) {
        await write(
          join(out, `${stem}-genuine-${amplitude}-${setIndex}`),
          { photo: basename(path), kind: 'genuine', genuine: true, amplitude, moves: [...moves] },
          await genuine(photo, mesh, moves, amplitude, random),
        );
      }
      for (const [kind, transform] of Object.entries(ATTACKS)) {
        await write(
          join(out, `${stem}-${kind}-${setIndex}`),
          { photo: basename(path), kind, genuine: false, amplitude: null, moves: [...moves] },
          attack(photo, transform, moves, random),
        );
      }
    }
    console.log(`${path}: ${MOVE_SETS.length * (GENUINE_AMPLITUDES.length + Object.keys(ATTACKS).length)} sequences in ${out}`);
  }
  process.exit(0);
}
