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
import type { FaceMeasurement } from '../faces/face-analysis';
import { faceQualityHint } from '../faces/face-quality';
import type { DecisionPolicy, EngineDecision, FrameFindings } from '../model';

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
   * Good frames needed. Absent: 1, for callers that decide on one picture (the CLI's `engine check`,
   * the single-image accuracy harness); the live check, which analyses every frame of its liveness
   * challenge, sets AGE_RULE.minGoodFrames (check-service.ts).
   */
  l1MinFrames?: number;
};

/** The first frame good enough to decide on, or the hint of the last bad one. */
export function bestFrame(frames: readonly FrameFindings[]): { face: FaceMeasurement } | { hint: RetryHint } {
  const good = goodFrames(frames);
  return 'hint' in good ? good : { face: good.faces[0]! };
}

/**
 * Every frame that passes the quality gate, in order, or the hint of the first bad one when none
 * does: a challenge's capture starts with the user looking at the camera, so the first frame's
 * problem is the one to fix (its later frames are turned on purpose).
 */
export function goodFrames(frames: readonly FrameFindings[]): { faces: FaceMeasurement[] } | { hint: RetryHint } {
  let hint: RetryHint | null = null;
  const faces: FaceMeasurement[] = [];
  for (const frame of frames) {
    const problem = 'unreadable' in frame ? 'image_unreadable' : faceQualityHint(frame);
    if (!problem && 'face' in frame && frame.face) faces.push(frame.face);
    else hint ??= problem ?? 'no_face';
  }
  return faces.length ? { faces } : { hint: hint ?? 'no_face' };
}

export interface AgeEstimateSummary {
  /** Every estimate: each frame's views, or its one estimate where views were not asked for. */
  estimates: number[];
  /** Each frame's highest view, left out as that frame's one outlier (frames with fewer than 3 views keep all). */
  dropped: number[];
  /** The lowest and highest estimate kept. */
  lowest: number;
  spread: number;
}

/**
 * The conservative statistic of issue 19: the lowest estimate of all, and the spread of what is
 * kept once each frame's highest view is left out. A low outlier is never dropped (it is the side
 * that keeps a minor out); one high view does not make an adult's views disagree. Chosen on the
 * tuning split over dropping the estimate farthest from the median, which let 10 of 93 under-25s
 * pass at challengeAge 25 against 4 of 93 (docs/verification.md "L1 on the London set: multi-frame
 * rule"). Dropped per frame rather than once over all frames: on both sets the figures are the
 * same, and a capture of several frames is not judged more harshly for one crop that reads older
 * on every frame.
 */
export function summariseEstimates(faces: readonly FaceMeasurement[]): AgeEstimateSummary {
  const estimates: number[] = [];
  const dropped: number[] = [];
  const kept: number[] = [];
  for (const face of faces) {
    const own = face.ageViews?.length ? face.ageViews : face.estimatedAge === undefined ? [] : [face.estimatedAge];
    estimates.push(...own);
    const views = [...own].sort((a, b) => a - b);
    if (views.length >= 3) dropped.push(views.pop()!);
    kept.push(...views);
  }
  kept.sort((a, b) => a - b);
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
