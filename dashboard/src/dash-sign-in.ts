import { LitElement, html, nothing } from 'lit';
import type { SignInRequest, SignInTwoFactorChallenge } from '@ageverify/protocol';
import type { DashTwoFactorChallenge } from './dash-two-factor-challenge';
import { ApiError, request } from './api';
import { i18n } from './i18n';
import { errorMessage, formValues } from './screen-base';
import { baseStyles } from './styles';
import { SubmitController } from './submit-controller';

/**
 * Email and password sign-in (better-auth's `sign-in/email`). A wrong password and an unknown
 * email get the same answer; the rate limit (429) says when to try again. With two-factor sign-in
 * on, the right password leads to the code step (dash-two-factor-challenge.ts; issue 23).
 *
 * @fires dash-signed-in - Signed in.
 */
export class DashSignIn extends LitElement {
  static override properties = { email: { type: String }, heading: { type: String }, step: { state: true } };
  static override styles = [baseStyles];

  private readonly submission = new SubmitController(this, { message: signInProblem });
  /** Prefilled (an invitation names the account). */
  email = '';
  heading = '';
  /** 'code': the password was right and the account asks for a second factor. */
  step: 'password' | 'code' = 'password';

  focusHeading(): void {
    if (this.step === 'code') this.renderRoot.querySelector<DashTwoFactorChallenge>('dash-two-factor-challenge')?.focusHeading();
    else this.renderRoot.querySelector<HTMLElement>('h1')?.focus();
  }

  override render() {
    if (this.step === 'code') return html`<dash-two-factor-challenge @dash-sign-in-restart=${this.restart}></dash-two-factor-challenge>`;
    return html`<h1 tabindex="-1">${this.heading || i18n.t('auth.signInTitle')}</h1>
      ${this.submission.problem ? html`<p class="error" role="alert">${this.submission.problem}</p>` : nothing}
      <form class="card" @submit=${this.submit}>
        <div class="field">
          <label for="email">${i18n.t('auth.email')}</label>
          <input id="email" name="email" type="email" required autocomplete="username" .value=${this.email} />
        </div>
        <div class="field">
          <label for="password">${i18n.t('auth.password')}</label>
          <input id="password" name="password" type="password" required autocomplete="current-password" />
        </div>
        <button type="submit" ?disabled=${this.submission.busy}>${i18n.t('auth.signIn')}</button>
      </form>`;
  }

  private submit(event: Event): Promise<void> {
    const values = formValues(event);
    return this.submission.run(async () => {
      const body: SignInRequest = { email: values.email ?? '', password: values.password ?? '' };
      const answer = await request<Partial<SignInTwoFactorChallenge> | null>('POST', '/auth/sign-in/email', body);
      if (answer?.twoFactorRedirect) {
        this.email = body.email;
        this.step = 'code';
        await this.updateComplete;
        this.focusHeading();
        return;
      }
      this.dispatchEvent(new CustomEvent('dash-signed-in', { detail: {}, bubbles: true, composed: true }));
    });
  }

  /** Back to the password (the code step ended, or the user chose to); `problem` says why, when it was not their choice. */
  private async restart(event: CustomEvent<{ problem: string | null }>): Promise<void> {
    this.step = 'password';
    this.submission.problem = event.detail.problem;
    await this.updateComplete;
    this.focusHeading();
  }
}

/** Sign-in words its two refusals itself: the rate limit says when to try again; a wrong email or password is one answer. */
function signInProblem(error: unknown): string {
  if (error instanceof ApiError && error.status === 429) {
    return i18n.t('auth.rateLimited', { minutes: Math.max(1, Math.ceil((error.retryAfter ?? 900) / 60)) });
  }
  if (error instanceof ApiError && error.status === 401) return i18n.t('auth.wrongCredentials');
  return errorMessage(error);
}

declare global {
  interface HTMLElementTagNameMap {
    'dash-sign-in': DashSignIn;
  }
}
