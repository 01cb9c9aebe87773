import { LitElement, html, nothing } from 'lit';
import type { CreateKeyPairResponse, FirstRunSetupResponse, SignupConfirmRequest, SignupLookupResponse } from '@ageverify/protocol';
import { ApiError, request } from './api';
import { formatDateTime } from './format';
import { i18n } from './i18n';
import { fragmentParam, routeHref } from './router';
import { errorMessage, formValues } from './screen-base';
import { renderSandboxPairReady } from './sandbox-pair-ready';
import { baseStyles } from './styles';
import { SubmitController } from './submit-controller';

/**
 * The page of a sign-up's emailed link (`/dashboard/confirm#secret=…`, issue 22 finding 9): the
 * account is created only here, with the password chosen at sign-up typed again, so the link alone
 * opens nothing. The secret stays in the URL fragment and goes to the API only in request bodies.
 *
 * Then the sandbox key pair the account starts with is shown once, as first-run setup shows its own.
 *
 * @fires dash-signed-in - The tenant was created, its owner signed in and the pair seen; detail.tenantId.
 */
export class DashSignupConfirm extends LitElement {
  static override properties = { info: { state: true }, loaded: { state: true }, created: { state: true } };
  static override styles = [baseStyles];

  info: SignupLookupResponse | null = null;
  /** The confirmation's submit; its problem also says why the link opens nothing (no secret, not found). */
  private readonly submission = new SubmitController(this);
  loaded = false;
  /** After confirming: the new tenant and its sandbox pair, shown once (as setup does, decision 0052) until the owner continues. */
  created: { tenantId: string; pair: CreateKeyPairResponse } | null = null;
  private readonly secret = fragmentParam(window.location.hash, 'secret');

  override connectedCallback(): void {
    super.connectedCallback();
    void this.load();
  }

  focusHeading(): void {
    this.renderRoot.querySelector<HTMLElement>('h1')?.focus();
  }

  private async load(): Promise<void> {
    if (!this.secret) {
      this.submission.problem = i18n.t('signupConfirm.noSecret');
    } else {
      try {
        this.info = await request<SignupLookupResponse>('POST', '/signup/lookup', { secret: this.secret });
      } catch (error) {
        this.submission.problem = error instanceof ApiError && error.status === 404 ? i18n.t('signupConfirm.notFound') : errorMessage(error);
      }
    }
    this.loaded = true;
  }

  override render() {
    if (this.created) return renderSandboxPairReady(this.created.pair, () => this.openDashboard());
    const heading = html`<h1 tabindex="-1">${i18n.t('signupConfirm.title')}</h1>`;
    if (!this.loaded) return html`${heading}<p role="status">${i18n.t('common.loading')}</p>`;
    if (!this.info) return html`${heading}<p class="error" role="alert">${this.submission.problem}</p>`;
    return html`${heading}
      <p>${i18n.t('signupConfirm.intro', { tenant: this.info.tenantName, email: this.info.email })}</p>
      <p class="muted">${i18n.t('signupConfirm.expires', { date: formatDateTime(this.info.expiresAt) })}</p>
      ${this.submission.problem ? html`<p class="error" role="alert">${this.submission.problem}</p>` : nothing}
      <form class="card" @submit=${this.submit}>
        <div class="field">
          <label for="password">${i18n.t('signupConfirm.password')}</label>
          <input id="password" name="password" type="password" required autocomplete="current-password" />
        </div>
        <button type="submit" ?disabled=${this.submission.busy}>${i18n.t('signupConfirm.submit')}</button>
      </form>`;
  }

  private openDashboard(): void {
    this.dispatchEvent(new CustomEvent('dash-signed-in', { detail: { tenantId: this.created!.tenantId }, bubbles: true, composed: true }));
  }

  private submit(event: Event): Promise<void> {
    const values = formValues(event);
    return this.submission.run(async () => {
      const body: SignupConfirmRequest = { secret: this.secret!, password: values.password ?? '' };
      const result = await request<FirstRunSetupResponse>('POST', '/signup/confirm', body);
      // The link is spent: it leaves the address bar now; the pair is shown this once.
      window.history.replaceState(null, '', `/dashboard/${routeHref('overview')}`);
      this.created = { tenantId: result.tenantId, pair: result.sandboxKeyPair };
      await this.updateComplete;
      this.focusHeading();
    });
  }
}

declare global {
  interface HTMLElementTagNameMap {
    'dash-signup-confirm': DashSignupConfirm;
  }
}
