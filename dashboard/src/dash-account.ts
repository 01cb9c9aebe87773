import { html, nothing } from 'lit';
import type { ChangePasswordRequest } from '@ageverify/protocol';
import { ApiError, request } from './api';
import { i18n } from './i18n';
import { MIN_PASSWORD_LENGTH } from './password-rules';
import { DashScreen, errorMessage, formValues } from './screen-base';
import { baseStyles } from './styles';
import { SubmitController } from './submit-controller';

/** Change password (better-auth `change-password`; other sessions of the user are signed out). */
export class DashAccount extends DashScreen {
  static override properties = { done: { state: true } };
  static override styles = [baseStyles];

  private readonly submission = new SubmitController(this, {
    message: (error) => (error instanceof ApiError && error.status === 400 && !error.message ? i18n.t('account.wrongCurrent') : errorMessage(error)),
  });
  done = false;

  protected async load(): Promise<void> {}

  override render() {
    return html`<h1 tabindex="-1">${i18n.t('account.title')}</h1>
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
