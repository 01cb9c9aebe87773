import { LitElement, html, nothing } from 'lit';
import type { CreateKeyPairResponse, FirstRunSetupResponse, SetupRequest } from '@ageverify/protocol';
import { request } from './api';
import { i18n } from './i18n';
import { newAccountFields } from './new-account-fields';
import { fragmentParam, routeHref } from './router';
import { renderSandboxPairReady } from './sandbox-pair-ready';
import { formValues } from './screen-base';
import { baseStyles } from './styles';
import { SubmitController } from './submit-controller';

/**
 * First run (issue 12, item 1): creates the first tenant and its owner with the one-time token of
 * the link the server logs at boot (`/dashboard/setup#token=…`). The token is in the fragment, so
 * it never reaches a server log or a Referer header. Without a token, the page says where to find the link.
 * Setup makes a sandbox key pair; its keys are shown here once, with the secret key's only showing
 * (issue 23, docs/decisions/0052), before the dashboard opens.
 *
 * @fires dash-signed-in - Setup succeeded; detail.tenantId is the new tenant.
 */
export class DashSetup extends LitElement {
  static override properties = { created: { state: true } };
  static override styles = [baseStyles];

  /** A refusal moves focus to its message, so it is read out before the form again. */
  private readonly submission = new SubmitController(this, {
    onError: async () => {
      await this.updateComplete;
      this.renderRoot.querySelector<HTMLElement>('.error')?.focus();
    },
  });
  /** After setup: the new tenant and its sandbox pair, shown until the owner continues. */
  created: { tenantId: string; pair: CreateKeyPairResponse } | null = null;
  private readonly token = fragmentParam(window.location.hash, 'token');

  focusHeading(): void {
    this.renderRoot.querySelector<HTMLElement>('h1')?.focus();
  }

  override render() {
    if (this.created) return renderSandboxPairReady(this.created.pair, () => this.openDashboard());
    if (!this.token) {
      return html`<h1 tabindex="-1">${i18n.t('setup.title')}</h1>
        <p>${i18n.t('setup.noToken')}</p>
        <pre>${i18n.t('setup.logExample', { origin: window.location.origin })}</pre>
        <p class="muted">${i18n.t('setup.noTokenHint')}</p>`;
    }
    return html`<h1 tabindex="-1">${i18n.t('setup.title')}</h1>
      <p>${i18n.t('setup.intro')}</p>
      ${this.submission.problem ? html`<p class="error" role="alert">${this.submission.problem}</p>` : nothing}
      <form class="card" @submit=${this.submit}>
        ${newAccountFields({ withTenantAndEmail: true })}
        <button type="submit" ?disabled=${this.submission.busy}>${i18n.t('setup.submit')}</button>
      </form>`;
  }

  private openDashboard(): void {
    const tenantId = this.created!.tenantId;
    this.dispatchEvent(new CustomEvent('dash-signed-in', { detail: { tenantId }, bubbles: true, composed: true }));
  }

  private submit(event: Event): Promise<void> {
    const values = formValues(event);
    return this.submission.run(async () => {
      const body: SetupRequest = { token: this.token!, tenantName: values.tenantName ?? '', email: values.email ?? '', password: values.password ?? '' };
      if (values.name) body.name = values.name;
      const result = await request<FirstRunSetupResponse>('POST', '/setup', body);
      // The token is spent: it leaves the address bar now, not only when the dashboard opens; a
      // reload from here opens the signed-in dashboard (the secret is not shown again, as anywhere).
      window.history.replaceState(null, '', `/dashboard/${routeHref('overview')}`);
      this.created = { tenantId: result.tenantId, pair: result.sandboxKeyPair };
    });
  }
}

declare global {
  interface HTMLElementTagNameMap {
    'dash-setup': DashSetup;
  }
}
