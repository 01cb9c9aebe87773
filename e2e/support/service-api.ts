/**
 * The service's HTTP API as a merchant server (and a sandbox tester) calls it, for tests that
 * check the contract directly. Methods return Playwright's APIResponse so tests assert on status
 * and body themselves.
 */
import type { APIRequestContext, APIResponse } from '@playwright/test';
import type { TargetEnvironment } from './environment';

export type SimulatedOutcome = 'verified' | 'failed' | 'cancelled';

/** Spec "Session creation result", as far as the tests use it. */
export interface CreatedSession {
  sessionId: string;
  sessionToken: string;
  verifyUrl: string;
  expiresAt: string;
  sandboxMode: boolean;
  externalUserId: string | null;
}

export class ServiceApi {
  constructor(
    private readonly request: APIRequestContext,
    private readonly environment: TargetEnvironment,
  ) {}

  private url(path: string): string {
    return `${this.environment.serviceUrl}/api/v1${path}`;
  }

  createSession(apiKey: string, body: Record<string, unknown>): Promise<APIResponse> {
    return this.request.post(this.url('/sessions/create'), { headers: { authorization: `Bearer ${apiKey}` }, data: body });
  }

  /** Creates a session that returns to the merchant app, failing the test unless the service answers 201. */
  async createMerchantSession(apiKey: string, externalUserId = 'user-42'): Promise<CreatedSession> {
    const response = await this.createSession(apiKey, { returnUrl: `${this.environment.merchantUrl}/return`, externalUserId });
    if (response.status() !== 201) throw new Error(`POST /sessions/create answered ${response.status()}: ${await response.text()}`);
    return (await response.json()) as CreatedSession;
  }

  validate(apiKey: string, sessionId: string): Promise<APIResponse> {
    return this.request.post(this.url('/sessions/validate'), { headers: { authorization: `Bearer ${apiKey}` }, data: { sessionId } });
  }

  /** The session as the verify UI loads it (POST /verify/session), failing the test unless the service answers 200. */
  async loadSession(session: Pick<CreatedSession, 'sessionId' | 'sessionToken'>): Promise<Record<string, unknown>> {
    const response = await this.request.post(this.url('/verify/session'), { data: { sessionId: session.sessionId, sessionToken: session.sessionToken } });
    if (response.status() !== 200) throw new Error(`POST /verify/session answered ${response.status()}: ${await response.text()}`);
    return (await response.json()) as Record<string, unknown>;
  }

  /** The documented sandbox API that picks a session's outcome (docs/api.md, "The verify UI's own API"). */
  simulate(session: Pick<CreatedSession, 'sessionId' | 'sessionToken'>, outcome: SimulatedOutcome): Promise<APIResponse> {
    return this.request.post(this.url('/verify/simulate'), {
      data: { sessionId: session.sessionId, sessionToken: session.sessionToken, outcome },
    });
  }
}
