import { html, LitElement, nothing, type PropertyValues } from 'lit';
import { TRAFFIC_DAYS_DEFAULT, type WebhookTrafficResponse } from '@ageverify/protocol';
import { request, tenantPath } from './api';
import { type ChartSpec, deliveriesPerDayChart, latencyChart } from './chart-model';
import { TRAFFIC_PERIODS } from './dash-session-traffic';
import { formatMilliseconds, formatNumber } from './format';
import { i18n } from './i18n';
import { LatestCall, Superseded } from './latest-call';
import { errorMessage } from './screen-base';
import { baseStyles } from './styles';
import { trafficStyles } from './traffic-styles';

const RESULTS = ['delivered', 'undelivered', 'pending'] as const;

/**
 * Webhook delivery traffic (issue 23, Deliver 2), on the webhooks list (every endpoint) and on an
 * endpoint's page (`endpointId`): deliveries per day by result and the endpoints' response time
 * (median and 95th percentile) per day. Loads its own figures (GET /stats/webhooks); a new tenant,
 * endpoint or period drops the answer still on its way (latest-call.ts).
 */
export class DashDeliveryTraffic extends LitElement {
  static override properties = {
    tenantId: { type: String },
    endpointId: { type: String },
    days: { state: true },
    stats: { state: true },
    problem: { state: true },
  };
  static override styles = [baseStyles, trafficStyles];

  tenantId = '';
  /** One endpoint's figures; empty for all the tenant's endpoints. */
  endpointId = '';
  days: number = TRAFFIC_DAYS_DEFAULT;
  stats: WebhookTrafficResponse | null = null;
  /** Made once per answer: a new spec object redraws its chart. */
  private charts: { perDay: ChartSpec; latency: ChartSpec } | null = null;
  problem: string | null = null;
  private readonly calls = new LatestCall();

  protected override willUpdate(changed: PropertyValues<this>): void {
    if ((changed.has('tenantId') || changed.has('endpointId') || changed.has('days')) && this.tenantId) {
      if (changed.has('tenantId') || changed.has('endpointId')) {
        this.stats = null;
        this.charts = null;
      }
      void this.load();
    }
  }

  override disconnectedCallback(): void {
    super.disconnectedCallback();
    this.calls.start();
  }

  private async load(): Promise<void> {
    const signal = this.calls.start();
    const endpoint = this.endpointId ? `&endpointId=${encodeURIComponent(this.endpointId)}` : '';
    try {
      const stats = await request<WebhookTrafficResponse>('GET', tenantPath(this.tenantId, `/stats/webhooks?days=${this.days}${endpoint}`), undefined, signal);
      this.charts = { perDay: deliveriesPerDayChart(stats), latency: latencyChart(stats) };
      this.stats = stats;
      this.problem = null;
    } catch (error) {
      if (!(error instanceof Superseded) && !signal.aborted) this.problem = errorMessage(error);
    }
  }

  override render() {
    const { stats, charts } = this;
    return html`<section aria-labelledby="delivery-traffic-heading" data-testid="delivery-traffic">
      <h2 id="delivery-traffic-heading">${i18n.t('traffic.deliveriesTitle')}</h2>
      <p class="muted">${i18n.t('traffic.deliveriesIntro')}</p>
      <form class="actions" aria-label=${i18n.t('traffic.deliveriesTitle')} @submit=${(event: Event) => event.preventDefault()}>
        <div class="field">
          <label for="delivery-days">${i18n.t('traffic.period')}</label>
          <select id="delivery-days" @change=${(event: Event) => (this.days = Number((event.target as HTMLSelectElement).value))}>
            ${TRAFFIC_PERIODS.map((days) => html`<option value=${days} ?selected=${days === this.days}>${i18n.t('traffic.periodDays', { days })}</option>`)}
          </select>
        </div>
      </form>
      ${this.problem ? html`<p class="error" role="alert">${this.problem}</p>` : nothing}
      ${stats && charts ? this.renderStats(stats, charts) : this.problem ? nothing : html`<p class="muted" role="status">${i18n.t('common.loading')}</p>`}
    </section>`;
  }

  private renderStats(stats: WebhookTrafficResponse, charts: { perDay: ChartSpec; latency: ChartSpec }) {
    const { totals } = stats;
    return html`<ul class="counters" aria-label=${i18n.t('traffic.deliveriesCounters')}>
        <li><strong data-testid="delivery-count-total">${formatNumber(totals.total)}</strong>${i18n.t('traffic.total')}</li>
        ${RESULTS.map(
          (result) =>
            html`<li><strong data-testid="delivery-count-${result}">${formatNumber(totals.counts[result])}</strong>${i18n.t(`webhooks.delivery.${result}`)}</li>`,
        )}
        <li><strong data-testid="delivery-count-requests">${formatNumber(totals.attempts)}</strong>${i18n.t('traffic.requests')}</li>
        <li><strong data-testid="delivery-latency-median">${formatMilliseconds(totals.latencyMedianMs)}</strong>${i18n.t('traffic.median')}</li>
        <li><strong data-testid="delivery-latency-p95">${formatMilliseconds(totals.latencyP95Ms)}</strong>${i18n.t('traffic.p95')}</li>
      </ul>
      <div class="charts">
        <dash-chart data-testid="deliveries-per-day-chart" .spec=${charts.perDay}></dash-chart>
        <dash-chart data-testid="latency-chart" .spec=${charts.latency}></dash-chart>
      </div>
      <p class="muted">${i18n.t('traffic.retention', { days: stats.retentionDays })}</p>`;
  }
}

declare global {
  interface HTMLElementTagNameMap {
    'dash-delivery-traffic': DashDeliveryTraffic;
  }
}
