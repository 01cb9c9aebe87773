import { css, html, LitElement, nothing } from 'lit';
import type { MeResponse } from '@ageverify/protocol';
import { chooseLanguage, currentLanguage, i18n } from './i18n';
import { DASHBOARD_LANGUAGES, LANGUAGE_NAMES, LOCALE_TAGS, type DashboardLanguage } from './language';
import { routeHref } from './router';
import { baseStyles } from './styles';

/**
 * The signed-in app's header (issue 25, item 11: apart from the app's layout): the brand, the tenant
 * switcher (or the tenant's name when there is one), the user's role there, and the account menu,
 * which closes on Escape and gives focus back to its button. The menu's language switch (issue 23)
 * names each language in itself and marks the current one pressed; switching re-renders the page
 * in place (main.ts) and keeps the menu open with focus where it was.
 *
 * @fires dash-tenant-change - detail.tenantId: the tenant the user picked.
 * @fires dash-sign-out - The user chose Sign out.
 */
export class DashHeader extends LitElement {
  static override properties = {
    me: { attribute: false },
    tenantId: { type: String },
    menuOpen: { state: true },
    languageProblem: { state: true },
  };

  static override styles = [
    baseStyles,
    css`
      header {
        display: flex;
        flex-wrap: wrap;
        gap: 0.75rem 1.5rem;
        align-items: center;
        justify-content: space-between;
        padding: 0.75rem 1.5rem;
        background: #fff;
        border-bottom: 1px solid var(--dash-border);
      }
      .brand {
        font-weight: 700;
        font-size: 1.125rem;
      }
      .header-tools {
        display: flex;
        flex-wrap: wrap;
        gap: 0.75rem;
        align-items: center;
      }
      .switcher {
        display: flex;
        gap: 0.5rem;
        align-items: center;
      }
      .menu {
        position: relative;
      }
      .menu ul {
        position: absolute;
        right: 0;
        z-index: 5;
        min-width: 14rem;
        margin: 0.25rem 0 0;
        padding: 0.5rem;
        list-style: none;
        background: #fff;
        border: 1px solid var(--dash-border);
        border-radius: 0.5rem;
        box-shadow: 0 8px 24px rgb(0 0 0 / 0.12);
      }
      .menu li + li {
        margin-top: 0.25rem;
      }
      .menu li > * {
        width: 100%;
        box-sizing: border-box;
      }
      .languages {
        display: grid;
        grid-template-columns: 1fr 1fr;
        gap: 0.25rem;
        margin-top: 0.5rem;
        padding-top: 0.5rem;
        border-top: 1px solid var(--dash-border);
      }
      .languages .label {
        grid-column: 1 / -1;
        color: var(--dash-muted);
        font-size: 0.875rem;
      }
      .languages button[aria-pressed='true'] {
        background: var(--dash-primary);
        color: var(--dash-on-primary);
      }
      .menu .error {
        margin: 0.25rem 0 0;
        color: var(--dash-danger);
        font-size: 0.875rem;
      }
    `,
  ];

  me: MeResponse | null = null;
  tenantId = '';
  menuOpen = false;
  languageProblem = false;

  private readonly onKeyDown = (event: KeyboardEvent) => {
    if (event.key === 'Escape' && this.menuOpen) {
      this.menuOpen = false;
      this.renderRoot.querySelector<HTMLButtonElement>('#account-button')?.focus();
    }
  };

  override connectedCallback(): void {
    super.connectedCallback();
    document.addEventListener('keydown', this.onKeyDown);
  }

  override disconnectedCallback(): void {
    document.removeEventListener('keydown', this.onKeyDown);
    super.disconnectedCallback();
  }

  private switchTenant(event: Event): void {
    const tenantId = (event.target as HTMLSelectElement).value;
    this.dispatchEvent(new CustomEvent('dash-tenant-change', { detail: { tenantId } }));
  }

  private async switchLanguage(language: DashboardLanguage): Promise<void> {
    this.languageProblem = false;
    try {
      await chooseLanguage(language);
    } catch {
      this.languageProblem = true;
    }
  }

  private signOut(): void {
    this.menuOpen = false;
    this.dispatchEvent(new CustomEvent('dash-sign-out'));
  }

  override render() {
    const me = this.me;
    const membership = me?.tenants.find((tenant) => tenant.tenantId === this.tenantId);
    if (!me || !membership) return nothing;
    return html`<header>
      <span class="brand">${i18n.t('app.brand')}</span>
      <div class="header-tools">
        ${
          me.tenants.length > 1
            ? html`<div class="switcher">
              <label for="tenant-switcher">${i18n.t('app.tenant')}</label>
              <select id="tenant-switcher" @change=${this.switchTenant}>
                ${me.tenants.map((tenant) => html`<option value=${tenant.tenantId} ?selected=${tenant.tenantId === this.tenantId}>${tenant.name}</option>`)}
              </select>
            </div>`
            : html`<span>${membership.name}</span>`
        }
        <span class="badge neutral">${i18n.t(`roles.${membership.role}`)}</span>
        <div class="menu">
          <button
            id="account-button"
            type="button"
            class="secondary"
            aria-haspopup="true"
            aria-expanded=${this.menuOpen ? 'true' : 'false'}
            aria-controls="account-menu"
            @click=${() => (this.menuOpen = !this.menuOpen)}
          >
            ${i18n.t('account.menu', { email: me.user.email })}
          </button>
          ${
            this.menuOpen
              ? html`<ul id="account-menu">
                <li><a class="button secondary" href=${routeHref('account')} @click=${() => (this.menuOpen = false)}>${i18n.t('account.menuSecurity')}</a></li>
                <li><button type="button" class="secondary" @click=${this.signOut}>${i18n.t('account.signOut')}</button></li>
                <li>${this.renderLanguages()}</li>
              </ul>`
              : nothing
          }
        </div>
      </div>
    </header>`;
  }

  private renderLanguages() {
    const current = currentLanguage();
    return html`<div class="languages" role="group" aria-labelledby="language-label">
        <span id="language-label" class="label">${i18n.t('account.language')}</span>
        ${DASHBOARD_LANGUAGES.map(
          (language) => html`<button
            type="button"
            class="secondary"
            lang=${LOCALE_TAGS[language]}
            aria-pressed=${language === current ? 'true' : 'false'}
            @click=${() => this.switchLanguage(language)}
          >
            ${LANGUAGE_NAMES[language]}
          </button>`,
        )}
      </div>
      ${this.languageProblem ? html`<p class="error" role="alert">${i18n.t('account.languageFailed')}</p>` : nothing}`;
  }
}

declare global {
  interface HTMLElementTagNameMap {
    'dash-header': DashHeader;
  }
}
