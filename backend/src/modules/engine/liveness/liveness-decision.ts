/**
 * The liveness gate of a check with selfie frames (issue 19, decision 0062): the frames, tagged by
 * the browser with the challenge step they were taken in, must show one live head following the
 * challenge's moves (motion-check.ts). Pure: takes the engine's measurements, answers null when the
 * challenge was followed, or the retry that tells the user what to do again.
 */
import type { ChallengeMove, RetryHint } from '@ageverify/protocol';
import type { EngineDecision, FrameFindings } from '../model';
import { checkMotion, type MotionFailure, type MotionFrame } from './motion-check';

/** Retry hints that mean the challenge failed, not the picture's quality (decision 0062 at the cap). */
export const LIVENESS_HINTS: readonly RetryHint[] = ['challenge_not_followed', 'face_changed'];

const HINT_OF_FAILURE: Record<MotionFailure, RetryHint> = {
  no_face: 'no_face',
  multiple_faces: 'multiple_faces',
  missing_step: 'challenge_not_followed',
  not_followed: 'challenge_not_followed',
  // A flat picture moved about is told the same as a turn not made: the hint must not teach an
  // attacker which test stopped the picture.
  flat: 'challenge_not_followed',
  different_person: 'face_changed',
};

/** The motion check's view of one analysed frame. */
export function motionFrame(frame: FrameFindings, step: number): MotionFrame {
  const face = 'face' in frame ? frame.face : null;
  return {
    step,
    faceCount: 'faceCount' in frame ? frame.faceCount : 0,
    yaw: face?.yaw ?? 0,
    pitch: face?.pitch ?? 0,
    landmarks: face?.landmarks ?? [],
    // Face match's descriptor (face-embedding.ts) is the same-person test's too (decision 0098).
    descriptor: face?.embedding,
  };
}

export function decideLiveness(
  frames: readonly FrameFindings[],
  steps: readonly number[],
  moves: readonly ChallengeMove[],
): Extract<EngineDecision, { decision: 'retry' }> | null {
  if (frames.length !== steps.length) throw new Error(`${frames.length} frames but ${steps.length} steps`);
  if (frames.some((frame) => 'unreadable' in frame)) return { decision: 'retry', hint: 'image_unreadable', part: 'selfie' };
  const verdict = checkMotion(
    frames.map((frame, index) => motionFrame(frame, steps[index]!)),
    moves,
  );
  return verdict.passed ? null : { decision: 'retry', hint: HINT_OF_FAILURE[verdict.failure], part: 'selfie' };
}
