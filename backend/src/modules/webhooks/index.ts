/**
 * The webhooks module's public entry: what the rest of the service uses. The worker that every
 * backend process runs (delivery/); what the event outbox needs in the event's transaction (the
 * body bytes, routing); the operator's endpoint actions and health views (endpoints/), which the
 * CLI exposes.
 */
export { createWebhookWorker, type WebhookWorker, type WebhookWorkerDeps } from './delivery/worker';
export type { GuardOptions } from './destinations/destination-guard';
export { envelopeBody, eventData, recordTimeTimestamp, type SessionFacts } from './envelope';
export { routeEvent, routeEvents } from './routing';
export {
  addEndpoint,
  listEndpoints,
  redeliverEndpoint,
  removeEndpoint,
  setEndpointEnabled,
  setLegacyWebhook,
  updateEndpoint,
} from './endpoints/endpoint-config';
export { endpointHealth, eventAttempts, recentAttempts } from './endpoints/health';
export { testEndpoint } from './endpoints/test-endpoint';
