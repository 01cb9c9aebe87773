/**
 * The webhooks module's public entry: what the rest of the service uses. The worker that every
 * backend process runs (delivery/), the routing the event outbox calls in the event's transaction,
 * and the operator's endpoint actions and health views (endpoints/), which the CLI exposes.
 */
export { createWebhookWorker, type WebhookWorker, type WebhookWorkerDeps } from './delivery/worker';
export type { GuardOptions } from './destinations/destination-guard';
export { routeEvent } from './routing';
export {
  addEndpoint,
  listEndpoints,
  redeliverEndpoint,
  removeEndpoint,
  setEndpointEnabled,
  setLegacyWebhook,
  testEndpoint,
  updateEndpoint,
} from './endpoints/endpoint-config';
export { endpointHealth, eventAttempts, recentAttempts } from './endpoints/health';
