import { css, html, nothing } from 'lit';
import type {
  CreateEndpointRequest,
  DeliveriesResponse,
  DeliveryView,
  Endpoint,
  KeyPairView,
  KeyPairsResponse,
  RedeliverResponse,
  RotateSecretResponse,
  TestAndResumeResponse,
  WebhooksResponse,
} from '@ageverify/protocol';
import type { DashConfirm } from './dash-confirm';
import type { SecretItem } from './dash-secret';
import { healthBadge, stateBadge } from './endpoint-state';
import { formatDateTime, formatNumber } from './format';
import { i18n } from './i18n';
import { RedeliveryPoll } from './redelivery-poll';
import { routeHref } from './router';
import { DashScreen, errorMessage } from './screen-base';
import { baseStyles } from './styles';
import { SubmitController } from './submit-controller';

/**
 * One webhook endpoint (issue 12, item 5): its state, health and pause, the actions on it (edit,
 * enable/disable, rotate secret, delete, Test and resume, Redeliver with progress) and its delivery
 * log with every attempt and the exact body sent, each event resendable. The log is drawn by
 * dash-delivery-log.ts and a running redelivery is followed by redelivery-poll.ts (issue 25, item 11);
 * the requests stay here, so a new endpoint or tenant drops them all (screen-base.ts).
 */
export class DashWebhookDetail extends DashScreen {
  static override properties = {
    endpoint: { state: true },
    pairs: { state: true },
    deliveries: { state: true },
    nextCursor: { state: true },
    editing: { state: true },
    formProblem: { state: true },
    status: { state: true },
    secret: { state: true },
  };
  static override styles = [
    baseStyles,
    css`
      progress {
        width: 16rem;
        max-width: 100%;
      }
    `,
  ];

  endpoint: Endpoint | null = null;
  pairs: KeyPairView[] = [];
  deliveries: DeliveryView[] = [];
  nextCursor: string | null = null;
  editing = false;
  /** The actions on the endpoint, one at a time; its problem is also the log's. */
  private readonly submission = new SubmitController(this);
  formProblem: string | null = null;
  /** The outcome of the last action, announced politely. */
  status: string | null = null;
  secret: string | null = null;
  private readonly redeliveryPoll = new RedeliveryPoll(this, () => void this.poll());

  private get base(): string {
    return `/webhooks/${encodeURIComponent(this.itemId ?? '')}`;
  }

  protected async load(): Promise<void> {
    const [list, keys, log] = await Promise.all([
      this.call<WebhooksResponse>('GET', '/webhooks'),
      this.call<KeyPairsResponse>('GET', '/keys'),
      this.call<DeliveriesResponse>('GET', `${this.base}/deliveries`),
    ]);
    const endpoint = list.endpoints.find((candidate) => candidate.endpointId === this.itemId);
    if (!endpoint) throw new Error(i18n.t('webhooks.notFound'));
    this.setEndpoint(endpoint);
    this.pairs = keys.pairs;
    this.deliveries = log.deliveries;
    this.nextCursor = log.nextCursor;
  }

  private setEndpoint(endpoint: Endpoint): void {
    this.endpoint = endpoint;
    this.redeliveryPoll.follow(endpoint);
  }

  private async poll(): Promise<void> {
    try {
      const list = await this.call<WebhooksResponse>('GET', '/webhooks');
      const endpoint = list.endpoints.find((candidate) => candidate.endpointId === this.itemId);
      if (endpoint) this.setEndpoint(endpoint);
      // No redelivery runs (any more): the log shows where each event went.
      if (endpoint && !this.redeliveryPoll.polling) await this.refreshLog();
    } catch {
      // A missed poll is retried at the next tick.
    }
  }

  override render() {
    const endpoint = this.endpoint;
    return html`<p><a href=${routeHref('webhooks')}>${i18n.t('webhooks.back')}</a></p>
      <h1 tabindex="-1">${endpoint ? endpoint.url : i18n.t('webhooks.endpoint')}</h1>
      ${this.renderLoadState()}
      ${this.submission.problem ? html`<p class="error" role="alert">${this.submission.problem}</p>` : nothing}
      <p role="status" class=${this.status ? 'success' : 'visually-hidden'} data-testid="action-status">${this.status ?? ''}</p>
      ${this.secret ? this.renderSecret(this.secret) : nothing}
      ${endpoint ? this.renderEndpoint(endpoint) : nothing}
      <dash-confirm></dash-confirm>`;
  }

  private renderSecret(secret: string) {
    const items: SecretItem[] = [{ label: i18n.t('webhooks.signingSecret'), value: secret, once: true, testId: 'new-signing-secret' }];
    return html`<dash-secret .heading=${i18n.t('webhooks.rotatedTitle')} .items=${items} @dash-dismiss=${() => (this.secret = null)}></dash-secret>`;
  }

