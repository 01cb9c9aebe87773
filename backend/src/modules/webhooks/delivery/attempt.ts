/**
 * One attempt to one destination: check the destination again (spec Authentication 9: at
 * connection time, on every attempt and retry), connect to the checked address only, POST the
 * fixed body bytes with this attempt's signatures, and classify what happened. No database here.
 */
import { checkDestination, type GuardOptions } from '../destinations/destination-guard';
import { postPinned, trustedCas } from '../destinations/pinned-https-client';
import { signatureHeaders } from '../signing';
import type { AttemptResult } from './retry-policy';

export const USER_AGENT = 'AgeVerify-Webhooks/1.0';

export interface AttemptInput {
  url: string;
  eventId: string;
  /** The event's fixed body bytes (events.body). */
  body: string;
  secret: string;
  /** Signing time of this attempt (webhook-timestamp), from the injected clock. */
  sentAt: Date;
}

/** Spec Authentication 8: signing is active when a secret is configured (a migrated legacy webhook may have none). */
function signingHeaders(input: AttemptInput, body: Uint8Array): Record<string, string> {
  const timestampSeconds = Math.floor(input.sentAt.getTime() / 1000);
  if (!input.secret) return { 'webhook-id': input.eventId, 'webhook-timestamp': String(timestampSeconds) };
  return signatureHeaders({ secret: input.secret, eventId: input.eventId, timestampSeconds, body });
}

function withTimeout<T>(promise: Promise<T>, ms: number): Promise<T | 'timeout'> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  return Promise.race([promise, new Promise<'timeout'>((resolve) => (timer = setTimeout(() => resolve('timeout'), ms)))]).finally(() => clearTimeout(timer));
}

export async function attemptDelivery(
  input: AttemptInput,
  guard: GuardOptions,
  options: { timeoutMs: number; snippetBytes?: number; maxSockets?: number },
): Promise<AttemptResult> {
  const started = performance.now();
  const elapsed = () => Math.round(performance.now() - started);
  const result = (fields: Partial<AttemptResult>): AttemptResult => ({
    statusCode: null,
    errorClass: null,
    errorMessage: null,
    retryAfter: null,
    durationMs: elapsed(),
    responseSnippet: null,
    ...fields,
  });

  // DNS counts towards the 15 s: a resolver that never answers must not hold the attempt.
  const verdict = await withTimeout(checkDestination(input.url, guard), options.timeoutMs);
  if (verdict === 'timeout') return result({ errorClass: 'timeout', errorMessage: `DNS resolution took longer than ${options.timeoutMs} ms` });
  if (!verdict.ok) {
    // A name that does not resolve is a DNS failure (retried, 24 h rule); a forbidden destination is a rejection (1 h rule).
    return result({ errorClass: verdict.reason === 'dns' ? 'dns' : 'destination', errorMessage: verdict.message });
  }

  const body = new TextEncoder().encode(input.body);
  const response = await postPinned({
    url: verdict.url,
    address: verdict.addresses[0]!,
    headers: {
      'content-type': 'application/json',
      'user-agent': USER_AGENT,
      ...signingHeaders(input, body),
    },
    body,
    timeoutMs: Math.max(1, options.timeoutMs - elapsed()),
    ca: trustedCas(guard.caFile),
    caKey: guard.caFile ?? '',
    snippetBytes: options.snippetBytes,
    maxSockets: options.maxSockets,
  });
  if (response.kind === 'error') return result({ errorClass: response.errorClass, errorMessage: response.message });

  const { statusCode } = response;
  const header = (name: string) => {
    const value = response.headers[name];
    return Array.isArray(value) ? (value[0] ?? null) : (value ?? null);
  };
  if (statusCode >= 200 && statusCode < 300) return result({ statusCode, responseSnippet: response.snippet });
  if (statusCode >= 300 && statusCode < 400) {
    // Never followed: the target would need its own check, and a 307/308 would resend the signed body elsewhere.
    const location = header('location');
    return result({
      statusCode,
      errorClass: 'redirect',
      errorMessage: `redirect${location ? ` to ${location.slice(0, 200)}` : ''} not followed; configure the final URL`,
      responseSnippet: response.snippet,
    });
  }
  return result({ statusCode, errorClass: 'http', errorMessage: `HTTP ${statusCode}`, retryAfter: header('retry-after'), responseSnippet: response.snippet });
}
