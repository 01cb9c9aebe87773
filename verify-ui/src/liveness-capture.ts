/**
 * The capture of a liveness challenge (issue 19, decision 0062; protocol/src/liveness.ts): what the
 * user is asked to do and when each frame is taken, as a plan of phases, and the run of that plan
 * against a clock and a frame source. The browser only guides and tags; the server judges the
 * frames. No DOM here: <age-verify-camera> shows each phase and gives the frames (tested apart).
 *
 *   look (step 0, baselineFrames) ─> move 1 (step 1, framesPerMove) ─> back ─> move 2 (step 2) ─> … ─> frames + steps
 *
 * A move's frames are spread over the later part of its time: the user first reads the prompt and
 * starts turning, so the early part would catch the head on its way, not turned.
 */
import { LIVENESS_CAPTURE, type ChallengeMove, type LivenessChallenge } from '@ageverify/protocol';

/** What the user is asked to do in one phase. `back`: look at the camera again between two moves (no frames). */
export type CapturePrompt = 'look' | ChallengeMove | 'back';

export interface CapturePhase {
  prompt: CapturePrompt;
  /** The challenge step the phase's frames are tagged with; null for `back`, which takes none. */
  step: number | null;
  /** The move of this phase, or null when the user looks at the camera. */
  move: ChallengeMove | null;
  durationMs: number;
  /** When each frame is taken, in ms from the phase's start, ascending. */
  frameAtMs: number[];
}

export const CAPTURE_TIMING = {
  /** Step 0: long enough to read "Look at the camera" and settle. */
  lookMs: 1500,
  /** Between two moves: back to the camera, so the next turn starts from the front. */
  backMs: 1200,
  /** Frames fall between these shares of a phase's time (the later part, see above). */
  firstFrameShare: 0.45,
  lastFrameShare: 0.9,
} as const;

/** `count` times spread evenly from firstFrameShare to lastFrameShare of `durationMs`, rounded to ms. */
export function frameTimes(count: number, durationMs: number): number[] {
  if (count === 1) return [Math.round(durationMs * CAPTURE_TIMING.lastFrameShare)];
  const { firstFrameShare: first, lastFrameShare: last } = CAPTURE_TIMING;
  return Array.from({ length: count }, (_, index) => Math.round(durationMs * (first + ((last - first) * index) / (count - 1))));
}

/** The phases of one challenge: look, then each move in the server's order, with a look back between moves. */
export function capturePlan(moves: readonly ChallengeMove[]): CapturePhase[] {
  if (moves.length === 0) throw new Error('Expected a challenge with at least one move, got none');
  const phases: CapturePhase[] = [
    {
      prompt: 'look',
      step: 0,
      move: null,
      durationMs: CAPTURE_TIMING.lookMs,
      frameAtMs: frameTimes(LIVENESS_CAPTURE.baselineFrames, CAPTURE_TIMING.lookMs),
    },
  ];
  for (const [index, move] of moves.entries()) {
    if (index > 0) phases.push({ prompt: 'back', step: null, move: null, durationMs: CAPTURE_TIMING.backMs, frameAtMs: [] });
    phases.push({
      prompt: move,
      step: index + 1,
      move,
      durationMs: LIVENESS_CAPTURE.moveMs,
      frameAtMs: frameTimes(LIVENESS_CAPTURE.framesPerMove, LIVENESS_CAPTURE.moveMs),
    });
  }
  return phases;
}

/** Frames of one challenge in capture order, each with its step: what a submission's selfie parts carry. */
export interface ChallengeFrames {
  challengeId: string;
  frames: readonly Blob[];
  steps: readonly number[];
}

/** The `selfieSteps` text field (protocol/src/checks.ts): "0,0,1,1,1,2,2,2". */
export function selfieStepsField(steps: readonly number[]): string {
  return steps.join(',');
}

/** The clock of a capture; the browser's by default, moved by hand in tests. */
export interface CaptureClock {
  now(): number;
  /** Resolves after `ms`; rejects when `signal` aborts. */
  wait(ms: number, signal?: AbortSignal): Promise<void>;
}

export const browserClock: CaptureClock = {
  now: () => performance.now(),
  wait: (ms, signal) =>
    new Promise((resolve, reject) => {
      if (signal?.aborted) {
        reject(signal.reason);
        return;
      }
      const timer = setTimeout(resolve, ms);
      signal?.addEventListener(
        'abort',
        () => {
          clearTimeout(timer);
          reject(signal.reason);
        },
        { once: true },
      );
    }),
};

export interface ChallengeCaptureOptions {
  challenge: LivenessChallenge;
  /** Takes one frame now (a JPEG of the preview). A rejection ends the capture. */
  grab(): Promise<Blob>;
  /** A phase starts: show its prompt. Called with the phase's index in the plan. */
  onPhase(phase: CapturePhase, index: number, phases: readonly CapturePhase[]): void;
  clock?: CaptureClock;
  signal?: AbortSignal;
}

/**
 * Runs the challenge's plan: shows each phase, takes its frames at their times (measured from the
 * phase's start, so a slow JPEG encoding does not push later frames out of the move) and tags them.
 * Rejects when `grab` does (the stream ended) or `signal` aborts (the screen left).
 */
export async function captureChallenge(options: ChallengeCaptureOptions): Promise<ChallengeFrames> {
  const clock = options.clock ?? browserClock;
  const phases = capturePlan(options.challenge.moves);
  const frames: Blob[] = [];
  const steps: number[] = [];
  for (const [index, phase] of phases.entries()) {
    const start = clock.now();
    options.onPhase(phase, index, phases);
    const step = phase.step;
    for (const at of step === null ? [] : phase.frameAtMs) {
      await clock.wait(Math.max(0, start + at - clock.now()), options.signal);
      frames.push(await options.grab());
      steps.push(step as number);
    }
    // The last phase ends with its last frame; the others keep their full time.
    if (index < phases.length - 1) await clock.wait(Math.max(0, start + phase.durationMs - clock.now()), options.signal);
  }
  return { challengeId: options.challenge.challengeId, frames, steps };
}