  private renderEndpoint(endpoint: Endpoint) {
    const redelivery = endpoint.redelivery;
    return html`<section class="card" aria-labelledby="status-heading">
        <h2 id="status-heading">${i18n.t('webhooks.statusTitle')}</h2>
        <dl class="facts">
          <dt>${i18n.t('webhooks.stateLabel')}</dt>
          <dd>${stateBadge(endpoint)}</dd>
          <dt>${i18n.t('webhooks.healthLabel')}</dt>
          <dd>${healthBadge(endpoint)}</dd>
          <dt>${i18n.t('webhooks.lastSuccess')}</dt>
          <dd>${formatDateTime(endpoint.lastSuccessAt)}</dd>
          <dt>${i18n.t('webhooks.undelivered')}</dt>
          <dd data-testid="undelivered">${formatNumber(endpoint.undelivered)}</dd>
          ${
            endpoint.pausedAt
              ? html`<dt>${i18n.t('webhooks.paused')}</dt>
                <dd data-testid="pause">${formatDateTime(endpoint.pausedAt)} — ${endpoint.pauseReason ?? ''}</dd>`
              : nothing
          }
          <dt>${i18n.t('webhooks.events')}</dt>
          <dd>${endpoint.events.join(', ')}</dd>
          <dt>${i18n.t('webhooks.pair')}</dt>
          <dd>${endpoint.pairId ? html`<code>${endpoint.pairId}</code>` : i18n.t('webhooks.allPairs')}</dd>
          <dt>${i18n.t('webhooks.endpointId')}</dt>
          <dd><code>${endpoint.endpointId}</code></dd>
        </dl>
        ${endpoint.state === 'paused' ? html`<p>${i18n.t('webhooks.pausedExplained')}</p>` : nothing}
        <div class="actions">
          <button type="button" ?disabled=${this.submission.busy} @click=${this.testAndResume}>${i18n.t('webhooks.testAndResume')}</button>
          <button type="button" class="secondary" ?disabled=${this.submission.busy || endpoint.undelivered === 0} @click=${this.redeliver}>
            ${i18n.t('webhooks.redeliver')}
          </button>
          <button type="button" class="secondary" ?disabled=${this.submission.busy} @click=${() => (this.editing = !this.editing)} aria-expanded=${this.editing ? 'true' : 'false'}>
            ${i18n.t('webhooks.edit')}
          </button>
          <button type="button" class="secondary" ?disabled=${this.submission.busy} @click=${this.toggleEnabled}>
            ${endpoint.enabled ? i18n.t('webhooks.disable') : i18n.t('webhooks.enable')}
          </button>
          <button type="button" class="secondary" ?disabled=${this.submission.busy} @click=${this.rotate}>${i18n.t('webhooks.rotate')}</button>
          <button type="button" class="danger" ?disabled=${this.submission.busy} @click=${this.removeEndpoint}>${i18n.t('webhooks.delete')}</button>
        </div>
        ${
          redelivery
            ? html`<div data-testid="redelivery">
              <label for="redelivery-progress">${i18n.t('webhooks.redeliveryProgress', { sent: formatNumber(redelivery.sent), total: formatNumber(redelivery.total) })}</label>
              <progress id="redelivery-progress" max=${Math.max(redelivery.total, 1)} value=${redelivery.sent}></progress>
              <p class="muted">${i18n.t('webhooks.redeliveryRequested', { date: formatDateTime(redelivery.requestedAt) })}</p>
            </div>`
            : nothing
        }
      </section>
      ${
        this.editing
          ? html`<section class="card" aria-labelledby="edit-heading">
            <h2 id="edit-heading">${i18n.t('webhooks.editTitle')}</h2>
            <dash-endpoint-form
              .endpoint=${endpoint}
              .pairs=${this.pairs}
              .submitLabel=${i18n.t('common.save')}
              .problem=${this.formProblem}
              .busy=${this.submission.busy}
              cancellable
              @dash-endpoint-submit=${this.save}
              @dash-endpoint-cancel=${() => (this.editing = false)}
            ></dash-endpoint-form>
          </section>`
          : nothing
      }
      <dash-delivery-traffic .tenantId=${this.tenantId} .endpointId=${endpoint.endpointId}></dash-delivery-traffic>
      <dash-delivery-log
        .deliveries=${this.deliveries}
        .more=${this.nextCursor !== null}
        .busy=${this.submission.busy}
        @dash-log-refresh=${this.refreshLog}
        @dash-log-more=${this.loadMore}
        @dash-delivery-resend=${(event: CustomEvent<DeliveryView>) => this.resend(event.detail)}
      ></dash-delivery-log>`;
  }

