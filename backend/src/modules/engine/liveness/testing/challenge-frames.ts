/**
 * Selfie frames that answer a liveness challenge (protocol/src/liveness.ts), for tests and the
 * bench: a genuine head turned in three dimensions the way each move asks (rendered from one
 * frontal photo, head-pose-render.ts), or a still photo, as is or jittered between frames, tagged
 * as if it had followed. Frame counts are the verify UI's (LIVENESS_CAPTURE).
 */
import { LIVENESS_CAPTURE, type ChallengeMove } from '@ageverify/protocol';
import { faceMesh, readRaw, renderHeadPose, similarity, toJpeg, warpFlat } from './head-pose-render';

export interface ChallengeFrames {
  selfies: Uint8Array[];
  /** The step of each selfie, as the selfieSteps field sends it. */
  steps: number[];
}

/** Shares of the full turn at which a move's frames are taken: the head on its way out, then held. */
const MOVE_SHARES = [0.5, 0.8, 1];

function stepsOf(moves: readonly ChallengeMove[]): number[] {
  return [
    ...Array.from({ length: LIVENESS_CAPTURE.baselineFrames }, () => 0),
    ...moves.flatMap((_, index) => Array.from({ length: LIVENESS_CAPTURE.framesPerMove }, () => index + 1)),
  ];
}

/**
 * A head turned `degrees` to the user's own left or right for each move, as a live user does.
 * Returns a function of the moves (a challenge's order is known only once it is issued); each pose
 * is rendered once.
 */
export async function headTurner(photo: Uint8Array, degrees = 32): Promise<(moves: readonly ChallengeMove[]) => Promise<ChallengeFrames>> {
  const raw = await readRaw(photo);
  const mesh = await faceMesh(raw);
  const rendered = new Map<number, Promise<Uint8Array>>();
  const pose = (yaw: number) => {
    if (!rendered.has(yaw))
      rendered.set(
        yaw,
        renderHeadPose(raw, mesh, yaw, 0).then(async (image) => new Uint8Array(await toJpeg(image))),
      );
    return rendered.get(yaw)!;
  };
  return async (moves) => {
    const steps = stepsOf(moves);
    const selfies: Uint8Array[] = [];
    for (const [index, step] of steps.entries()) {
      // The renderer's yaw is the image's: the user's own left is negative.
      const move = step === 0 ? null : moves[step - 1]!;
      const share = MOVE_SHARES[(index - LIVENESS_CAPTURE.baselineFrames) % LIVENESS_CAPTURE.framesPerMove]!;
      selfies.push(await pose(move === null ? index * 0.5 : (move === 'left' ? -degrees : degrees) * share));
    }
    return { selfies, steps };
  };
}

/**
 * One photo as every frame: unchanged, or moved a little between frames (shifted, scaled, turned
 * in the picture's plane), as a photo held to the camera or re-sent with small edits would be.
 */
export async function stillFrames(photo: Uint8Array, moves: readonly ChallengeMove[], jitter = false): Promise<ChallengeFrames> {
  const steps = stepsOf(moves);
  // As sent: the same bytes in every part (bytes that are no picture at all included).
  if (!jitter) return { selfies: steps.map(() => photo), steps };
  const raw = await readRaw(photo);
  const selfies: Uint8Array[] = [];
  for (const [index] of steps.entries()) {
    const side = index % 2 === 0 ? 1 : -1;
    const moved = warpFlat(raw, similarity(raw, 12 * side, 6 * side, 1 + 0.04 * side, 4 * side));
    selfies.push(new Uint8Array(await toJpeg(moved)));
  }
  return { selfies, steps };
}
