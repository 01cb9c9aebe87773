/** How an endpoint's state and health are shown: a word and a colour class (never colour alone). */
import { html } from 'lit';
import type { Endpoint } from '@ageverify/protocol';
import { i18n } from './i18n';

const STATE_CLASS: Record<Endpoint['state'], string> = { active: 'ok', retrying: 'warn', paused: 'bad', disabled: 'neutral' };
const HEALTH_CLASS: Record<Endpoint['health'], string> = { healthy: 'ok', degraded: 'warn', failing: 'bad', paused: 'bad', disabled: 'neutral' };

export function stateBadge(endpoint: Endpoint) {
  return html`<span class="badge ${STATE_CLASS[endpoint.state]}" data-testid="endpoint-state">${i18n.t(`webhooks.state.${endpoint.state}`)}</span>`;
}

export function healthBadge(endpoint: Endpoint) {
  return html`<span class="badge ${HEALTH_CLASS[endpoint.health] ?? 'neutral'}">${i18n.t(`webhooks.health.${endpoint.health}`)}</span>`;
}
