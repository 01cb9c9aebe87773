/**
 * Live (non-sandbox) sessions for the live-*.spec.ts journeys: created with the live tenant's
 * secret key, as a merchant server does (a publishable key may only make the policy stricter),
 * returning to the example merchant's /return page. The merchant app is wired to the sandbox
 * tenant, so these specs validate with the live secret key through the API themselves.
 */
import { expect } from '@playwright/test';
import type { TargetEnvironment } from './environment';
import type { ServiceApi } from './service-api';

export interface LiveSession {
  sessionId: string;
  sessionToken: string;
  verifyUrl: string;
}

export async function createLiveSession(api: ServiceApi, environment: TargetEnvironment, options: Record<string, unknown> = {}): Promise<LiveSession> {
  const response = await api.createSession(environment.live.secretKey, {
    returnUrl: `${environment.merchantUrl}/return`,
    externalUserId: 'user-42',
    merchantName: 'Live Shop',
    ...options,
  });
  expect(response.status(), await response.text()).toBe(201);
  return (await response.json()) as LiveSession;
}

export function withParams(url: string, params: Record<string, string>): string {
  const target = new URL(url);
  for (const [name, value] of Object.entries(params)) target.searchParams.set(name, value);
  return target.href;
}

/** Spec "End-user redirect and callback": exactly these parameters, timestamp in ms. */
export function expectCallback(callback: URL, sessionId: string, status: 'verified' | 'failed' | 'cancelled'): void {
  expect([...callback.searchParams.keys()].sort()).toEqual(['externalUserId', 'sessionId', 'status', 'timestamp']);
  expect(callback.searchParams.get('sessionId')).toBe(sessionId);
  expect(callback.searchParams.get('status')).toBe(status);
  expect(callback.searchParams.get('externalUserId')).toBe('user-42');
  const timestamp = Number(callback.searchParams.get('timestamp'));
  expect(timestamp).toBeGreaterThan(Date.now() - 10 * 60_000);
  expect(timestamp).toBeLessThanOrEqual(Date.now());
}
