import { LitElement, css, html, nothing } from 'lit';
import { can, type MeResponse, type SetupStatusResponse, type TenantMembership } from '@ageverify/protocol';
import { ApiError, request } from './api';
import { i18n } from './i18n';
import { entryPage, fragmentParam, parseRoute, routeHref, type Route, type ScreenName } from './router';
import { errorMessage, type DashScreen } from './screen-base';
import { baseStyles } from './styles';

type View = 'loading' | 'setup' | 'invite' | 'confirm' | 'sign-in' | 'sign-up' | 'app' | 'no-tenant' | 'error';

const TENANT_KEY = 'ageverify.dashboard.tenant';

/**
 * The dashboard's root: decides which page a visitor sees (first-run setup, invitation, sign-in,
 * or the app), and inside the app draws the header (tenant switcher, account menu), the navigation
 * and the screen of the current hash route. Screens get the tenant and the user's role; the API
 * checks both again on every call.
 */
export class DashApp extends LitElement {
  static override properties = {
    view: { state: true },
    me: { state: true },
    tenantId: { state: true },
    route: { state: true },
    menuOpen: { state: true },
    problem: { state: true },
    setupNeeded: { state: true },
    signupEnabled: { state: true },
  };

  static override styles = [
    baseStyles,
    css`
      :host {
        min-height: 100vh;
        background: #f5f6f8;
      }
      .skip {
        position: absolute;
        left: -999px;
        top: 0;
        padding: 0.5rem 1rem;
        background: #fff;
      }
      .skip:focus {
        left: 0.5rem;
        z-index: 10;
      }
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
      .layout {
        display: grid;
        grid-template-columns: 13rem 1fr;
        gap: 1.5rem;
        max-width: 80rem;
        margin: 0 auto;
        padding: 1.5rem;
      }
      nav ul {
        margin: 0;
        padding: 0;
        list-style: none;
      }
      nav a {
        display: block;
        padding: 0.5rem 0.75rem;
        border-radius: 0.375rem;
        color: var(--dash-text);
        text-decoration: none;
      }
      nav a[aria-current='page'] {
        background: #dbeafe;
        color: #1e3a8a;
        font-weight: 600;
      }
      main {
        min-width: 0;
      }
      .centered {
        max-width: 32rem;
        margin: 3rem auto;
        padding: 0 1rem;
      }
      @media (max-width: 900px) {
        .layout {
          grid-template-columns: 1fr;
          padding: 1rem;
        }
        nav ul {
          display: flex;
          flex-wrap: wrap;
          gap: 0.25rem;
        }
      }
    `,
  ];

  view: View = 'loading';
  me: MeResponse | null = null;
  tenantId = '';
  route: Route = parseRoute(window.location.hash);
  menuOpen = false;
  problem: string | null = null;
  setupNeeded = false;
  signupEnabled = false;

  private readonly onHashChange = () => {
    const previous = this.route;
    this.route = parseRoute(window.location.hash);
    if (previous.screen !== this.route.screen || previous.id !== this.route.id) this.focusScreen();
  };

  private readonly onKeyDown = (event: KeyboardEvent) => {
    if (event.key === 'Escape' && this.menuOpen) {
      this.menuOpen = false;
      this.renderRoot.querySelector<HTMLButtonElement>('#account-button')?.focus();
    }
  };

  override connectedCallback(): void {
    super.connectedCallback();
    window.addEventListener('hashchange', this.onHashChange);
    document.addEventListener('keydown', this.onKeyDown);
    void this.start();
  }

  override disconnectedCallback(): void {
    window.removeEventListener('hashchange', this.onHashChange);
    document.removeEventListener('keydown', this.onKeyDown);
    super.disconnectedCallback();
  }

  private async start(): Promise<void> {
    const page = entryPage(window.location.pathname);
    if (page === 'setup') {
      this.view = 'setup';
      return;
    }
    if (page === 'invite' || page === 'confirm') {
      this.view = page;
      return;
    }
    // The verify UI's return ("Try it") appends its callback parameters; the hash route says it all.
    if (window.location.search) window.history.replaceState(null, '', `/dashboard/${window.location.hash}`);
    await this.loadMe();
  }

