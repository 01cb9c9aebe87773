import { LitElement, html, nothing } from 'lit';
import type { SetupRequest, SetupResponse } from '@ageverify/protocol';
import { request } from './api';
import { i18n } from './i18n';
import { newAccountFields } from './new-account-fields';
import { fragmentParam } from './router';
import { errorMessage, formValues } from './screen-base';
import { baseStyles } from './styles';

/**
 * First run (issue 12, item 1): creates the first tenant and its owner with the one-time token of
 * the link the server logs at boot (`/dashboard/setup#token=…`). The token is in the fragment, so
 * it never reaches a server log or a Referer header. Without a token, the page says where to find the link.
 *
 * @fires dash-signed-in - Setup succeeded; detail.tenantId is the new tenant.
 */
export class DashSetup extends LitElement {
  static override properties = { busy: { state: true }, problem: { state: true } };
  static override styles = [baseStyles];

  busy = false;
  problem: string | null = null;
  private readonly token = fragmentParam(window.location.hash, 'token');

  focusHeading(): void {
    this.renderRoot.querySelector<HTMLElement>('h1')?.focus();
  }

  override render() {
    if (!this.token) {
      return html`<h1 tabindex="-1">${i18n.t('setup.title')}</h1>
        <p>${i18n.t('setup.noToken')}</p>
        <pre>${i18n.t('setup.logExample', { origin: window.location.origin })}</pre>
        <p class="muted">${i18n.t('setup.noTokenHint')}</p>`;
    }
    return html`<h1 tabindex="-1">${i18n.t('setup.title')}</h1>
      <p>${i18n.t('setup.intro')}</p>
      ${this.problem ? html`<p class="error" role="alert">${this.problem}</p>` : nothing}
      <form class="card" @submit=${this.submit}>
        ${newAccountFields({ withTenantAndEmail: true })}
        <button type="submit" ?disabled=${this.busy}>${i18n.t('setup.submit')}</button>
      </form>`;
  }

  private async submit(event: Event): Promise<void> {
    const values = formValues(event);
    this.busy = true;
    this.problem = null;
    try {
      const body: SetupRequest = { token: this.token!, tenantName: values.tenantName ?? '', email: values.email ?? '', password: values.password ?? '' };
      if (values.name) body.name = values.name;
      const result = await request<SetupResponse>('POST', '/setup', body);
      this.dispatchEvent(new CustomEvent('dash-signed-in', { detail: { tenantId: result.tenantId }, bubbles: true, composed: true }));
    } catch (error) {
      this.problem = errorMessage(error);
      await this.updateComplete;
      this.renderRoot.querySelector<HTMLElement>('.error')?.focus();
    } finally {
      this.busy = false;
    }
  }
}

declare global {
  interface HTMLElementTagNameMap {
    'dash-setup': DashSetup;
  }
}
