/**
 * L1 decision (docs/decisions-on-open-points.md "L1 decision"): pass only when the face's estimated age clears the
 * session's challengeAge by the margin (decision 0031-l1-margin.md); otherwise the estimate is
 * inconclusive, never proof of being under age, so the user steps up to an ID document when the
 * tenant allows it, and fails with `age_not_met` when it does not. Pure: decide, then apply
 * (check-service.ts applies through the session state machine).
 */
import type { RetryHint } from '@ageverify/protocol';
import type { FaceMeasurement } from './face-analysis';
import { faceQualityHint } from './face-quality';
import type { DecisionPolicy, EngineDecision, FrameFindings } from './model';

/** The first frame good enough to decide on, or the hint of the last bad one. */
export function bestFrame(frames: readonly FrameFindings[]): { face: FaceMeasurement } | { hint: RetryHint } {
  let hint: RetryHint = 'no_face';
  for (const frame of frames) {
    if ('unreadable' in frame) {
      hint = 'image_unreadable';
      continue;
    }
    const problem = faceQualityHint(frame);
    if (!problem && frame.face) return { face: frame.face };
    hint = problem ?? 'no_face';
  }
  return { hint };
}

export function decideAgeEstimation(
  frames: readonly FrameFindings[],
  policy: Pick<DecisionPolicy, 'challengeAge' | 'l1Margin' | 'stepUpAllowed'>,
): EngineDecision {
  const best = bestFrame(frames);
  if ('hint' in best) return { decision: 'retry', hint: best.hint, part: 'selfie' };
  // Anti-spoof and liveness are soft signals (docs/engine-notes.md "Anti-spoof and liveness are soft signals": 5–18 % of genuine selfies score
  // below 0.5, attacks unmeasured): they are reported, not decided on.
  if (best.face.estimatedAge >= policy.challengeAge + policy.l1Margin) return { decision: 'verified' };
  return policy.stepUpAllowed ? { decision: 'step_up' } : { decision: 'failed', reason: 'age_not_met' };
}
