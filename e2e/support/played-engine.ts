/**
 * The verify UI's backend answers played by page.route, for the specs that check the page's side of
 * the live check (the contract spec, the language spec): every liveness challenge the page asks for
 * (protocol/src/liveness.ts) and the engine's answers to its submissions (protocol/src/checks.ts),
 * with what the page sent recorded. The same journeys against the real engine are in live-*.spec.ts.
 */
import { expect, type Page, type Route } from '@playwright/test';
import { CHECK_LIMITS, LIVENESS_CAPTURE, type ChallengeMove, type CheckResult, type LivenessChallenge } from '../../protocol/src/index';
import { readSubmission, type SubmittedCheck } from './check-submissions';

export interface PlayedEngine {
  submissions: SubmittedCheck[];
  /** The challenges POST /verify/challenges gave, in order. */
  challenges: LivenessChallenge[];
  /** The bodies of those requests (the page's credentials). */
  challengeRequests: Array<Record<string, string>>;
}

/** The moves of the n-th challenge (0-based): both orders, so the page cannot assume one. */
export const movesOf = (n: number): ChallengeMove[] => (n % 2 === 0 ? ['left', 'right'] : ['right', 'left']);

/**
 * Answers POST /verify/challenges with a new challenge each time and POST /verify/checks with the
 * given results in turn, and records what the page sent.
 */
export async function playEngine(page: Page, answers: Array<CheckResult | { status: number; body: unknown }>): Promise<PlayedEngine> {
  const played: PlayedEngine = { submissions: [], challenges: [], challengeRequests: [] };
  await page.route('**/api/v1/verify/challenges', async (route: Route) => {
    played.challengeRequests.push(route.request().postDataJSON() as Record<string, string>);
    const challenge: LivenessChallenge = {
      challengeId: `chl_e2e_${played.challenges.length + 1}`,
      moves: movesOf(played.challenges.length),
      expiresAt: new Date(Date.now() + LIVENESS_CAPTURE.ttlSeconds * 1000).toISOString(),
    };
    played.challenges.push(challenge);
    await route.fulfill({ status: 200, contentType: 'application/json', body: JSON.stringify(challenge) });
  });
  await page.route('**/api/v1/verify/checks', async (route: Route) => {
    played.submissions.push(await readSubmission(route.request()));
    const answer = answers.shift();
    if (!answer) throw new Error('The page sent more submissions than the test expected');
    if ('decision' in answer) await route.fulfill({ status: 200, contentType: 'application/json', body: JSON.stringify(answer) });
    else await route.fulfill({ status: answer.status, contentType: 'application/json', body: JSON.stringify(answer.body) });
  });
  return played;
}

/** The selfie parts of one challenge: every frame of the capture, JPEG, and the challenge's id and steps beside them. */
export function expectChallengeFrames(submission: SubmittedCheck | undefined, challenge: LivenessChallenge | undefined): void {
  if (!challenge) throw new Error('Expected a challenge the page asked for, got none');
  const selfie = submission?.images.filter((image) => image.name === 'selfie') ?? [];
  expect(selfie).toHaveLength(CHECK_LIMITS.maxSelfieFrames);
  for (const [index, image] of selfie.entries()) {
    expect(image.type).toBe('image/jpeg');
    expect(image.filename).toBe(`selfie-${index + 1}.jpg`);
    expect(image.bytes).toBeLessThanOrEqual(CHECK_LIMITS.maxImageBytes);
    expect(Math.max(image.width ?? Infinity, image.height ?? Infinity)).toBeLessThanOrEqual(960);
  }
  const steps = [
    ...Array<number>(LIVENESS_CAPTURE.baselineFrames).fill(0),
    ...challenge.moves.flatMap((_, move) => Array<number>(LIVENESS_CAPTURE.framesPerMove).fill(move + 1)),
  ];
  expect(submission?.fields).toMatchObject({ challengeId: challenge.challengeId, selfieSteps: steps.join(',') });
  // Text fields before any image, so the server can refuse a bad challenge before reading a frame.
  const order = submission?.order ?? [];
  expect(order.indexOf('selfieSteps')).toBeLessThan(order.indexOf('selfie'));
}
