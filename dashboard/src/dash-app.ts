import { LitElement, html, nothing } from 'lit';
import { can, mustEnrolTwoFactor, type TenantMembership } from '@ageverify/protocol';
import { TWO_FACTOR_REQUIRED_EVENT } from './api';
import { appStyles } from './app-styles';
import { i18n } from './i18n';
import { entryPage, fragmentParam, parseRoute, routeHref, type Route, type ScreenName } from './router';
import type { DashScreen } from './screen-base';
import { SignInBootstrap } from './sign-in-bootstrap';

/**
 * The dashboard's root: shows the page the sign-in bootstrap decides (first-run setup, invitation,
 * sign-in, or the app; sign-in-bootstrap.ts), and inside the app the header (dash-header.ts), the
 * navigation and the screen of the current hash route. Screens get the tenant and the user's role;
 * the API checks both again on every call.
 */
export class DashApp extends LitElement {
  static override properties = {
    route: { state: true },
  };

  static override styles = appStyles;

  route: Route = parseRoute(window.location.hash);
  private readonly session = new SignInBootstrap(this);

  /**
   * A tenant route answered 403 TWO_FACTOR_REQUIRED: the policy holds this user back now. Read who
   * they are again; the app then shows only the enrolment (willUpdate).
   */
  private readonly onTwoFactorRequired = () => {
    void this.session.refreshMe();
  };

  private readonly onHashChange = () => {
    const previous = this.route;
    this.route = parseRoute(window.location.hash);
    if (previous.screen !== this.route.screen || previous.id !== this.route.id) this.focusScreen();
  };

  override connectedCallback(): void {
    super.connectedCallback();
    window.addEventListener('hashchange', this.onHashChange);
    window.addEventListener(TWO_FACTOR_REQUIRED_EVENT, this.onTwoFactorRequired);
  }

  override disconnectedCallback(): void {
    window.removeEventListener('hashchange', this.onHashChange);
    window.removeEventListener(TWO_FACTOR_REQUIRED_EVENT, this.onTwoFactorRequired);
    super.disconnectedCallback();
  }

  private focusScreen(): void {
    void this.updateComplete.then(() => {
      const screen = this.renderRoot.querySelector('main > *') as DashScreen | null;
      screen?.focusHeading?.();
    });
  }

  /**
   * After setup, sign-in or accepting an invitation: drop the one-time link from the address bar and
   * open the app, with focus on the first screen's heading (on a page load it stays at the top of
   * the document, so the skip link comes first).
   */
  private async onSignedIn(event: CustomEvent<{ tenantId?: string }>): Promise<void> {
    if (entryPage(window.location.pathname) !== 'app' || fragmentParam(window.location.hash, 'token')) {
      window.history.replaceState(null, '', `/dashboard/${routeHref('overview')}`);
      this.route = parseRoute(window.location.hash);
    }
    await this.session.enter(event.detail?.tenantId);
    if (this.session.view === 'app') this.focusScreen();
  }

  /** Between sign-in and sign-up; focus goes to the new form's heading. */
  private async showEntry(view: 'sign-in' | 'sign-up'): Promise<void> {
    this.session.showEntry(view);
    await this.updateComplete;
    (this.renderRoot.querySelector('main > :first-child') as { focusHeading?: () => void } | null)?.focusHeading?.();
  }

  private switchTenant(event: CustomEvent<{ tenantId: string }>): void {
    this.session.chooseTenant(event.detail.tenantId);
    window.location.hash = routeHref('overview');
    this.focusScreen();
  }

  private signOut(): Promise<void> {
    return this.session.signOut();
  }

  /**
   * Held back by a tenant's two-factor policy, the user is on the account screen whatever the
   * address said, and the address says so too: once enrolled they stay there and see it is on.
   */
  protected override willUpdate(): void {
    const membership = this.session.view === 'app' ? this.session.membership : undefined;
    if (membership && this.held(membership) && this.route.screen !== 'account') {
      window.history.replaceState(null, '', `${window.location.pathname}${routeHref('account')}`);
      this.route = parseRoute(window.location.hash);
    }
  }