  private confirm(): DashConfirm {
    return this.renderRoot.querySelector<DashConfirm>('dash-confirm')!;
  }

  /** Runs an action with the buttons disabled; its result message goes to the status line. */
  private act(action: () => Promise<string | null>): Promise<void> {
    this.status = null;
    return this.submission.run(async () => {
      this.status = await action();
    });
  }

  private testAndResume(): Promise<void> {
    return this.act(async () => {
      const result = await this.call<TestAndResumeResponse>('POST', `${this.base}/test-and-resume`);
      this.setEndpoint(result.endpoint);
      if (result.ok) return i18n.t('webhooks.testOk', { status: result.status ?? '' });
      throw new Error(i18n.t('webhooks.testFailed', { reason: result.error ?? (result.status !== null ? `HTTP ${result.status}` : '') }));
    });
  }

  private async redeliver(): Promise<void> {
    const confirmed = await this.confirm().ask({
      heading: i18n.t('webhooks.redeliverTitle'),
      message: i18n.t('webhooks.redeliverConfirm', { count: formatNumber(this.endpoint?.undelivered ?? 0) }),
      confirmLabel: i18n.t('webhooks.redeliver'),
    });
    if (!confirmed) return;
    await this.act(async () => {
      const result = await this.call<RedeliverResponse>('POST', `${this.base}/redeliver`);
      await this.poll();
      // Polling may have stopped at once (a small batch finishes fast): show the log as it is now.
      await this.refreshLog();
      return i18n.t('webhooks.redeliverStarted', { count: formatNumber(result.events), batches: formatNumber(result.batches) });
    });
  }

  private save(event: CustomEvent<CreateEndpointRequest>): Promise<void> {
    this.formProblem = null;
    return this.act(async () => {
      try {
        this.setEndpoint(await this.call<Endpoint>('PATCH', this.base, event.detail));
      } catch (error) {
        this.formProblem = errorMessage(error);
        return null;
      }
      this.editing = false;
      return i18n.t('webhooks.saved');
    });
  }

  private toggleEnabled(): Promise<void> {
    const enable = !this.endpoint!.enabled;
    return this.act(async () => {
      this.setEndpoint(await this.call<Endpoint>('POST', `${this.base}/${enable ? 'enable' : 'disable'}`));
      return enable ? i18n.t('webhooks.enabled') : i18n.t('webhooks.disabled');
    });
  }

  private async rotate(): Promise<void> {
    const confirmed = await this.confirm().ask({
      heading: i18n.t('webhooks.rotateTitle'),
      message: i18n.t('webhooks.rotateConfirm'),
      confirmLabel: i18n.t('webhooks.rotate'),
    });
    if (!confirmed) return;
    await this.act(async () => {
      const result = await this.call<RotateSecretResponse>('POST', `${this.base}/rotate-secret`);
      this.secret = result.secret;
      return i18n.t('webhooks.rotated');
    });
  }

  private async removeEndpoint(): Promise<void> {
    const confirmed = await this.confirm().ask({
      heading: i18n.t('webhooks.deleteTitle'),
      message: i18n.t('webhooks.deleteConfirm', { url: this.endpoint?.url ?? '' }),
      confirmLabel: i18n.t('webhooks.delete'),
    });
    if (!confirmed) return;
    await this.act(async () => {
      await this.call('DELETE', this.base);
      window.location.hash = routeHref('webhooks');
      return null;
    });
  }

  private resend(delivery: DeliveryView): Promise<void> {
    return this.act(async () => {
      await this.call('POST', `${this.base}/deliveries/${encodeURIComponent(delivery.eventId)}/resend`);
      return i18n.t('webhooks.resent', { eventId: delivery.eventId });
    });
  }

  private async refreshLog(): Promise<void> {
    try {
      const log = await this.call<DeliveriesResponse>('GET', `${this.base}/deliveries`);
      this.deliveries = log.deliveries;
      this.nextCursor = log.nextCursor;
      const list = await this.call<WebhooksResponse>('GET', '/webhooks');
      const endpoint = list.endpoints.find((candidate) => candidate.endpointId === this.itemId);
      if (endpoint) this.endpoint = endpoint;
    } catch (error) {
      this.submission.problem = errorMessage(error);
    }
  }

  private async loadMore(): Promise<void> {
    if (!this.nextCursor) return;
    try {
      const log = await this.call<DeliveriesResponse>('GET', `${this.base}/deliveries?cursor=${encodeURIComponent(this.nextCursor)}`);
      this.deliveries = [...this.deliveries, ...log.deliveries];
      this.nextCursor = log.nextCursor;
    } catch (error) {
      this.submission.problem = errorMessage(error);
    }
  }
}

declare global {
  interface HTMLElementTagNameMap {
    'dash-webhook-detail': DashWebhookDetail;
  }
}
