import { css, html, nothing } from 'lit';
import type { OverviewResponse, PlanUsage } from '@ageverify/protocol';
import { formatDateTime, formatNumber } from './format';
import { i18n } from './i18n';
import { routeHref } from './router';
import { DashScreen } from './screen-base';
import { baseStyles } from './styles';

/**
 * The tenant at a glance (issue 12, item 7): plan and this month's usage, sandbox allowance, billing portal,
 * traffic charts (issue 23; dash-session-traffic.ts), notices.
 */
export class DashOverview extends DashScreen {
  static override properties = { data: { state: true } };
  static override styles = [
    baseStyles,
    css`
      .grid {
        display: grid;
        grid-template-columns: repeat(auto-fit, minmax(16rem, 1fr));
        gap: 1rem;
      }
      meter {
        width: 100%;
        height: 1rem;
      }
      .notice {
        border-left: 4px solid #b45309;
      }
      .notice.resolved {
        border-left-color: #15803d;
      }
    `,
  ];

  data: OverviewResponse | null = null;

  protected async load(): Promise<void> {
    this.data = await this.call<OverviewResponse>('GET', '/overview');
  }

  override render() {
    const data = this.data;
    return html`<h1 tabindex="-1">${i18n.t('overview.title')}</h1>
      ${this.renderLoadState()}
      ${data ? this.renderData(data) : nothing}`;
  }

  private renderUsage(label: string, used: number, allowance: number | null, id: string) {
    return html`<p><strong id=${id}>${label}</strong></p>
      ${
        allowance === null
          ? html`<p>${i18n.t('overview.usedNoLimit', { used: formatNumber(used) })}</p>`
          : html`<meter aria-labelledby=${id} min="0" max=${allowance} value=${Math.min(used, allowance)}></meter>
            <p>${i18n.t('overview.usedOf', { used: formatNumber(used), allowance: formatNumber(allowance) })}</p>`
      }`;
  }

  private renderPlan(plan: PlanUsage) {
    return html`<section class="card" aria-labelledby="plan-heading">
      <h2 id="plan-heading">${i18n.t('overview.plan', { name: plan.name })}</h2>
      ${this.renderUsage(i18n.t('overview.liveUsage'), plan.usedThisMonth, plan.monthlyAllowance, 'live-usage')}
      ${this.renderUsage(i18n.t('overview.sandboxUsage'), plan.sandboxUsedThisMonth, plan.sandboxAllowance, 'sandbox-usage')}
      ${
        plan.billingPortalUrl
          ? html`<p><a href=${plan.billingPortalUrl} rel="noopener noreferrer" target="_blank">${i18n.t('overview.billingPortal')}</a></p>`
          : html`<p class="muted">${i18n.t('overview.noBillingPortal')}</p>`
      }
    </section>`;
  }

  private renderData(data: OverviewResponse) {
    const open = data.notices.filter((notice) => !notice.resolvedAt);
    const resolved = data.notices.filter((notice) => notice.resolvedAt);
    return html`<p data-testid="overview-tenant">
        ${i18n.t('overview.tenant', { name: data.tenant.name })} <code>${data.tenant.tenantId}</code>
        <span class="badge ${data.tenant.status === 'active' ? 'ok' : 'bad'}">${i18n.t(`overview.status.${data.tenant.status}`)}</span>
      </p>
      <div class="grid">
        ${this.renderPlan(data.plan)}
        <section class="card" aria-labelledby="start-heading">
          <h2 id="start-heading">${i18n.t('overview.startTitle')}</h2>
          <ol>
            <li><a href=${routeHref('keys')}>${i18n.t('overview.startKeys')}</a></li>
            <li><a href=${routeHref('domains')}>${i18n.t('overview.startDomains')}</a></li>
            <li><a href=${routeHref('webhooks')}>${i18n.t('overview.startWebhooks')}</a></li>
            <li><a href=${routeHref('sessions')}>${i18n.t('overview.startTryIt')}</a></li>
          </ol>
        </section>
      </div>
      <dash-session-traffic .tenantId=${this.tenantId}></dash-session-traffic>
      <section aria-labelledby="notices-heading">
        <h2 id="notices-heading">${i18n.t('overview.notices')}</h2>
        ${open.length === 0 ? html`<p class="muted">${i18n.t('overview.noNotices')}</p>` : nothing}
        <ul class="plain" data-testid="notices">
          ${[...open, ...resolved].map(
            (notice) => html`<li class="card notice ${notice.resolvedAt ? 'resolved' : ''}">
              <p>
                <span class="badge ${notice.resolvedAt ? 'ok' : 'warn'}">${notice.resolvedAt ? i18n.t('overview.resolved') : i18n.t('overview.open')}</span>
                ${notice.message}
              </p>
              <p class="muted">
                ${formatDateTime(notice.createdAt)}
                ${notice.resolvedAt ? html` · ${i18n.t('overview.resolvedAt', { date: formatDateTime(notice.resolvedAt) })}` : nothing}
                ${notice.endpointId ? html` · <a href=${routeHref('webhooks', notice.endpointId)}>${i18n.t('overview.openEndpoint')}</a>` : nothing}
              </p>
            </li>`,
          )}
        </ul>
      </section>`;
  }
}

declare global {
  interface HTMLElementTagNameMap {
    'dash-overview': DashOverview;
  }
}
