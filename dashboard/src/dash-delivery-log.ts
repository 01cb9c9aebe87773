import { css, html, LitElement, nothing } from 'lit';
import type { DeliveryView } from '@ageverify/protocol';
import { formatDateTime, formatNumber } from './format';
import { i18n } from './i18n';
import { routeHref } from './router';
import { baseStyles } from './styles';

/**
 * An endpoint's delivery log (issue 12, item 5; apart from the endpoint screen by issue 25, item 11):
 * every event with each attempt and the exact body sent, each resendable. The screen owns the
 * requests (they are its calls, dropped when it moves on); this element draws the log and says what
 * the user asked for.
 *
 * @fires dash-log-refresh - Read the log again.
 * @fires dash-log-more - Read the next page (the screen holds the cursor).
 * @fires dash-delivery-resend - detail: the DeliveryView to send again.
 */
export class DashDeliveryLog extends LitElement {
  static override properties = {
    deliveries: { attribute: false },
    more: { type: Boolean },
    busy: { type: Boolean },
  };
  static override styles = [
    baseStyles,
    css`
      .deliveries > li {
        list-style: none;
      }
      .deliveries {
        padding: 0;
      }
      summary {
        cursor: pointer;
        display: flex;
        flex-wrap: wrap;
        gap: 0.5rem;
        align-items: center;
      }
    `,
  ];

  deliveries: DeliveryView[] = [];
  /** A further page exists. */
  more = false;
  /** An action on the endpoint runs: resending waits for it. */
  busy = false;

  override render() {
    return html`<section aria-labelledby="log-heading">
      <h2 id="log-heading">${i18n.t('webhooks.logTitle')}</h2>
      <div class="actions"><button type="button" class="secondary" @click=${() => this.ask('dash-log-refresh')}>${i18n.t('common.refresh')}</button></div>
      ${this.deliveries.length === 0 ? html`<p class="muted">${i18n.t('webhooks.noDeliveries')}</p>` : nothing}
      <ul class="deliveries" data-testid="deliveries">
        ${this.deliveries.map((delivery) => this.renderDelivery(delivery))}
      </ul>
      ${this.more ? html`<button type="button" class="secondary" @click=${() => this.ask('dash-log-more')}>${i18n.t('common.loadMore')}</button>` : nothing}
    </section>`;
  }

  private ask(type: 'dash-log-refresh' | 'dash-log-more'): void {
    this.dispatchEvent(new CustomEvent(type));
  }

  private resend(delivery: DeliveryView): void {
    this.dispatchEvent(new CustomEvent<DeliveryView>('dash-delivery-resend', { detail: delivery }));
  }

  private renderDelivery(delivery: DeliveryView) {
    const stateClass = delivery.state === 'delivered' ? 'ok' : delivery.state === 'pending' ? 'warn' : 'bad';
    return html`<li class="card" data-event-id=${delivery.eventId}>
      <details>
        <summary>
          <span class="badge ${stateClass}">${i18n.t(`webhooks.delivery.${delivery.state}`)}</span>
          <code>${delivery.kind}</code>
          <span>${formatDateTime(delivery.createdAt, true)}</span>
          <span class="muted">${i18n.t('webhooks.attemptCount', { count: delivery.attempts.length })}</span>
          <code class="muted">${delivery.eventId}</code>
        </summary>
        <dl class="facts">
          <dt>${i18n.t('webhooks.eventId')}</dt>
          <dd><code>${delivery.eventId}</code></dd>
          <dt>${i18n.t('sessions.sessionId')}</dt>
          <dd><a href=${routeHref('sessions', delivery.sessionId)}>${delivery.sessionId}</a></dd>
        </dl>
        <h3>${i18n.t('webhooks.attempts')}</h3>
        ${
          delivery.attempts.length === 0
            ? html`<p class="muted">${i18n.t('webhooks.noAttempts')}</p>`
            : html`<div class="table-wrap">
              <table>
                <thead>
                  <tr>
                    <th scope="col">${i18n.t('webhooks.attemptTime')}</th>
                    <th scope="col">${i18n.t('webhooks.attemptStatus')}</th>
                    <th scope="col">${i18n.t('webhooks.attemptDuration')}</th>
                    <th scope="col">${i18n.t('webhooks.attemptError')}</th>
                  </tr>
                </thead>
                <tbody>
                  ${delivery.attempts.map(
                    (attempt) => html`<tr>
                      <td>${formatDateTime(attempt.at, true)}</td>
                      <td>${attempt.status ?? '—'}</td>
                      <td>${attempt.durationMs === null ? '—' : i18n.t('webhooks.milliseconds', { ms: formatNumber(attempt.durationMs) })}</td>
                      <td>${attempt.error ?? '—'}</td>
                    </tr>`,
                  )}
                </tbody>
              </table>
            </div>`
        }
        <h3>${i18n.t('webhooks.body')}</h3>
        ${delivery.body === null ? html`<p class="muted">${i18n.t('webhooks.noBody')}</p>` : html`<pre data-testid="delivery-body">${delivery.body}</pre>`}
        <button type="button" class="secondary" ?disabled=${this.busy} @click=${() => this.resend(delivery)}>${i18n.t('webhooks.resend')}</button>
      </details>
    </li>`;
  }
}

declare global {
  interface HTMLElementTagNameMap {
    'dash-delivery-log': DashDeliveryLog;
  }
}
