import { html, nothing } from 'lit';
import type { TwoFactorPolicy } from '@ageverify/protocol';
import { i18n } from './i18n';
import { DashScreen } from './screen-base';
import { baseStyles } from './styles';
import { SubmitController } from './submit-controller';

/**
 * The tenant's two-factor policy (issue 23, decision 0057), on the team screen: whether members who
 * can manage API keys must sign in with a second factor. Everyone sees it; owners change it (the API
 * refuses others, and refuses an owner without two-factor sign-in of their own, with a message that
 * says so).
 */
export class DashTwoFactorPolicy extends DashScreen {
  static override properties = { policy: { state: true }, saved: { state: true } };
  static override styles = [baseStyles];

  policy: TwoFactorPolicy | null = null;
  saved = false;
  private readonly submission = new SubmitController(this);

  protected async load(): Promise<void> {
    this.policy = await this.call<TwoFactorPolicy>('GET', '/two-factor-policy');
  }

  override render() {
    const policy = this.policy;
    return html`<section class="card" aria-labelledby="policy-heading">
      <h2 id="policy-heading">${i18n.t('twoFactor.policyTitle')}</h2>
      ${this.renderLoadState()}
      ${policy ? html`<p data-testid="two-factor-policy">${policy.required ? i18n.t('twoFactor.policyOn') : i18n.t('twoFactor.policyOff')}</p>` : nothing}
      ${this.submission.problem ? html`<p class="error" role="alert">${this.submission.problem}</p>` : nothing}
      <p role="status" class=${this.saved ? 'success' : 'visually-hidden'}>${this.saved ? i18n.t('twoFactor.policySaved') : ''}</p>
      ${policy && this.may('signInPolicy') ? this.renderForm(policy) : nothing}
    </section>`;
  }

  private renderForm(policy: TwoFactorPolicy) {
    return html`<form @submit=${this.save}>
      <div class="field">
        <label><input type="checkbox" name="required" .checked=${policy.required} aria-describedby="policy-hint" /> ${i18n.t('twoFactor.policyCheckbox')}</label>
        <span id="policy-hint" class="muted">${i18n.t('twoFactor.policyOwnFirst')}</span>
      </div>
      <button type="submit" ?disabled=${this.submission.busy}>${i18n.t('twoFactor.policySave')}</button>
    </form>`;
  }

  private save(event: Event): Promise<void> {
    event.preventDefault();
    const form = event.target as HTMLFormElement;
    const required = (form.elements.namedItem('required') as HTMLInputElement).checked;
    this.saved = false;
    return this.submission.run(async () => {
      this.policy = await this.call<TwoFactorPolicy>('PATCH', '/two-factor-policy', { required });
      this.saved = true;
    });
  }
}

declare global {
  interface HTMLElementTagNameMap {
    'dash-two-factor-policy': DashTwoFactorPolicy;
  }
}
