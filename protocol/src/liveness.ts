/**
 * The liveness challenge (issue 19, decision 0062): a selfie is only accepted as frames of a live
 * head that followed moves the server chose. The browser only shows the moves and tags each frame
 * with the step it was taken in; the server decides (backend engine/liveness/motion-check.ts).
 *
 * Flow:
 * 1. When the selfie capture starts (an L1 check, or the selfie of a document check with face
 *    match), the verify UI calls `POST /api/v1/verify/challenges` with the session's credentials
 *    (`VerifyCredentials`) and gets a `LivenessChallenge`. Asking again replaces the earlier one.
 * 2. It captures `LIVENESS_CAPTURE.baselineFrames` frames while the user looks at the camera
 *    (step 0), then, for each move in order, `LIVENESS_CAPTURE.framesPerMove` frames while the user
 *    makes it (step k for `moves[k - 1]`).
 * 3. It sends them all as `selfie` parts, in capture order, with the text fields `challengeId` and
 *    `selfieSteps` (the step of each selfie part, comma-separated: "0,0,1,1,1,2,2,2").
 *
 * A challenge is used once and only before `expiresAt`: a replayed, superseded or late one is
 * refused with 409 (`CHALLENGE_ERROR_CODES`) and the UI asks for a new one. A challenge the frames
 * did not follow is a `retry` with hint `challenge_not_followed` (or `face_changed` when the face in
 * the frames is not one person), counted like every other retry.
 */

/** Turns of the head, in the user's own terms: `left` is the user's left (decision 0054). */
export const CHALLENGE_MOVES = ['left', 'right'] as const;
export type ChallengeMove = (typeof CHALLENGE_MOVES)[number];

/** `POST /api/v1/verify/challenges` answers this. */
export interface LivenessChallenge {
  challengeId: string;
  /** The moves after the first step ("look at the camera"), in the order the user makes them. */
  moves: ChallengeMove[];
  /** ISO 8601: the check must be submitted before this. */
  expiresAt: string;
}

export const LIVENESS_CAPTURE = {
  /** Frames of step 0, the user looking at the camera. */
  baselineFrames: 2,
  /** Frames of each move's step. */
  framesPerMove: 3,
  /** How long the UI gives each move (the prompt shows, the user turns, frames are taken). */
  moveMs: 3000,
  /** How long a challenge stays valid after it is issued: the capture plus the upload. */
  ttlSeconds: 90,
} as const;

/** Error codes of a refused challenge: the UI asks for a new challenge and captures again. */
export const CHALLENGE_ERROR_CODES = ['CHALLENGE_REQUIRED', 'CHALLENGE_NOT_CURRENT', 'CHALLENGE_EXPIRED'] as const;
export type ChallengeErrorCode = (typeof CHALLENGE_ERROR_CODES)[number];

/** Parses a `selfieSteps` field; null when it is not a comma-separated list of step numbers. */
export function parseSelfieSteps(text: string): number[] | null {
  if (!/^\d{1,2}(,\d{1,2})*$/.test(text)) return null;
  return text.split(',').map(Number);
}
