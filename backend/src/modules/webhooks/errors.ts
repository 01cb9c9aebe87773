/**
 * Error codes of webhook endpoint configuration, redelivery, resend and test (spec "Webhook endpoint",
 * "Limits", Delivery rules 10–12). The messages name values, never CLI flags: the CLI rewords the
 * codes whose words depend on its syntax (cli/cli-wording.ts). A key pair that does not exist is
 * the tenants module's KEY_PAIR_NOT_FOUND.
 */
import { defineErrors } from '../../errors/app-error';

export const WEBHOOK_ERRORS = defineErrors({
  EVENTS_REQUIRED: { status: 400, message: (p: { kinds: readonly string[] }) => `events must name at least one of: ${p.kinds.join(', ')}` },
  TOO_MANY_EVENTS: { status: 400, message: (p: { max: number; count: number }) => `an endpoint subscribes to at most ${p.max} events, got ${p.count}` },
  UNKNOWN_EVENT_KINDS: {
    status: 400,
    message: (p: { unknown: string[]; kinds: readonly string[] }) => `unknown event kind(s) ${p.unknown.join(', ')}; use: ${p.kinds.join(', ')}`,
  },
  /** Authentication 9: webhooks/destinations/destination-guard.ts says why the URL is refused. */
  DESTINATION_REFUSED: { status: 400, message: (p: { reason: string }) => p.reason },
  TOO_MANY_ENDPOINTS: {
    status: 409,
    message: (p: { tenantId: string; max: number }) => `tenant ${p.tenantId} already has ${p.max} webhook endpoints, the maximum`,
  },
  /** Without a tenant when only the endpoint id is known (a redelivery racing a removal). */
  ENDPOINT_NOT_FOUND: {
    status: 404,
    message: (p: { tenantId?: string; endpointId: string }) =>
      p.tenantId ? `tenant ${p.tenantId} has no webhook endpoint "${p.endpointId}"` : `no webhook endpoint "${p.endpointId}"`,
  },
  EVENT_NOT_FOUND: { status: 404, message: (p: { tenantId: string; eventId: string }) => `tenant ${p.tenantId} has no event "${p.eventId}"` },
  NOTHING_TO_CHANGE: { status: 400, message: 'nothing to change: give a url, events or a pairId' },
  LEGACY_ENDPOINT_NOT_EDITABLE: { status: 409, message: 'the legacy webhook is migrated by creating the first endpoint; edit it after that' },
  ENDPOINT_DISABLED: { status: 409, message: (p: { endpointId: string }) => `endpoint ${p.endpointId} is disabled; enable it first` },
  /** Delivery rule 10: a Disabled or Paused endpoint does not deliver, so a redelivery could send nothing. */
  REDELIVERY_ENDPOINT_DISABLED: {
    status: 409,
    message: (p: { endpointId: string }) => `endpoint ${p.endpointId} is disabled; enable it first, then redeliver`,
  },
  REDELIVERY_ENDPOINT_PAUSED: {
    status: 409,
    message: (p: { endpointId: string }) => `endpoint ${p.endpointId} is paused; use test and resume first, then redeliver`,
  },
  /** Resending one event: the endpoint has no delivery of it (webhook_deliveries is per event and endpoint). */
  DELIVERY_NOT_FOUND: { status: 404, message: (p: { eventId: string }) => `no delivery of event "${p.eventId}" to this endpoint` },
  /** Resending one event: a pending delivery is still being attempted; it is resent once settled. */
  DELIVERY_PENDING: { status: 409, message: (p: { eventId: string }) => `event ${p.eventId} is still being delivered; wait for it to settle` },
  /** Delivery rule 12: once an endpoint exists, events go to endpoints. */
  LEGACY_WEBHOOK_SUPERSEDED: {
    status: 409,
    message: (p: { tenantId: string }) => `tenant ${p.tenantId} has webhook endpoints; the legacy webhook no longer applies`,
  },
  SIGNING_SECRET_REQUIRED: { status: 400, message: 'a signing secret is required' },
});
