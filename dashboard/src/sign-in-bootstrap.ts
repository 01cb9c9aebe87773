/**
 * Which page a visitor of the dashboard sees, and who they are (issue 25, item 11: the sign-in
 * bootstrap as a controller, apart from the app's layout). A link sent outside the app opens its
 * page (first-run setup, an invitation, a sign-up confirmation); otherwise `GET /me` decides: signed
 * in → the app on the tenant last chosen; signed out → setup while no tenant exists, else sign-in.
 */
import type { ReactiveController, ReactiveControllerHost } from 'lit';
import type { MeResponse, SetupStatusResponse, TenantMembership } from '@ageverify/protocol';
import { ApiError, request } from './api';
import { entryPage } from './router';
import { errorMessage } from './screen-base';

export type View = 'loading' | 'setup' | 'invite' | 'confirm' | 'sign-in' | 'sign-up' | 'app' | 'no-tenant' | 'error';

const TENANT_KEY = 'ageverify.dashboard.tenant';

/** What the bootstrap reads and writes of the page: `window` in the browser. */
export interface BootstrapPage {
  readonly location: { readonly pathname: string; readonly search: string; readonly hash: string };
  readonly history: { replaceState(data: unknown, unused: string, url?: string | null): void };
  readonly localStorage: { getItem(key: string): string | null; setItem(key: string, value: string): void };
}

interface BootstrapState {
  view: View;
  me: MeResponse | null;
  tenantId: string;
  problem: string | null;
  signupEnabled: boolean;
}

export class SignInBootstrap implements ReactiveController, Readonly<BootstrapState> {
  view: View = 'loading';
  me: MeResponse | null = null;
  /** The tenant on screen, one of `me.tenants`. */
  tenantId = '';
  /** Why the app cannot open (view 'error'). */
  problem: string | null = null;
  /** Sign-up of a further tenant is offered on the sign-in page (`GET /setup`). */
  signupEnabled = false;

  constructor(
    private readonly host: ReactiveControllerHost,
    private readonly page: BootstrapPage = window,
  ) {
    host.addController(this);
  }

  hostConnected(): void {
    void this.start();
  }

  /** The membership of the tenant on screen. */
  get membership(): TenantMembership | undefined {
    return this.me?.tenants.find((tenant) => tenant.tenantId === this.tenantId);
  }

  private set(state: Partial<BootstrapState>): void {
    Object.assign(this, state);
    this.host.requestUpdate();
  }

  private async start(): Promise<void> {
    const page = entryPage(this.page.location.pathname);
    if (page === 'setup') {
      this.set({ view: 'setup' });
      return;
    }
    if (page === 'invite' || page === 'confirm') {
      this.set({ view: page });
      return;
    }
    // The verify UI's return ("Try it") appends its callback parameters; the hash route says it all.
    if (this.page.location.search) this.page.history.replaceState(null, '', `/dashboard/${this.page.location.hash}`);
    await this.loadMe();
  }

  /**
   * After setup, sign-in or accepting an invitation: who is signed in now, on `preferredTenant`
   * when they belong to it. The view is 'app' afterwards when it worked.
   */
  async enter(preferredTenant?: string): Promise<void> {
    this.set({ view: 'loading' });
    await this.loadMe(preferredTenant);
  }

  /**
   * Who is signed in, read again without leaving the app (issue 23: two-factor sign-in turned on or
   * off, or a tenant's policy now holds the user back). Signed out meanwhile → the sign-in page.
   */
  async refreshMe(): Promise<void> {
    try {
      const me = await request<MeResponse>('GET', '/me');
      this.set({ me });
      if (!me.tenants.some((tenant) => tenant.tenantId === this.tenantId)) await this.loadMe();
    } catch (error) {
      if (error instanceof ApiError && error.status === 401) await this.showSignedOut();
    }
  }

  /** Signed in → the app; not signed in → setup (no tenant yet) or sign-in. */
  private async loadMe(preferredTenant?: string): Promise<void> {
    let me: MeResponse;
    try {
      me = await request<MeResponse>('GET', '/me');
    } catch (error) {
      if (error instanceof ApiError && error.status === 401) {
        await this.showSignedOut();
        return;
      }
      this.set({ problem: errorMessage(error), view: 'error' });
      return;
    }
    this.set({ me });
    if (me.tenants.length === 0) {
      this.set({ view: 'no-tenant' });
      return;
    }
    const remembered = preferredTenant ?? this.page.localStorage.getItem(TENANT_KEY);
    const tenantId = me.tenants.some((tenant) => tenant.tenantId === remembered) ? remembered! : me.tenants[0]!.tenantId;
    this.set({ tenantId, view: 'app' });
  }

  private async showSignedOut(): Promise<void> {
    this.set({ me: null });
    let setupNeeded = false;
    try {
      const status = await request<SetupStatusResponse>('GET', '/setup');
      setupNeeded = status.needed;
      this.set({ signupEnabled: status.signupEnabled });
    } catch {
      setupNeeded = false;
    }
    this.set({ view: setupNeeded ? 'setup' : 'sign-in' });
  }

  /** Between sign-in and sign-up. */
  showEntry(view: 'sign-in' | 'sign-up'): void {
    this.set({ view });
  }

  /** The user picked another tenant; it is remembered for the next visit. */
  chooseTenant(tenantId: string): void {
    this.set({ tenantId });
    this.page.localStorage.setItem(TENANT_KEY, tenantId);
  }

  async signOut(): Promise<void> {
    try {
      await request('POST', '/auth/sign-out', {});
    } catch {
      // Signed out already, or the server is gone: the sign-in page is right either way.
    }
    this.page.history.replaceState(null, '', '/dashboard/');
    await this.showSignedOut();
  }
}
