/**
 * Whether the backend under test has the verification engine's route (POST /api/v1/verify/checks,
 * protocol/src/checks.ts). The live-*.spec.ts journeys need it; before the engine branch is merged
 * the route does not exist and the backend's unknown-route answer is `404 Cannot POST …`
 * (backend/src/http/error-handling.ts). Only that exact answer counts as "absent": any other status
 * (400 for this empty body, 401, 415 …) means the route is there and the specs run.
 */
import type { APIRequestContext } from '@playwright/test';

export async function engineAvailable(request: APIRequestContext, serviceUrl: string): Promise<boolean> {
  const response = await request.post(`${serviceUrl}/api/v1/verify/checks`, { data: {} });
  if (response.status() !== 404) return true;
  const body = (await response.json().catch(() => null)) as { message?: unknown } | null;
  return !(typeof body?.message === 'string' && body.message.startsWith('Cannot POST'));
}

export const ENGINE_MISSING = 'The verification engine is not on this branch: POST /api/v1/verify/checks answers "404 Cannot POST".';

/**
 * A journey that checks what the engine decides (a still photo, a stranger's selfie, a licence's
 * two sides), which is the same whatever database holds the session: it runs on the pglite
 * project only (playwright.config.ts). Each live spec keeps one journey that runs on both.
 */
export const ENGINE_DECISION = { tag: '@engine-decision' };