  /**
   * Signed in → the app; not signed in → setup (no tenant yet) or sign-in. `focus`: after signing
   * in, focus moves to the first screen's heading; on a page load it stays at the top of the
   * document, so the skip link comes first.
   */
  private async loadMe(preferredTenant?: string, focus = false): Promise<void> {
    try {
      this.me = await request<MeResponse>('GET', '/me');
    } catch (error) {
      if (error instanceof ApiError && error.status === 401) {
        await this.showSignedOut();
        return;
      }
      this.problem = errorMessage(error);
      this.view = 'error';
      return;
    }
    const tenants = this.me.tenants;
    if (tenants.length === 0) {
      this.view = 'no-tenant';
      return;
    }
    const remembered = preferredTenant ?? window.localStorage.getItem(TENANT_KEY);
    this.tenantId = tenants.some((tenant) => tenant.tenantId === remembered) ? remembered! : tenants[0]!.tenantId;
    this.view = 'app';
    if (focus) this.focusScreen();
  }

  private async showSignedOut(): Promise<void> {
    this.me = null;
    try {
      const status = await request<SetupStatusResponse>('GET', '/setup');
      this.setupNeeded = status.needed;
      this.signupEnabled = status.signupEnabled;
    } catch {
      this.setupNeeded = false;
    }
    this.view = this.setupNeeded ? 'setup' : 'sign-in';
  }

  private get membership(): TenantMembership | undefined {
    return this.me?.tenants.find((tenant) => tenant.tenantId === this.tenantId);
  }

  private focusScreen(): void {
    void this.updateComplete.then(() => {
      const screen = this.renderRoot.querySelector('main > *') as DashScreen | null;
      screen?.focusHeading?.();
    });
  }

  /** After setup, sign-in or accepting an invitation: drop the one-time link from the address bar and open the app. */
  private async onSignedIn(event: CustomEvent<{ tenantId?: string }>): Promise<void> {
    if (entryPage(window.location.pathname) !== 'app' || fragmentParam(window.location.hash, 'token')) {
      window.history.replaceState(null, '', `/dashboard/${routeHref('overview')}`);
      this.route = parseRoute(window.location.hash);
    }
    this.view = 'loading';
    await this.loadMe(event.detail?.tenantId, true);
  }

  /** Between sign-in and sign-up; focus goes to the new form's heading. */
  private async showEntry(view: 'sign-in' | 'sign-up'): Promise<void> {
    this.view = view;
    await this.updateComplete;
    (this.renderRoot.querySelector('main > :first-child') as { focusHeading?: () => void } | null)?.focusHeading?.();
  }

  private switchTenant(event: Event): void {
    this.tenantId = (event.target as HTMLSelectElement).value;
    window.localStorage.setItem(TENANT_KEY, this.tenantId);
    window.location.hash = routeHref('overview');
    this.focusScreen();
  }

  private async signOut(): Promise<void> {
    this.menuOpen = false;
    try {
      await request('POST', '/auth/sign-out', {});
    } catch {
      // Signed out already, or the server is gone: the sign-in page is right either way.
    }
    window.history.replaceState(null, '', '/dashboard/');
    await this.showSignedOut();
  }

  override render() {
    switch (this.view) {
      case 'loading':
        return html`<div class="centered"><p role="status">${i18n.t('common.loading')}</p></div>`;
      case 'setup':
        return html`<main class="centered"><dash-setup @dash-signed-in=${this.onSignedIn}></dash-setup></main>`;
      case 'invite':
        return html`<main class="centered"><dash-invitation @dash-signed-in=${this.onSignedIn}></dash-invitation></main>`;
      case 'confirm':
        return html`<main class="centered"><dash-signup-confirm @dash-signed-in=${this.onSignedIn}></dash-signup-confirm></main>`;
      case 'sign-in':
        return html`<main class="centered">
          <dash-sign-in @dash-signed-in=${this.onSignedIn}></dash-sign-in>
          ${
            this.signupEnabled
              ? html`<p><button type="button" class="secondary" @click=${() => this.showEntry('sign-up')}>${i18n.t('signup.offer')}</button></p>`
              : nothing
          }
        </main>`;
      case 'sign-up':
        return html`<main class="centered">
          <dash-sign-up @dash-sign-in=${() => this.showEntry('sign-in')}></dash-sign-up>
        </main>`;
      case 'no-tenant':
        return html`<main class="centered">
          <h1>${i18n.t('app.noTenantTitle')}</h1>
          <p>${i18n.t('app.noTenant')}</p>
          <button type="button" class="secondary" @click=${this.signOut}>${i18n.t('account.signOut')}</button>
        </main>`;
      case 'error':
        return html`<main class="centered">
          <h1>${i18n.t('app.errorTitle')}</h1>
          <p class="error" role="alert">${this.problem}</p>
          <button type="button" @click=${() => window.location.reload()}>${i18n.t('common.retry')}</button>
        </main>`;
      case 'app':
        return this.renderApp();
    }
  }