  override render() {
    switch (this.session.view) {
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
            this.session.signupEnabled
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
          <p class="error" role="alert">${this.session.problem}</p>
          <button type="button" @click=${() => window.location.reload()}>${i18n.t('common.retry')}</button>
        </main>`;
      case 'app':
        return this.renderApp();
    }
  }

  /** Whether the tenant on screen holds this user back until two-factor sign-in is on (issue 23; protocol mustEnrolTwoFactor). */
  private held(membership: TenantMembership): boolean {
    const twoFactor = this.session.me!.twoFactor;
    return mustEnrolTwoFactor({
      role: membership.role,
      tenantRequiresTwoFactor: twoFactor.tenantsRequiring.includes(membership.tenantId),
      userHasTwoFactor: twoFactor.enabled,
    });
  }

  private renderApp() {
    const membership = this.session.membership!;
    const held = this.held(membership);
    const allItems: Array<[ScreenName, string]> = [
      ['overview', i18n.t('nav.overview')],
      ['keys', i18n.t('nav.keys')],
      ['domains', i18n.t('nav.domains')],
      ['webhooks', i18n.t('nav.webhooks')],
      ['sessions', i18n.t('nav.sessions')],
      ['team', i18n.t('nav.team')],
      ...(can(membership.role, 'emails') ? ([['emails', i18n.t('nav.emails')]] as Array<[ScreenName, string]>) : []),
      ...(can(membership.role, 'audit') ? ([['audit', i18n.t('audit.nav')]] as Array<[ScreenName, string]>) : []),
    ];
    // Held back: the account screen, where two-factor sign-in is turned on, is all there is.
    const items: Array<[ScreenName, string]> = held ? [['account', i18n.t('nav.account')]] : allItems;
    const screen = this.route.screen;
    return html`<a class="skip" href="#main" @click=${this.skipToMain}>${i18n.t('app.skip')}</a>
      <dash-header .me=${this.session.me} .tenantId=${this.session.tenantId} @dash-tenant-change=${this.switchTenant} @dash-sign-out=${this.signOut}></dash-header>
      <div class="layout">
        <nav aria-label=${i18n.t('nav.label')}>
          <ul>
            ${items.map(([item, label]) => html`<li><a href=${routeHref(item)} aria-current=${screen === item ? 'page' : 'false'}>${label}</a></li>`)}
          </ul>
        </nav>
        <main id="main" tabindex="-1" @dash-two-factor-change=${this.onTwoFactorChange}>${this.renderScreen(membership, held)}</main>
      </div>`;
  }

  private skipToMain(event: Event): void {
    event.preventDefault();
    this.focusScreen();
  }

  private renderScreen(membership: TenantMembership, held: boolean) {
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
        return html`<dash-team .tenantId=${tenantId} .userRole=${role} .userId=${this.session.me!.user.id}></dash-team>`;
      case 'emails':
        return html`<dash-emails .tenantId=${tenantId} .userRole=${role}></dash-emails>`;
      case 'account':
        return this.renderAccount(membership, held);
      case 'audit':
        return html`<dash-audit .tenantId=${tenantId} .userRole=${role}></dash-audit>`;
    }
  }

  private renderAccount(membership: TenantMembership, held: boolean) {
    const me = this.session.me!;
    // The tenants that would hold this user back without a second factor.
    const requiredBy = me.tenants
      .filter((tenant) =>
        mustEnrolTwoFactor({ role: tenant.role, tenantRequiresTwoFactor: me.twoFactor.tenantsRequiring.includes(tenant.tenantId), userHasTwoFactor: false }),
      )
      .map((tenant) => tenant.name);
    return html`<dash-account
      .tenantId=${membership.tenantId}
      .userRole=${membership.role}
      .twoFactorEnabled=${me.twoFactor.enabled}
      .twoFactorRequiredBy=${requiredBy}
      .heldBy=${held ? membership.name : null}
    ></dash-account>`;
  }

  /** Two-factor sign-in turned on or off: who the user is now decides what they may reach. */
  private async onTwoFactorChange(): Promise<void> {
    await this.session.refreshMe();
  }
}

declare global {
  interface HTMLElementTagNameMap {
    'dash-app': DashApp;
  }
}
