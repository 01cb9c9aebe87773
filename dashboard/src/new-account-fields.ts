/**
 * The form fields of a new dashboard account, shared by first-run setup, sign-up (both also name
 * the tenant and take the email) and accepting an invitation (the email is the invitation's).
 * Field names match the API's request bodies.
 */
import { html, nothing } from 'lit';
import { i18n } from './i18n';
import { MIN_PASSWORD_LENGTH } from './password-rules';

export function newAccountFields(options: { withTenantAndEmail: boolean }) {
  return html`${
    options.withTenantAndEmail
      ? html`<div class="field">
          <label for="tenantName">${i18n.t('setup.tenantName')}</label>
          <input id="tenantName" name="tenantName" type="text" required autocomplete="organization" />
        </div>`
      : nothing
  }
    <div class="field">
      <label for="name">${i18n.t('setup.name')}</label>
      <input id="name" name="name" type="text" autocomplete="name" />
    </div>
    ${
      options.withTenantAndEmail
        ? html`<div class="field">
          <label for="email">${i18n.t('auth.email')}</label>
          <input id="email" name="email" type="email" required autocomplete="email" />
        </div>`
        : nothing
    }
    <div class="field">
      <label for="password">${i18n.t('auth.newPassword')}</label>
      <input id="password" name="password" type="password" required minlength=${MIN_PASSWORD_LENGTH} autocomplete="new-password" aria-describedby="password-hint" />
      <span id="password-hint" class="muted">${i18n.t('auth.passwordHint', { min: MIN_PASSWORD_LENGTH })}</span>
    </div>`;
}
