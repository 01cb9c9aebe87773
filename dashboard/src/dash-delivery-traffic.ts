import { html, LitElement, type PropertyValues } from 'lit';
import { TRAFFIC_DAYS_DEFAULT, type WebhookTrafficResponse } from '@ageverify/protocol';
import { tenantPath } from './api';
import { type ChartSpec, deliveriesPerDayChart, latencyChart } from './chart-model';
import { formatMilliseconds, formatNumber } from './format';
import { i18n } from './i18n';
import { baseStyles } from './styles';
import { periodField, TrafficFigures } from './traffic-figures';
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
  };
  static override styles = [baseStyles, trafficStyles];

  tenantId = '';
  /** One endpoint's figures; empty for all the tenant's endpoints. */
  endpointId = '';
  days: number = TRAFFIC_DAYS_DEFAULT;
  private readonly figures = new TrafficFigures(this, (stats: WebhookTrafficResponse) => ({
    perDay: deliveriesPerDayChart(stats),
    latency: latencyChart(stats),
  }));

  protected override willUpdate(changed: PropertyValues<this>): void {
    if ((changed.has('tenantId') || changed.has('endpointId') || changed.has('days')) && this.tenantId) {
      if (changed.has('tenantId') || changed.has('endpointId')) this.figures.clear();
      const endpoint = this.endpointId ? `&endpointId=${encodeURIComponent(this.endpointId)}` : '';
      void this.figures.load(tenantPath(this.tenantId, `/stats/webhooks?days=${this.days}${endpoint}`));
    }
  }

  override render() {
    return html`<section aria-labelledby="delivery-traffic-heading" data-testid="delivery-traffic">
      <h2 id="delivery-traffic-heading">${i18n.t('traffic.deliveriesTitle')}</h2>
      <p class="muted">${i18n.t('traffic.deliveriesIntro')}</p>
      <form class="actions" aria-label=${i18n.t('traffic.deliveriesTitle')} @submit=${(event: Event) => event.preventDefault()}>
        ${periodField('delivery-days', this.days, (days) => (this.days = days))}
      </form>
      ${this.figures.render((stats, charts) => this.renderStats(stats, charts))}
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
