/**
 * Face-model measurements of a synthetic head, for tests of what is decided on them (the liveness
 * gate, the check service) without running the models: 468 mesh points on the front of an
 * ellipsoid with a nose, turned in three dimensions and projected, with the yaw Human would report.
 * A flat picture is the same points moved in the image plane only.
 */
import type { ChallengeMove } from '@ageverify/protocol';
import type { FaceAnalysis } from '../../faces/face-analysis';
import type { Point } from '../planar-fit';

const POINTS = 468;
const NOSE_TIP = 1;
/** The outline's sides in MediaPipe's topology: 234 on the image's left, 454 on its right (unmirrored). */
const OUTLINE_A = 234;
const OUTLINE_B = 454;
const RADIUS = 100;

/** Fixed points, spread by the golden angle so every run is the same head. */
function headPoints(): [number, number, number][] {
  const points: [number, number, number][] = [];
  for (let i = 0; i < POINTS; i++) {
    const theta = (((i * 137.508) % 160) - 80) * (Math.PI / 180);
    const phi = ((((i * 73.13) % 120) - 60) * Math.PI) / 180;
    points.push([RADIUS * Math.sin(theta) * Math.cos(phi), 1.3 * RADIUS * Math.sin(phi), RADIUS * Math.cos(theta) * Math.cos(phi)]);
  }
  points[NOSE_TIP] = [0, 0.1 * RADIUS, 1.35 * RADIUS];
  points[OUTLINE_A] = [-RADIUS, 0, 0];
  points[OUTLINE_B] = [RADIUS, 0, 0];
  return points;
}

const HEAD = headPoints();

/**
 * The mesh of the head turned `degrees` toward the user's own `move` (the nose goes to the image's
 * right for a left turn, and Human's yaw is negative), centred at 320, 240.
 */
export function turnedLandmarks(degrees: number, move: ChallengeMove = 'left'): Point[] {
  const angle = ((move === 'left' ? 1 : -1) * degrees * Math.PI) / 180;
  return HEAD.map(([x, y, z]): Point => [320 + x * Math.cos(angle) + z * Math.sin(angle), 240 + y]);
}

/** The frontal mesh moved as a flat picture: shifted, scaled and rotated in the image plane. */
export function flatLandmarks(dx: number, scale = 1, degrees = 0): Point[] {
  const angle = (degrees * Math.PI) / 180;
  return turnedLandmarks(0).map(([x, y]): Point => {
    const [u, v] = [(x - 320) * scale, (y - 240) * scale];
    return [320 + dx + u * Math.cos(angle) - v * Math.sin(angle), 240 + u * Math.sin(angle) + v * Math.cos(angle)];
  });
}

/** One frame's analysis: `face` with the yaw and landmarks of the pose (yaw in Human's sign). */
export function withPose(analysis: FaceAnalysis, landmarks: Point[], yaw: number): FaceAnalysis {
  if (!analysis.face) return analysis;
  return { ...analysis, face: { ...analysis.face, yaw, landmarks: landmarks as [number, number][] } };
}

/**
 * The frames of a live user following `moves` (baseline frames, then each move's frames turning
 * out to `degrees`), each carrying `analysis`'s other measurements; steps as the UI tags them.
 */
export function liveHeadFrames(
  analysis: FaceAnalysis,
  moves: readonly ChallengeMove[],
  counts = { baseline: 2, perMove: 3 },
  degrees = 35,
): { frames: FaceAnalysis[]; steps: number[] } {
  const baseYaw = analysis.face?.yaw ?? 0;
  const frames: FaceAnalysis[] = [];
  const steps: number[] = [];
  for (let i = 0; i < counts.baseline; i++) {
    frames.push(withPose(analysis, turnedLandmarks(0), baseYaw));
    steps.push(0);
  }
  for (const [index, move] of moves.entries()) {
    for (let i = 1; i <= counts.perMove; i++) {
      const turn = (degrees * i) / counts.perMove;
      frames.push(withPose(analysis, turnedLandmarks(turn, move), baseYaw + (move === 'left' ? -turn : turn)));
      steps.push(index + 1);
    }
  }
  return { frames, steps };
}
