import { html, LitElement, nothing, type PropertyValues } from 'lit';
import { type SessionTrafficResponse, TRAFFIC_DAYS_DEFAULT } from '@ageverify/protocol';
import { request, tenantPath } from './api';
import { type ChartSpec, funnelChart, sessionsPerDayChart } from './chart-model';
import { formatNumber, formatShare } from './format';
import { i18n } from './i18n';
import { LatestCall, Superseded } from './latest-call';
import { errorMessage } from './screen-base';
import { baseStyles } from './styles';
import { trafficStyles } from './traffic-styles';

/** The periods offered; the API takes any from 1 to TRAFFIC_DAYS_MAX. */
export const TRAFFIC_PERIODS = [7, 30, 90] as const;
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
    stats: { state: true },
    problem: { state: true },
  };
  static override styles = [baseStyles, trafficStyles];

  tenantId = '';
  days: number = TRAFFIC_DAYS_DEFAULT;
  scope: Scope = 'all';
  stats: SessionTrafficResponse | null = null;
  /** Made once per answer: a new spec object redraws its chart. */
  private charts: { perDay: ChartSpec; funnel: ChartSpec } | null = null;
  problem: string | null = null;
  private readonly calls = new LatestCall();

  protected override willUpdate(changed: PropertyValues<this>): void {
    if ((changed.has('tenantId') || changed.has('days') || changed.has('scope')) && this.tenantId) {
      if (changed.has('tenantId')) {
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
    const sandbox = this.scope === 'all' ? '' : `&sandbox=${this.scope === 'sandbox'}`;
    try {
      const stats = await request<SessionTrafficResponse>('GET', tenantPath(this.tenantId, `/stats/sessions?days=${this.days}${sandbox}`), undefined, signal);
      this.charts = { perDay: sessionsPerDayChart(stats), funnel: funnelChart(stats) };
      this.stats = stats;
      this.problem = null;
    } catch (error) {
      if (!(error instanceof Superseded) && !signal.aborted) this.problem = errorMessage(error);
    }
  }

  override render() {
    const { stats, charts } = this;
    return html`<section aria-labelledby="traffic-heading" data-testid="session-traffic">
      <h2 id="traffic-heading">${i18n.t('traffic.title')}</h2>
      <p class="muted">${i18n.t('traffic.intro')}</p>
      <form class="actions" aria-label=${i18n.t('traffic.title')} @submit=${(event: Event) => event.preventDefault()}>
        <div class="field">
          <label for="traffic-days">${i18n.t('traffic.period')}</label>
          <select id="traffic-days" @change=${(event: Event) => (this.days = Number((event.target as HTMLSelectElement).value))}>
            ${TRAFFIC_PERIODS.map((days) => html`<option value=${days} ?selected=${days === this.days}>${i18n.t('traffic.periodDays', { days })}</option>`)}
          </select>
        </div>
        <div class="field">
          <label for="traffic-scope">${i18n.t('traffic.scope')}</label>
          <select id="traffic-scope" @change=${(event: Event) => (this.scope = (event.target as HTMLSelectElement).value as Scope)}>
            ${SCOPES.map((scope) => html`<option value=${scope} ?selected=${scope === this.scope}>${i18n.t(SCOPE_LABEL[scope])}</option>`)}
          </select>
        </div>
      </form>
      ${this.problem ? html`<p class="error" role="alert">${this.problem}</p>` : nothing}
      ${stats && charts ? this.renderStats(stats, charts) : this.problem ? nothing : html`<p class="muted" role="status">${i18n.t('common.loading')}</p>`}
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
