import { html, nothing } from 'lit';
import type { SessionDetailResponse } from '@ageverify/protocol';
import { formatDateTime } from './format';
import { i18n } from './i18n';
import { routeHref } from './router';
import { DashScreen } from './screen-base';
import { baseStyles } from './styles';

/** One session and the events it produced (issue 12, item 6). */
export class DashSessionDetail extends DashScreen {
  static override properties = { data: { state: true } };
  static override styles = [baseStyles];

  data: SessionDetailResponse | null = null;

  protected async load(): Promise<void> {
    this.data = await this.call<SessionDetailResponse>('GET', `/sessions/${encodeURIComponent(this.itemId ?? '')}`);
  }

  override render() {
    const data = this.data;
    return html`<p><a href=${routeHref('sessions')}>${i18n.t('sessions.back')}</a></p>
      <h1 tabindex="-1">${i18n.t('sessions.detailTitle', { sessionId: this.itemId ?? '' })}</h1>
      ${this.renderLoadState()}
      ${data ? this.renderSession(data) : nothing}`;
  }

  private renderSession(data: SessionDetailResponse) {
    const session = data.session;
    return html`<section class="card" aria-labelledby="facts-heading">
        <h2 id="facts-heading">${i18n.t('sessions.facts')}</h2>
        <dl class="facts">
          <dt>${i18n.t('sessions.status')}</dt>
          <dd data-testid="session-status">${i18n.t(`sessions.state.${session.status}`)}</dd>
          <dt>${i18n.t('sessions.verificationMode')}</dt>
          <dd>${session.verificationMode}</dd>
          <dt>${i18n.t('sessions.challengeAge')}</dt>
          <dd>${session.challengeAge}</dd>
          <dt>${i18n.t('sessions.externalUserId')}</dt>
          <dd>${session.externalUserId ?? '—'}</dd>
          <dt>${i18n.t('sessions.mode')}</dt>
          <dd>${session.sandbox ? i18n.t('keys.sandbox') : i18n.t('keys.live')}</dd>
          <dt>${i18n.t('sessions.failureReason')}</dt>
          <dd>${session.failureReason ?? '—'}</dd>
          <dt>${i18n.t('sessions.created')}</dt>
          <dd>${formatDateTime(session.createdAt, true)}</dd>
          <dt>${i18n.t('sessions.completed')}</dt>
          <dd>${formatDateTime(session.completedAt, true)}</dd>
        </dl>
      </section>
      ${
        data.receipt
          ? html`<section class="card" aria-labelledby="receipt-heading">
              <h2 id="receipt-heading">${i18n.t('sessions.receipt')}</h2>
              <p class="muted">${i18n.t('sessions.receiptHint')}</p>
              <pre data-testid="session-receipt" tabindex="0">${data.receipt}</pre>
            </section>`
          : nothing
      }
      <section aria-labelledby="events-heading">
        <h2 id="events-heading">${i18n.t('sessions.events')}</h2>
        ${data.events.length === 0 ? html`<p class="muted">${i18n.t('sessions.noEvents')}</p>` : nothing}
        <ol data-testid="session-events">
          ${data.events.map(
            (event) => html`<li>
              <p><code>${event.kind}</code> · ${formatDateTime(event.createdAt, true)} · <code class="muted">${event.eventId}</code></p>
              <pre>${JSON.stringify(event.data, null, 2)}</pre>
            </li>`,
          )}
        </ol>
      </section>`;
  }
}

declare global {
  interface HTMLElementTagNameMap {
    'dash-session-detail': DashSessionDetail;
  }
}