  private renderApp() {
    const membership = this.membership!;
    const items: Array<[ScreenName, string]> = [
      ['overview', i18n.t('nav.overview')],
      ['keys', i18n.t('nav.keys')],
      ['domains', i18n.t('nav.domains')],
      ['webhooks', i18n.t('nav.webhooks')],
      ['sessions', i18n.t('nav.sessions')],
      ['team', i18n.t('nav.team')],
      ...(can(membership.role, 'emails') ? ([['emails', i18n.t('nav.emails')]] as Array<[ScreenName, string]>) : []),
    ];
    return html`<a class="skip" href="#main" @click=${this.skipToMain}>${i18n.t('app.skip')}</a>
      <header>
        <span class="brand">${i18n.t('app.brand')}</span>
        <div class="header-tools">
          ${
            this.me!.tenants.length > 1
              ? html`<div class="switcher">
                <label for="tenant-switcher">${i18n.t('app.tenant')}</label>
                <select id="tenant-switcher" @change=${this.switchTenant}>
                  ${this.me!.tenants.map((tenant) => html`<option value=${tenant.tenantId} ?selected=${tenant.tenantId === this.tenantId}>${tenant.name}</option>`)}
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
              ${i18n.t('account.menu', { email: this.me!.user.email })}
            </button>
            ${
              this.menuOpen
                ? html`<ul id="account-menu">
                  <li><a class="button secondary" href=${routeHref('account')} @click=${() => (this.menuOpen = false)}>${i18n.t('account.changePassword')}</a></li>
                  <li><button type="button" class="secondary" @click=${this.signOut}>${i18n.t('account.signOut')}</button></li>
                </ul>`
                : nothing
            }
          </div>
        </div>
      </header>
      <div class="layout">
        <nav aria-label=${i18n.t('nav.label')}>
          <ul>
            ${items.map(
              ([screen, label]) => html`<li><a href=${routeHref(screen)} aria-current=${this.route.screen === screen ? 'page' : 'false'}>${label}</a></li>`,
            )}
          </ul>
        </nav>
        <main id="main" tabindex="-1">${this.renderScreen(membership)}</main>
      </div>`;
  }

  private skipToMain(event: Event): void {
    event.preventDefault();
    this.focusScreen();
  }

  private renderScreen(membership: TenantMembership) {
    const { tenantId, role } = membership;
    const id = this.route.id;
    switch (this.route.screen) {
      case 'overview':
        return html`<dash-overview .tenantId=${tenantId} .userRole=${role}></dash-overview>`;
      case 'keys':
        return html`<dash-keys .tenantId=${tenantId} .userRole=${role}></dash-keys>`;
      case 'domains':
        return html`<dash-domains .tenantId=${tenantId} .userRole=${role}></dash-domains>`;
      case 'webhooks':
        return id
          ? html`<dash-webhook-detail .tenantId=${tenantId} .userRole=${role} .itemId=${id}></dash-webhook-detail>`
          : html`<dash-webhooks .tenantId=${tenantId} .userRole=${role}></dash-webhooks>`;
      case 'sessions':
        return id
          ? html`<dash-session-detail .tenantId=${tenantId} .userRole=${role} .itemId=${id}></dash-session-detail>`
          : html`<dash-sessions .tenantId=${tenantId} .userRole=${role}></dash-sessions>`;
      case 'team':
        return html`<dash-team .tenantId=${tenantId} .userRole=${role} .userId=${this.me!.user.id}></dash-team>`;
      case 'emails':
        return html`<dash-emails .tenantId=${tenantId} .userRole=${role}></dash-emails>`;
      case 'account':
        return html`<dash-account .tenantId=${tenantId} .userRole=${role}></dash-account>`;
    }
  }
}

declare global {
  interface HTMLElementTagNameMap {
    'dash-app': DashApp;
  }
}
