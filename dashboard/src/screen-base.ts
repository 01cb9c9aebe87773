/**
 * What every signed-in screen shares: the tenant and role it shows, loading with an error state,
 * and focus on its heading when it appears (so keyboard and screen-reader users land on the new screen).
 *
 * Only the latest call's result is shown (issue 25, item 9; latest-call.ts): a new load aborts the
 * one before it, and switching tenant or item aborts every call of the screen, so a slow answer
 * for the previous tenant never lands on the new one. The requests a load starts before its first
 * await belong to that load (every load here starts them at once); any other call belongs to the view.
 */
import { LitElement, html, nothing, type PropertyDeclarations, type PropertyValues } from 'lit';
import { can, type Permission, type UserRole } from '@ageverify/protocol';
import { ApiError, request, tenantPath } from './api';
import { i18n } from './i18n';
import { LatestCall, Superseded } from './latest-call';

export abstract class DashScreen extends LitElement {
  static override properties: PropertyDeclarations = {
    tenantId: { type: String },
    userRole: { type: String },
    itemId: { type: String },
    loading: { state: true },
    loadError: { state: true },
  };

  tenantId = '';
  userRole: UserRole = 'developer';
  /** The route's second segment (an endpointId, a sessionId), when the screen has one. */
  itemId: string | null = null;
  loading = true;
  loadError: string | null = null;

  /** Whether this user's role may do it: protocol's role model, the one the API enforces (roles.ts). */
  protected may(permission: Permission): boolean {
    return can(this.userRole, permission);
  }

  protected abstract load(): Promise<void>;

  private readonly view = new LatestCall();
  private readonly loads = new LatestCall();
  /** Set while load() starts its requests, so that call() knows they are the load's. */
  private loadSignal: AbortSignal | null = null;

  protected override willUpdate(changed: PropertyValues<this>): void {
    if (changed.has('tenantId') || changed.has('itemId')) {
      this.view.start();
      if (this.tenantId) void this.reload();
    }
  }

  async reload(): Promise<void> {
    const signal = this.loads.start();
    this.loading = true;
    this.loadError = null;
    let loading: Promise<void>;
    this.loadSignal = AbortSignal.any([signal, this.view.signal]);
    try {
      loading = this.load();
    } finally {
      this.loadSignal = null;
    }
    try {
      await loading;
    } catch (error) {
      if (!signal.aborted && !(error instanceof Superseded)) this.loadError = errorMessage(error);
    } finally {
      if (!signal.aborted) this.loading = false;
    }
  }

  protected call<T>(method: 'GET' | 'POST' | 'PATCH' | 'DELETE', path: string, body?: unknown): Promise<T> {
    return request<T>(method, tenantPath(this.tenantId, path), body, this.loadSignal ?? this.view.signal);
  }

  focusHeading(): void {
    void this.updateComplete.then(() => this.renderRoot.querySelector<HTMLElement>('h1')?.focus());
  }

  protected renderLoadState() {
    if (this.loadError) return html`<p class="error" role="alert">${this.loadError}</p>`;
    if (this.loading) return html`<p class="muted" role="status">${i18n.t('common.loading')}</p>`;
    return nothing;
  }
}

/** The message to show for a failed call: the API's own message says what is wrong. */
export function errorMessage(error: unknown): string {
  // A call overtaken by a newer one has nothing to say to the user.
  if (error instanceof Superseded) return '';
  if (error instanceof ApiError) {
    if (error.status === 401) return i18n.t('common.signedOut');
    // Status 0: no answer at all (api.ts), so the words are the dashboard's own, in the page language.
    if (error.status === 0) return i18n.t('common.unreachable');
    return error.message;
  }
  return error instanceof Error ? error.message : String(error);
}

/** Field values of a submitted form, by name. */
export function formValues(event: Event): Record<string, string> {
  event.preventDefault();
  const form = event.target as HTMLFormElement;
  const values: Record<string, string> = {};
  for (const [name, value] of new FormData(form).entries()) if (typeof value === 'string') values[name] = value;
  return values;
}
