import { LitElement, html, nothing } from 'lit';
import { EVENT_KINDS, type CreateEndpointRequest, type Endpoint, type EventKind, type KeyPairView } from '@ageverify/protocol';
import { i18n } from './i18n';
import { baseStyles } from './styles';

/**
 * The fields of a webhook endpoint, for creating one and editing one: its HTTPS URL (checked by the
 * service's destination guard when submitted), the event kinds it receives and an optional key pair
 * whose sessions it is limited to.
 *
 * @fires dash-endpoint-submit - detail: CreateEndpointRequest.
 * @fires dash-endpoint-cancel - The form was closed without saving.
 */
export class DashEndpointForm extends LitElement {
  static override properties = {
    endpoint: { attribute: false },
    pairs: { attribute: false },
    submitLabel: { type: String },
    problem: { type: String },
    busy: { type: Boolean },
    cancellable: { type: Boolean },
    eventsMissing: { state: true },
  };
  static override styles = [baseStyles];

  endpoint: Endpoint | null = null;
  pairs: KeyPairView[] = [];
  submitLabel = '';
  problem: string | null = null;
  busy = false;
  cancellable = false;
  eventsMissing = false;

  override render() {
    const selected = new Set<EventKind>(this.endpoint?.events ?? EVENT_KINDS);
    const activePairs = this.pairs.filter((pair) => pair.revokedAt === null || pair.pairId === this.endpoint?.pairId);
    return html`<form @submit=${this.submit} novalidate>
      <div class="field">
        <label for="url">${i18n.t('webhooks.url')}</label>
        <input
          id="url"
          name="url"
          type="url"
          required
          placeholder="https://shop.example.com/webhooks/ageverify"
          .value=${this.endpoint?.url ?? ''}
          aria-describedby="url-hint ${this.problem ? 'endpoint-error' : ''}"
          aria-invalid=${this.problem ? 'true' : 'false'}
        />
        <span id="url-hint" class="muted">${i18n.t('webhooks.urlHint')}</span>
      </div>
      <fieldset aria-describedby=${this.eventsMissing ? 'events-error' : nothing}>
        <legend>${i18n.t('webhooks.events')}</legend>
        ${EVENT_KINDS.map(
          (kind) => html`<label><input type="checkbox" name="events" value=${kind} ?checked=${selected.has(kind)} /> <code>${kind}</code></label>`,
        )}
        ${this.eventsMissing ? html`<p id="events-error" class="error" role="alert">${i18n.t('webhooks.eventsMissing')}</p>` : nothing}
      </fieldset>
      <div class="field">
        <label for="pairId">${i18n.t('webhooks.pair')}</label>
        <select id="pairId" name="pairId" aria-describedby="pair-hint">
          <option value="" ?selected=${!this.endpoint?.pairId}>${i18n.t('webhooks.allPairs')}</option>
          ${activePairs.map(
            (pair) =>
              html`<option value=${pair.pairId} ?selected=${pair.pairId === this.endpoint?.pairId}>
                ${pair.sandbox ? i18n.t('keys.sandbox') : i18n.t('keys.live')} · ${pair.publishableKey}
              </option>`,
          )}
        </select>
        <span id="pair-hint" class="muted">${i18n.t('webhooks.pairHint')}</span>
      </div>
      ${this.problem ? html`<p id="endpoint-error" class="error" role="alert">${this.problem}</p>` : nothing}
      <div class="actions">
        <button type="submit" ?disabled=${this.busy}>${this.submitLabel}</button>
        ${this.cancellable ? html`<button type="button" class="secondary" @click=${this.cancel}>${i18n.t('common.cancel')}</button>` : nothing}
      </div>
    </form>`;
  }

  private submit(event: Event): void {
    event.preventDefault();
    const data = new FormData(event.target as HTMLFormElement);
    const events = data.getAll('events').filter((value): value is EventKind => (EVENT_KINDS as readonly unknown[]).includes(value));
    this.eventsMissing = events.length === 0;
    if (this.eventsMissing) return;
    const pairId = String(data.get('pairId') ?? '');
    const detail: CreateEndpointRequest = { url: String(data.get('url') ?? '').trim(), events, pairId: pairId || null };
    this.dispatchEvent(new CustomEvent('dash-endpoint-submit', { detail }));
  }

  private cancel(): void {
    this.dispatchEvent(new CustomEvent('dash-endpoint-cancel'));
  }
}

declare global {
  interface HTMLElementTagNameMap {
    'dash-endpoint-form': DashEndpointForm;
  }
}
