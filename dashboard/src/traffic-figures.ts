import { html, nothing, type ReactiveController, type ReactiveControllerHost, type TemplateResult } from 'lit';
import { request } from './api';
import { i18n } from './i18n';
import { LatestCall, Superseded } from './latest-call';
import { errorMessage } from './screen-base';

/** The periods offered; the API takes any from 1 to TRAFFIC_DAYS_MAX. */
export const TRAFFIC_PERIODS = [7, 30, 90] as const;

/**
 * The figures of one traffic section (issue 23, Deliver 2: the overview's sessions, the webhook
 * pages' deliveries): loaded on their own, so the rest of the page never waits for them; a new load
 * drops the answer still on its way (latest-call.ts), and so does leaving the page. The charts are
 * made once per answer: a new spec object is what redraws a chart.
 */
export class TrafficFigures<Stats, Charts> implements ReactiveController {
  stats: Stats | null = null;
  charts: Charts | null = null;
  problem: string | null = null;
  private readonly calls = new LatestCall();

  constructor(
    private readonly host: ReactiveControllerHost,
    private readonly chartsOf: (stats: Stats) => Charts,
  ) {
    host.addController(this);
  }

  hostDisconnected(): void {
    this.calls.start();
  }

  /** Another tenant or endpoint: the figures on screen are not theirs. */
  clear(): void {
    this.stats = null;
    this.charts = null;
  }

  async load(path: string): Promise<void> {
    const signal = this.calls.start();
    try {
      const stats = await request<Stats>('GET', path, undefined, signal);
      this.charts = this.chartsOf(stats);
      this.stats = stats;
      this.problem = null;
    } catch (error) {
      if (error instanceof Superseded || signal.aborted) return;
      this.problem = errorMessage(error);
    }
    this.host.requestUpdate();
  }

  /** The problem if the last load failed; "loading" until a first answer; then the figures. */
  render(figures: (stats: Stats, charts: Charts) => TemplateResult): TemplateResult {
    const { stats, charts, problem } = this;
    return html`${problem ? html`<p class="error" role="alert">${problem}</p>` : nothing}
    ${stats && charts ? figures(stats, charts) : problem ? nothing : html`<p class="muted" role="status">${i18n.t('common.loading')}</p>`}`;
  }
}

/** The period field of a traffic section's form. */
export function periodField(id: string, days: number, choose: (days: number) => void): TemplateResult {
  return html`<div class="field">
    <label for=${id}>${i18n.t('traffic.period')}</label>
    <select id=${id} @change=${(event: Event) => choose(Number((event.target as HTMLSelectElement).value))}>
      ${TRAFFIC_PERIODS.map((period) => html`<option value=${period} ?selected=${period === days}>${i18n.t('traffic.periodDays', { days: period })}</option>`)}
    </select>
  </div>`;
}
