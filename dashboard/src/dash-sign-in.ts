import { LitElement, html, nothing } from 'lit';
import type { SignInRequest } from '@ageverify/protocol';
import { ApiError, request } from './api';
import { i18n } from './i18n';
import { errorMessage, formValues } from './screen-base';
import { baseStyles } from './styles';

/**
 * Email and password sign-in (better-auth's `sign-in/email`). A wrong password and an unknown
 * email get the same answer; the rate limit (429) says when to try again.
 *
 * @fires dash-signed-in - Signed in.
 */
export class DashSignIn extends LitElement {
  static override properties = { busy: { state: true }, problem: { state: true }, email: { type: String }, heading: { type: String } };
  static override styles = [baseStyles];

  busy = false;
  problem: string | null = null;
  /** Prefilled (an invitation names the account). */
  email = '';
  heading = '';

  focusHeading(): void {
    this.renderRoot.querySelector<HTMLElement>('h1')?.focus();
  }

  override render() {
    return html`<h1 tabindex="-1">${this.heading || i18n.t('auth.signInTitle')}</h1>
      ${this.problem ? html`<p class="error" role="alert">${this.problem}</p>` : nothing}
      <form class="card" @submit=${this.submit}>
        <div class="field">
          <label for="email">${i18n.t('auth.email')}</label>
          <input id="email" name="email" type="email" required autocomplete="username" .value=${this.email} />
        </div>
        <div class="field">
          <label for="password">${i18n.t('auth.password')}</label>
          <input id="password" name="password" type="password" required autocomplete="current-password" />
        </div>
        <button type="submit" ?disabled=${this.busy}>${i18n.t('auth.signIn')}</button>
      </form>`;
  }

  private async submit(event: Event): Promise<void> {
    const values = formValues(event);
    this.busy = true;
    this.problem = null;
    try {
      const body: SignInRequest = { email: values.email ?? '', password: values.password ?? '' };
      await request('POST', '/auth/sign-in/email', body);
      this.dispatchEvent(new CustomEvent('dash-signed-in', { detail: {}, bubbles: true, composed: true }));
    } catch (error) {
      if (error instanceof ApiError && error.status === 429) {
        this.problem = i18n.t('auth.rateLimited', { minutes: Math.max(1, Math.ceil((error.retryAfter ?? 900) / 60)) });
      } else if (error instanceof ApiError && error.status === 401) {
        this.problem = i18n.t('auth.wrongCredentials');
      } else {
        this.problem = errorMessage(error);
      }
    } finally {
      this.busy = false;
    }
  }
}

declare global {
  interface HTMLElementTagNameMap {
    'dash-sign-in': DashSignIn;
  }
}
