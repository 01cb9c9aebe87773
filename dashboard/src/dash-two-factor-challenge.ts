import { LitElement, html, nothing } from 'lit';
import { TWO_FACTOR_ERROR_CODES, twoFactorCodeKind, type TwoFactorCodeRequest } from '@ageverify/protocol';
import { ApiError, request } from './api';
import { i18n } from './i18n';
import { errorMessage, formValues } from './screen-base';
import { baseStyles } from './styles';
import { SubmitController } from './submit-controller';

/**
 * The code step of a sign-in with two-factor sign-in on (issue 23, decision 0057): after the right
 * password, better-auth holds the session back until a code of the authenticator app
 * (`two-factor/verify-totp`) or a recovery code (`two-factor/verify-backup-code`) is right. Six
 * digits are an app code, anything else a recovery code (protocol twoFactorCodeKind). Wrong codes
 * count in the same limit as wrong passwords.
 *
 * @fires dash-signed-in - The code was right: signed in.
 * @fires dash-sign-in-restart - detail.problem: the code step ended (time, or too many wrong codes), or the user went back; the password is asked again.
 */
export class DashTwoFactorChallenge extends LitElement {
  static override styles = [baseStyles];

  private readonly submission = new SubmitController(this, { message: codeProblem, onError: (error) => this.onError(error) });

  focusHeading(): void {
    void this.updateComplete.then(() => this.renderRoot.querySelector<HTMLElement>('h1')?.focus());
  }

  override render() {
    return html`<h1 tabindex="-1">${i18n.t('twoFactor.challengeTitle')}</h1>
      <p>${i18n.t('twoFactor.challengeIntro')}</p>
      ${this.submission.problem ? html`<p class="error" role="alert">${this.submission.problem}</p>` : nothing}
      <form class="card" @submit=${this.submit}>
        <div class="field">
          <label for="code">${i18n.t('twoFactor.code')}</label>
          <input
            id="code"
            name="code"
            type="text"
            required
            maxlength="64"
            autocomplete="one-time-code"
            autocapitalize="off"
            spellcheck="false"
            aria-describedby="code-hint"
          />
          <span id="code-hint" class="muted">${i18n.t('twoFactor.codeHint')}</span>
        </div>
        <div class="actions">
          <button type="submit" ?disabled=${this.submission.busy}>${i18n.t('twoFactor.verify')}</button>
          <button type="button" class="secondary" @click=${() => this.restart(null)}>${i18n.t('twoFactor.restart')}</button>
        </div>
      </form>`;
  }

  private submit(event: Event): Promise<void> {
    const values = formValues(event);
    const form = event.target as HTMLFormElement;
    return this.submission.run(async () => {
      const { kind, code } = twoFactorCodeKind(values.code ?? '');
      const body: TwoFactorCodeRequest = { code };
      await request('POST', kind === 'totp' ? '/auth/two-factor/verify-totp' : '/auth/two-factor/verify-backup-code', body);
      form.reset();
      this.dispatchEvent(new CustomEvent('dash-signed-in', { detail: {}, bubbles: true, composed: true }));
    });
  }

  private async onError(error: unknown): Promise<void> {
    if (error instanceof ApiError && error.code === TWO_FACTOR_ERROR_CODES.challengeEnded) {
      this.restart(i18n.t('twoFactor.challengeEnded'));
      return;
    }
    // Focus back in the field, emptied, for the next try.
    await this.updateComplete;
    const input = this.renderRoot.querySelector<HTMLInputElement>('#code');
    if (input) {
      input.value = '';
      input.focus();
    }
  }

  private restart(problem: string | null): void {
    this.dispatchEvent(new CustomEvent('dash-sign-in-restart', { detail: { problem }, bubbles: true, composed: true }));
  }
}

/** The refusals of a code in the dashboard's words; the rate limit says when to try again. */
function codeProblem(error: unknown): string {
  if (error instanceof ApiError) {
    if (error.status === 429) return i18n.t('auth.rateLimited', { minutes: Math.max(1, Math.ceil((error.retryAfter ?? 900) / 60)) });
    if (error.code === TWO_FACTOR_ERROR_CODES.codeInvalid) return i18n.t('twoFactor.codeWrong');
    if (error.code === TWO_FACTOR_ERROR_CODES.codeUsed) return i18n.t('twoFactor.codeUsed');
    if (error.code === TWO_FACTOR_ERROR_CODES.challengeEnded) return i18n.t('twoFactor.challengeEnded');
  }
  return errorMessage(error);
}

declare global {
  interface HTMLElementTagNameMap {
    'dash-two-factor-challenge': DashTwoFactorChallenge;
  }
}
