/**
 * Webhook delivery settings, each with its default and where it comes from (svix habit: one
 * commented defaults file). The spec fixes most values (spec "Limits", "Events" delivery rules);
 * the few it calls "configured" have the spec's default here. Tests shrink only the timing knobs
 * that would otherwise need real waiting (attempt timeout), never the time rules: those move
 * through an injected clock.
 */
export interface WebhookSettings {
  /** Spec "Webhook delivery request" / "Limits": each attempt times out after 15 seconds (DNS, connect, TLS, response). */
  attemptTimeoutMs: number;
  /** Spec Delivery rule 7 / "Limits": Retry-After on 429 and 503 is honoured up to one hour. */
  retryAfterCapMs: number;

  /** Spec Delivery rule 3: completion retries use capped exponential backoff from this first delay… */
  completionFirstDelayMs: number;
  /** …never more than 10 minutes between attempts… */
  completionMaxDelayMs: number;
  /** …for up to 24 hours; then the event is recorded as not delivered. */
  deliveryWindowMs: number;
  /** The last attempt is scheduled at the deadline itself; a queued row is given up this long after it, so a poll a moment late does not skip that attempt. */
  expiryGraceMs: number;

  /** Spec Delivery rule 4: timeout notifications use the configured attempt count (default 3)… */
  timeoutAttempts: number;
  /** …with exponential delay scheduled at 5-second granularity (5 s, 10 s, 20 s, … on 5 s boundaries). */
  timeoutGranularityMs: number;

  /** Spec Delivery rule 5: other kinds use the configured in-request sequence (default 3 attempts)… */
  inRequestAttempts: number;
  /** …with these short pauses between attempts (the last value repeats). Rejections are not retried. */
  inRequestDelaysMs: number[];

  /** Spec "Webhook endpoint delivery", Active → Retrying on "repeated delivery failures": this many in a row. */
  failuresToRetrying: number;
  /** While Retrying, the one request at a time follows capped exponential backoff from this delay… */
  endpointFirstDelayMs: number;
  /** …up to this gap, which keeps completions within rule 3's "at most 10 minutes between attempts". */
  endpointMaxDelayMs: number;
  /** Spec: Retrying → Paused after rejections (401, 403, 404, 410, non-public destination) lasting at least 1 hour… */
  pauseAfterRejectionsMs: number;
  /** …or other failures (5xx, timeout, connection, TLS, DNS) lasting at least 24 hours. */
  pauseAfterFailuresMs: number;

  /** Spec Delivery rule 10: redeliver sends events from the last 7 days… */
  redeliverWindowMs: number;
  /** …in batches of up to 500. */
  redeliverBatchSize: number;

  /** A claim is leased this long; a worker that dies mid-send loses it and another instance re-sends (at-least-once). Must exceed attemptTimeoutMs. */
  leaseMs: number;
  /** Deliveries claimed per transaction. */
  claimBatchSize: number;
  /** Requests in flight per worker (all endpoints together). WEBHOOK_MAX_IN_FLIGHT. */
  maxInFlight: number;
  /**
   * Requests in flight per worker to one Active endpoint. The spec leaves Active pacing open
   * ("normal pacing"); a Retrying endpoint gets one request at a time whatever this says (rule 6).
   * The pinned client keeps as many connections to the destination. WEBHOOK_MAX_IN_FLIGHT_PER_ENDPOINT.
   */
  maxInFlightPerEndpoint: number;
  /** The worker wakes on NOTIFY; this poll is the fallback (and catches retries falling due). */
  pollIntervalMs: number;
  /** Bytes of a receiver's response kept with the attempt for the dashboard. */
  responseSnippetBytes: number;

  /**
   * Retention (issue 14, docs/decisions/0033): delivered deliveries settled longer ago than this go,
   * with their attempts; so do events older than this with no delivery left. Undelivered and
   * pending rows are never removed (they stay redeliverable, rule 10). At least the 7-day
   * redelivery window. WEBHOOK_RETENTION_DAYS.
   */
  retentionMs: number;
  /** Rows removed per statement, so a large backlog never holds locks or a transaction for long. */
  retentionBatchSize: number;
  /** How often the worker's housekeeping runs the retention. */
  retentionIntervalMs: number;
}

export const DEFAULT_WEBHOOK_SETTINGS: Readonly<WebhookSettings> = Object.freeze({
  attemptTimeoutMs: 15_000,
  retryAfterCapMs: 60 * 60 * 1000,
  completionFirstDelayMs: 5_000,
  completionMaxDelayMs: 10 * 60 * 1000,
  deliveryWindowMs: 24 * 60 * 60 * 1000,
  expiryGraceMs: 60_000,
  timeoutAttempts: 3,
  timeoutGranularityMs: 5_000,
  inRequestAttempts: 3,
  inRequestDelaysMs: [1_000, 2_000],
  failuresToRetrying: 2,
  endpointFirstDelayMs: 5_000,
  endpointMaxDelayMs: 10 * 60 * 1000,
  pauseAfterRejectionsMs: 60 * 60 * 1000,
  pauseAfterFailuresMs: 24 * 60 * 60 * 1000,
  redeliverWindowMs: 7 * 24 * 60 * 60 * 1000,
  redeliverBatchSize: 500,
  leaseMs: 60_000,
  claimBatchSize: 50,
  maxInFlight: 64,
  maxInFlightPerEndpoint: 32,
  pollIntervalMs: 1_000,
  responseSnippetBytes: 512,
  retentionMs: 30 * 24 * 60 * 60 * 1000,
  retentionBatchSize: 1_000,
  retentionIntervalMs: 60_000,
});

export function webhookSettings(overrides: Partial<WebhookSettings> = {}): WebhookSettings {
  const settings = { ...DEFAULT_WEBHOOK_SETTINGS, ...overrides };
  if (settings.leaseMs <= settings.attemptTimeoutMs) {
    throw new Error(`webhook leaseMs (${settings.leaseMs}) must exceed attemptTimeoutMs (${settings.attemptTimeoutMs}), or a slow attempt would be sent twice`);
  }
  if (settings.timeoutAttempts < 1 || settings.inRequestAttempts < 1) throw new Error('webhook attempt counts must be at least 1');
  if (settings.maxInFlight < 1 || settings.maxInFlightPerEndpoint < 1 || settings.claimBatchSize < 1) {
    throw new Error('webhook maxInFlight, maxInFlightPerEndpoint and claimBatchSize must be at least 1');
  }
  if (settings.retentionMs < settings.redeliverWindowMs) {
    throw new Error(`webhook retentionMs (${settings.retentionMs}) must be at least the redelivery window (${settings.redeliverWindowMs})`);
  }
  return settings;
}
