/** Spec "Events": the exact values of the envelope's `event` field. */
export const EVENT_KINDS = ['session.started', 'verification.completed', 'verification.failed', 'verification.cancelled', 'session.timeout'] as const;
export type EventKind = (typeof EVENT_KINDS)[number];

export function isEventKind(value: string): value is EventKind {
  return (EVENT_KINDS as readonly string[]).includes(value);
}

/** Spec "Events", envelope (all events). */
export interface EventEnvelope<D = Record<string, unknown>> {
  event: EventKind;
  timestamp: string;
  tenantId: string;
  test: boolean;
  data: D;
}
