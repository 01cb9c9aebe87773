import { html, nothing } from 'lit';
import type { EmailsResponse, OutboxEmail } from '@ageverify/protocol';
import { formatDateTime } from './format';
import { i18n } from './i18n';
import { DashScreen } from './screen-base';
import { baseStyles } from './styles';

/**
 * The email outbox (issue 12, item 7): every mail the service wrote for this tenant (pause notices,
 * invitations), with its state; without SMTP_URL this is where they can be read. Owners and admins only.
 */
export class DashEmails extends DashScreen {
  static override properties = { emails: { state: true } };
  static override styles = [baseStyles];

  emails: OutboxEmail[] = [];

  protected async load(): Promise<void> {
    if (!this.may('emails')) return;
    this.emails = (await this.call<EmailsResponse>('GET', '/emails')).emails;
  }

  override render() {
    if (!this.may('emails')) {
      return html`<h1 tabindex="-1">${i18n.t('emails.title')}</h1>
        <p>${i18n.t('emails.notAllowed', { role: i18n.t(`roles.${this.userRole}`) })}</p>`;
    }
    return html`<h1 tabindex="-1">${i18n.t('emails.title')}</h1>
      <p>${i18n.t('emails.intro')}</p>
      ${this.renderLoadState()}
      ${!this.loading && this.emails.length === 0 ? html`<p class="muted">${i18n.t('emails.none')}</p>` : nothing}
      <ul class="plain" data-testid="emails">
        ${this.emails.map(
          (email) => html`<li class="card">
            <details>
              <summary>
                <strong>${email.subject}</strong> · ${email.to} ·
                <span class="badge ${email.state === 'sent' ? 'ok' : email.state === 'failed' ? 'bad' : 'neutral'}">${i18n.t(`emails.state.${email.state}`)}</span>
                · ${formatDateTime(email.createdAt)}
              </summary>
              <p class="muted">${email.sentAt ? i18n.t('emails.sentAt', { date: formatDateTime(email.sentAt) }) : i18n.t('emails.notSent')}</p>
              <pre>${email.text}</pre>
            </details>
          </li>`,
        )}
      </ul>`;
  }
}

declare global {
  interface HTMLElementTagNameMap {
    'dash-emails': DashEmails;
  }
}
