import { html, LitElement, type PropertyValues } from 'lit';
import { type SessionTrafficResponse, TRAFFIC_DAYS_DEFAULT } from '@ageverify/protocol';
import { tenantPath } from './api';
import { type ChartSpec, funnelChart, sessionsPerDayChart } from './chart-model';
import { formatNumber, formatShare } from './format';
import { i18n } from './i18n';
import { baseStyles } from './styles';
import { periodField, TrafficFigures } from './traffic-figures';
import { trafficStyles } from './traffic-styles';

const SCOPES = ['all', 'live', 'sandbox'] as const;
type Scope = (typeof SCOPES)[number];
const SCOPE_LABEL = { all: 'traffic.scopeAll', live: 'traffic.scopeLive', sandbox: 'traffic.scopeSandbox' } as const;
const COUNTED = ['VERIFIED', 'FAILED', 'CANCELLED', 'EXPIRED', 'PENDING'] as const;

/**
 * The overview's traffic (issue 23, Deliver 2): the period's sessions counted by status, per day
 * as a chart, and the funnel from creation to validation with the L1 → document step-up. Loads its
 * own figures (GET /stats/sessions), so the rest of the overview never waits for them; a new
 * tenant, period or scope drops the answer still on its way (latest-call.ts).
 */
export class DashSessionTraffic extends LitElement {
  static override properties = {
    tenantId: { type: String },
    days: { state: true },
    scope: { state: true },
  };
  static override styles = [baseStyles, trafficStyles];

  tenantId = '';
  days: number = TRAFFIC_DAYS_DEFAULT;
  scope: Scope = 'all';
  private readonly figures = new TrafficFigures(this, (stats: SessionTrafficResponse) => ({ perDay: sessionsPerDayChart(stats), funnel: funnelChart(stats) }));

  protected override willUpdate(changed: PropertyValues<this>): void {
    if ((changed.has('tenantId') || changed.has('days') || changed.has('scope')) && this.tenantId) {
      if (changed.has('tenantId')) this.figures.clear();
      const sandbox = this.scope === 'all' ? '' : `&sandbox=${this.scope === 'sandbox'}`;
      void this.figures.load(tenantPath(this.tenantId, `/stats/sessions?days=${this.days}${sandbox}`));
    }
  }

  override render() {
    return html`<section aria-labelledby="traffic-heading" data-testid="session-traffic">
      <h2 id="traffic-heading">${i18n.t('traffic.title')}</h2>
      <p class="muted">${i18n.t('traffic.intro')}</p>
      <form class="actions" aria-label=${i18n.t('traffic.title')} @submit=${(event: Event) => event.preventDefault()}>
        ${periodField('traffic-days', this.days, (days) => (this.days = days))}
        <div class="field">
          <label for="traffic-scope">${i18n.t('traffic.scope')}</label>
          <select id="traffic-scope" @change=${(event: Event) => (this.scope = (event.target as HTMLSelectElement).value as Scope)}>
            ${SCOPES.map((scope) => html`<option value=${scope} ?selected=${scope === this.scope}>${i18n.t(SCOPE_LABEL[scope])}</option>`)}
          </select>
        </div>
      </form>
      ${this.figures.render((stats, charts) => this.renderStats(stats, charts))}
    </section>`;
  }

  private renderStats(stats: SessionTrafficResponse, charts: { perDay: ChartSpec; funnel: ChartSpec }) {
    const { stepUp } = stats;
    return html`<ul class="counters" aria-label=${i18n.t('traffic.countersLabel')}>
        <li><strong data-testid="traffic-count-total">${formatNumber(stats.totals.total)}</strong>${i18n.t('traffic.total')}</li>
        ${COUNTED.map(
          (status) =>
            html`<li><strong data-testid="traffic-count-${status}">${formatNumber(stats.totals[status])}</strong>${i18n.t(`sessions.state.${status}`)}</li>`,
        )}
      </ul>
      <div class="charts">
        <dash-chart data-testid="sessions-per-day-chart" .spec=${charts.perDay}></dash-chart>
        <div>
          <dash-chart data-testid="funnel-chart" .spec=${charts.funnel}></dash-chart>
          <p class="muted">${i18n.t('traffic.funnelNote')}</p>
        </div>
      </div>
      <h3 id="step-up-heading">${i18n.t('traffic.stepUpTitle')}</h3>
      <dl class="facts" aria-labelledby="step-up-heading" data-testid="step-up">
        <dt>${i18n.t('traffic.stepUpL1')}</dt>
        <dd data-testid="step-up-l1">${formatNumber(stepUp.l1Sessions)}</dd>
        <dt>${i18n.t('traffic.stepUpEstimated')}</dt>
        <dd data-testid="step-up-estimated">${formatNumber(stepUp.estimated)}</dd>
        <dt>${i18n.t('traffic.stepUpShare')}</dt>
        <dd data-testid="step-up-stepped">${i18n.t('traffic.countShare', { count: formatNumber(stepUp.steppedUp), share: formatShare(stepUp.steppedUp, stepUp.estimated) })}</dd>
        <dt>${i18n.t('traffic.stepUpFinished')}</dt>
        <dd data-testid="step-up-finished">${i18n.t('traffic.countShare', { count: formatNumber(stepUp.finished), share: formatShare(stepUp.finished, stepUp.steppedUp) })}</dd>
        <dt>${i18n.t('traffic.stepUpVerified')}</dt>
        <dd data-testid="step-up-verified">${i18n.t('traffic.countShare', { count: formatNumber(stepUp.verified), share: formatShare(stepUp.verified, stepUp.finished) })}</dd>
      </dl>`;
  }
}

declare global {
  interface HTMLElementTagNameMap {
    'dash-session-traffic': DashSessionTraffic;
  }
}
