import { html, nothing } from 'lit';
import type { CreateEndpointRequest, CreateEndpointResponse, KeyPairView, KeyPairsResponse, WebhooksResponse } from '@ageverify/protocol';
import type { SecretItem } from './dash-secret';
import { healthBadge, stateBadge } from './endpoint-state';
import { formatDateTime, formatNumber } from './format';
import { i18n } from './i18n';
import { routeHref } from './router';
import { DashScreen } from './screen-base';
import { baseStyles } from './styles';
import { SubmitController } from './submit-controller';

/**
 * Webhook endpoints (issue 12, item 5): the list with each endpoint's state and health, the legacy
 * single webhook while it still applies, and the form that creates an endpoint (at most 20).
 */
export class DashWebhooks extends DashScreen {
  static override properties = {
    data: { state: true },
    pairs: { state: true },
    creating: { state: true },
    created: { state: true },
  };
  static override styles = [baseStyles];

  data: WebhooksResponse | null = null;
  pairs: KeyPairView[] = [];
  creating = false;
  created: CreateEndpointResponse | null = null;
  private readonly submission = new SubmitController(this);

  protected async load(): Promise<void> {
    const [data, keys] = await Promise.all([this.call<WebhooksResponse>('GET', '/webhooks'), this.call<KeyPairsResponse>('GET', '/keys')]);
    this.data = data;
    this.pairs = keys.pairs;
  }

  override render() {
    const data = this.data;
    const full = data ? data.endpoints.length >= data.limit : false;
    return html`<h1 tabindex="-1">${i18n.t('webhooks.title')}</h1>
      <p>${i18n.t('webhooks.intro')}</p>
      ${this.renderLoadState()}
      ${data?.legacy ? this.renderLegacy(data) : nothing}
      ${this.created ? this.renderCreated(this.created) : nothing}
      ${
        data
          ? html`<div class="actions">
            <button type="button" ?disabled=${full || this.creating} @click=${this.openForm} aria-describedby="endpoint-count">${i18n.t('webhooks.add')}</button>
            <span id="endpoint-count" class="muted">${i18n.t('webhooks.count', { count: data.endpoints.length, limit: data.limit })}${full ? ` ${i18n.t('webhooks.full')}` : ''}</span>
          </div>`
          : nothing
      }
      ${
        this.creating
          ? html`<section class="card" aria-labelledby="create-heading">
            <h2 id="create-heading" tabindex="-1">${i18n.t('webhooks.createTitle')}</h2>
            <dash-endpoint-form
              .pairs=${this.pairs}
              .submitLabel=${i18n.t('webhooks.create')}
              .problem=${this.submission.problem}
              .busy=${this.submission.busy}
              cancellable
              @dash-endpoint-submit=${this.create}
              @dash-endpoint-cancel=${() => {
                this.creating = false;
                this.submission.problem = null;
              }}
            ></dash-endpoint-form>
          </section>`
          : nothing
      }
      ${data && data.endpoints.length > 0 ? this.renderTable(data) : nothing}
      ${data && data.endpoints.length === 0 && !this.creating ? html`<p class="muted">${i18n.t('webhooks.none')}</p>` : nothing}
      ${data && data.endpoints.length > 0 ? html`<dash-delivery-traffic .tenantId=${this.tenantId}></dash-delivery-traffic>` : nothing}`;
  }

  private renderLegacy(data: WebhooksResponse) {
    const legacy = data.legacy!;
    return html`<section class="card" aria-labelledby="legacy-heading" data-testid="legacy-webhook">
      <h2 id="legacy-heading">${i18n.t('webhooks.legacyTitle')}</h2>
      <p><code>${legacy.url}</code></p>
      <p class="muted">${i18n.t('webhooks.legacyEvents', { events: legacy.events.join(', ') })}</p>
      <p>${i18n.t('webhooks.legacyExplained')}</p>
    </section>`;
  }

  private renderCreated(created: CreateEndpointResponse) {
    const items: SecretItem[] = [{ label: i18n.t('webhooks.signingSecret'), value: created.secret, once: true, testId: 'new-signing-secret' }];
    return html`<dash-secret .heading=${i18n.t('webhooks.createdTitle', { url: created.endpoint.url })} .items=${items} @dash-dismiss=${() => (this.created = null)}></dash-secret>`;
  }

  private renderTable(data: WebhooksResponse) {
    return html`<div class="table-wrap">
      <table>
        <caption class="visually-hidden">${i18n.t('webhooks.title')}</caption>
        <thead>
          <tr>
            <th scope="col">${i18n.t('webhooks.url')}</th>
            <th scope="col">${i18n.t('webhooks.stateLabel')}</th>
            <th scope="col">${i18n.t('webhooks.healthLabel')}</th>
            <th scope="col">${i18n.t('webhooks.lastSuccess')}</th>
            <th scope="col">${i18n.t('webhooks.undelivered')}</th>
            <th scope="col">${i18n.t('webhooks.paused')}</th>
          </tr>
        </thead>
        <tbody>
          ${data.endpoints.map(
            (endpoint) => html`<tr data-endpoint-id=${endpoint.endpointId}>
              <td><a href=${routeHref('webhooks', endpoint.endpointId)}>${endpoint.url}</a></td>
              <td>${stateBadge(endpoint)}</td>
              <td>${healthBadge(endpoint)}</td>
              <td>${formatDateTime(endpoint.lastSuccessAt)}</td>
              <td>${formatNumber(endpoint.undelivered)}</td>
              <td>${endpoint.pausedAt ? html`${formatDateTime(endpoint.pausedAt)}<br /><span class="muted">${endpoint.pauseReason ?? ''}</span>` : '—'}</td>
            </tr>`,
          )}
        </tbody>
      </table>
    </div>`;
  }

  private async openForm(): Promise<void> {
    this.creating = true;
    this.submission.problem = null;
    await this.updateComplete;
    this.renderRoot.querySelector<HTMLElement>('#create-heading')?.focus();
  }

  private create(event: CustomEvent<CreateEndpointRequest>): Promise<void> {
    return this.submission.run(async () => {
      this.created = await this.call<CreateEndpointResponse>('POST', '/webhooks', event.detail);
      this.creating = false;
      this.data = await this.call<WebhooksResponse>('GET', '/webhooks');
    });
  }
}

declare global {
  interface HTMLElementTagNameMap {
    'dash-webhooks': DashWebhooks;
  }
}
