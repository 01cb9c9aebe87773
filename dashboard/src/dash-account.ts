import { html, nothing } from 'lit';
import type { ChangePasswordRequest } from '@ageverify/protocol';
import { ApiError, request } from './api';
import { i18n } from './i18n';
import { MIN_PASSWORD_LENGTH } from './password-rules';
import { DashScreen, errorMessage, formValues } from './screen-base';
import { baseStyles } from './styles';
import { SubmitController } from './submit-controller';

/**
 * The signed-in user's account: two-factor sign-in (dash-two-factor.ts; issue 23) and the password
 * (better-auth `change-password`; other sessions of the user are signed out). A member whom a
 * tenant's policy holds back (`heldBy`) sees only this screen, with the reason on top.
 */
export class DashAccount extends DashScreen {
  static override properties = {
    done: { state: true },
    twoFactorEnabled: { type: Boolean },
    twoFactorRequiredBy: { attribute: false },
    heldBy: { type: String },
  };
  static override styles = [baseStyles];

  /** Two-factor sign-in is on for this user (GET /me). */
  twoFactorEnabled = false;
  /** Names of the tenants whose policy requires it of this user. */
  twoFactorRequiredBy: string[] = [];
  /** The tenant on screen, when its policy holds this user back until two-factor sign-in is on. */
  heldBy: string | null = null;

  private readonly submission = new SubmitController(this, {
    message: (error) => (error instanceof ApiError && error.status === 400 && !error.message ? i18n.t('account.wrongCurrent') : errorMessage(error)),
  });
  done = false;

  protected async load(): Promise<void> {}

  override render() {
    return html`<h1 tabindex="-1">${i18n.t('account.title')}</h1>
      ${this.heldBy ? html`<p class="error" role="alert" data-testid="two-factor-held">${i18n.t('twoFactor.requiredNotice', { tenant: this.heldBy })}</p>` : nothing}
      <dash-two-factor .enabled=${this.twoFactorEnabled} .requiredBy=${this.twoFactorRequiredBy}></dash-two-factor>
      ${this.submission.problem ? html`<p class="error" role="alert">${this.submission.problem}</p>` : nothing}
      <p role="status" class=${this.done ? 'success' : 'visually-hidden'}>${this.done ? i18n.t('account.changed') : ''}</p>
      <form class="card" @submit=${this.submit}>
        <h2>${i18n.t('account.changePassword')}</h2>
        <div class="field">
          <label for="current">${i18n.t('account.currentPassword')}</label>
          <input id="current" name="current" type="password" required autocomplete="current-password" />
        </div>
        <div class="field">
          <label for="next">${i18n.t('auth.newPassword')}</label>
          <input id="next" name="next" type="password" required minlength=${MIN_PASSWORD_LENGTH} autocomplete="new-password" aria-describedby="next-hint" />
          <span id="next-hint" class="muted">${i18n.t('auth.passwordHint', { min: MIN_PASSWORD_LENGTH })}</span>
        </div>
        <div class="field">
          <label for="repeat">${i18n.t('account.repeatPassword')}</label>
          <input id="repeat" name="repeat" type="password" required minlength=${MIN_PASSWORD_LENGTH} autocomplete="new-password" />
        </div>
        <button type="submit" ?disabled=${this.submission.busy}>${i18n.t('account.changePassword')}</button>
      </form>`;
  }

  private async submit(event: Event): Promise<void> {
    const values = formValues(event);
    const form = event.target as HTMLFormElement;
    this.submission.problem = null;
    this.done = false;
    if (values.next !== values.repeat) {
      this.submission.problem = i18n.t('account.mismatch');
      return;
    }
    await this.submission.run(async () => {
      const body: ChangePasswordRequest = { currentPassword: values.current ?? '', newPassword: values.next ?? '', revokeOtherSessions: true };
      await request('POST', '/auth/change-password', body);
      form.reset();
      this.done = true;
    });
  }
}

declare global {
  interface HTMLElementTagNameMap {
    'dash-account': DashAccount;
  }
}
