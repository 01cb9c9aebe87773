/**
 * L1 decision (docs/decisions-on-open-points.md "L1 decision"): pass only when the face's estimated age clears the
 * session's challengeAge by the margin (decision 0031-l1-margin.md); otherwise the estimate is
 * inconclusive, never proof of being under age, so the user steps up to an ID document when the
 * tenant allows it, and fails with `age_not_met` when it does not. Pure: decide, then apply
 * (check-service.ts applies through the session state machine).
 *
 * Issue 19: one estimate is a screen, not proof; the minors who pass are gross errors, not near
 * misses. So the decision takes every frame that passes the quality gate and every view of each
 * (face-analysis.ts ageViews), and passes only when the lowest of them clears challengeAge + margin
 * and all but the highest agree within AGE_RULE.maxSpreadYears. Disagreement or too few good frames
 * is inconclusive. Limits and their measurements: docs/verification.md "L1 on the London set:
 * multi-frame rule".
 */
import type { RetryHint } from '@ageverify/protocol';
import type { FaceMeasurement } from './face-analysis';
import { faceQualityHint } from './face-quality';
import type { DecisionPolicy, EngineDecision, FrameFindings } from './model';

export const AGE_RULE = {
  /**
   * Frames passing the quality gate that a live L1 check needs: the check that runs a liveness
   * challenge sets it through AgePolicy.l1MinFrames. The single-image accuracy harness
   * (cli/accuracy.ts) sets 1: it measures the estimate, not the capture.
   */
  minGoodFrames: 2,
  /** Largest difference between the estimates kept (after the outlier is dropped), in years. */
  maxSpreadYears: 10,
} as const;

export type AgePolicy = Pick<DecisionPolicy, 'challengeAge' | 'l1Margin' | 'stepUpAllowed'> & {
  /**
   * Good frames needed. Absent: 1, so callers that capture one picture (the CLI's `engine check`,
   * and the live check until it analyses every frame of its challenge) keep deciding on it; the
   * live check with a challenge sets AGE_RULE.minGoodFrames.
   */
  l1MinFrames?: number;
};

/** The first frame good enough to decide on, or the hint of the last bad one. */
export function bestFrame(frames: readonly FrameFindings[]): { face: FaceMeasurement } | { hint: RetryHint } {
  const good = goodFrames(frames);
  return 'hint' in good ? good : { face: good.faces[0]! };
}

/** Every frame that passes the quality gate, in order, or the hint of the last bad one when none does. */
export function goodFrames(frames: readonly FrameFindings[]): { faces: FaceMeasurement[] } | { hint: RetryHint } {
  let hint: RetryHint = 'no_face';
  const faces: FaceMeasurement[] = [];
  for (const frame of frames) {
    if ('unreadable' in frame) {
      hint = 'image_unreadable';
      continue;
    }
    const problem = faceQualityHint(frame);
    if (!problem && frame.face) faces.push(frame.face);
    else hint = problem ?? 'no_face';
  }
  return faces.length ? { faces } : { hint };
}

export interface AgeEstimateSummary {
  /** Every estimate: each frame's views, or its one estimate where views were not asked for. */
  estimates: number[];
  /** The highest estimate, left out of the spread as the one outlier (null with fewer than 3 estimates). */
  dropped: number | null;
  /** The lowest and highest estimate kept. */
  lowest: number;
  spread: number;
}

/**
 * The conservative statistic of issue 19: the lowest estimate of all, and the spread of all but the
 * highest. A low outlier is never dropped (it is the side that keeps a minor out); one high outlier
 * does not make an adult's views disagree. Chosen on the tuning split over dropping the estimate
 * farthest from the median, which let 10 of 93 under-25s pass at challengeAge 25 against 4 of 93
 * (docs/verification.md "L1 on the London set: multi-frame rule").
 */
export function summariseEstimates(faces: readonly FaceMeasurement[]): AgeEstimateSummary {
  const estimates = faces.flatMap((face) => (face.ageViews?.length ? face.ageViews : [face.estimatedAge]));
  const sorted = [...estimates].sort((a, b) => a - b);
  // With two estimates neither is the outlier of the other: both are kept, and their spread decides.
  const dropped = sorted.length >= 3 ? sorted[sorted.length - 1]! : null;
  const kept = dropped === null ? sorted : sorted.slice(0, -1);
  return { estimates, dropped, lowest: kept[0]!, spread: kept[kept.length - 1]! - kept[0]! };
}

export function decideAgeEstimation(frames: readonly FrameFindings[], policy: AgePolicy): EngineDecision {
  const good = goodFrames(frames);
  if ('hint' in good) return { decision: 'retry', hint: good.hint, part: 'selfie' };
  // Anti-spoof and liveness are soft signals (docs/engine-notes.md "Anti-spoof and liveness are soft signals": 5–18 % of genuine selfies score
  // below 0.5, attacks unmeasured): they are reported, not decided on.
  const summary = summariseEstimates(good.faces);
  const enoughFrames = good.faces.length >= (policy.l1MinFrames ?? 1);
  const agree = summary.spread <= AGE_RULE.maxSpreadYears;
  if (enoughFrames && agree && summary.lowest >= policy.challengeAge + policy.l1Margin) return { decision: 'verified' };
  return policy.stepUpAllowed ? { decision: 'step_up' } : { decision: 'failed', reason: 'age_not_met' };
}
