import { LitElement, html, nothing } from 'lit';
import type { SignupRequest, SignupResponse } from '@ageverify/protocol';
import { request } from './api';
import { i18n } from './i18n';
import { newAccountFields } from './new-account-fields';
import { formValues } from './screen-base';
import { baseStyles } from './styles';
import { SubmitController } from './submit-controller';

/**
 * Sign-up of a further tenant and its owner (issue 12, item 1), offered on the sign-in page only
 * when the operator allows it (DASHBOARD_SIGNUP=true; `GET /setup` says `signupEnabled`). It ends at
 * "check your email": the account is made from the emailed link (dash-signup-confirm.ts).
 *
 * @fires dash-sign-in - The user chose to sign in instead.
 */
export class DashSignUp extends LitElement {
  static override properties = { sentTo: { state: true } };
  static override styles = [baseStyles];

  private readonly submission = new SubmitController(this);
  /** Where the link went: the same answer whether or not that email has a user (issue 22, finding 9). */
  sentTo: string | null = null;

  focusHeading(): void {
    this.renderRoot.querySelector<HTMLElement>('h1')?.focus();
  }

  override render() {
    if (this.sentTo) {
      return html`<h1 tabindex="-1">${i18n.t('signup.sentTitle')}</h1>
        <p role="status" data-testid="signup-sent">${i18n.t('signup.sent', { email: this.sentTo })}</p>
        <p class="muted">${i18n.t('signup.sentHint')}</p>
        <p><button type="button" class="secondary" @click=${this.signIn}>${i18n.t('signup.haveAccount')}</button></p>`;
    }
    return html`<h1 tabindex="-1">${i18n.t('signup.title')}</h1>
      <p>${i18n.t('signup.intro')}</p>
      ${this.submission.problem ? html`<p class="error" role="alert">${this.submission.problem}</p>` : nothing}
      <form class="card" @submit=${this.submit}>
        ${newAccountFields({ withTenantAndEmail: true })}
        <button type="submit" ?disabled=${this.submission.busy}>${i18n.t('signup.submit')}</button>
      </form>
      <p><button type="button" class="secondary" @click=${this.signIn}>${i18n.t('signup.haveAccount')}</button></p>`;
  }

  private signIn(): void {
    this.dispatchEvent(new CustomEvent('dash-sign-in', { bubbles: true, composed: true }));
  }

  private submit(event: Event): Promise<void> {
    const values = formValues(event);
    return this.submission.run(async () => {
      const body: SignupRequest = { tenantName: values.tenantName ?? '', email: values.email ?? '', password: values.password ?? '' };
      if (values.name) body.name = values.name;
      const result = await request<SignupResponse>('POST', '/signup', body);
      this.sentTo = result.email;
      await this.updateComplete;
      this.focusHeading();
    });
  }
}

declare global {
  interface HTMLElementTagNameMap {
    'dash-sign-up': DashSignUp;
  }
}
