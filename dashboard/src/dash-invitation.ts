import { LitElement, html, nothing } from 'lit';
import type { AcceptInvitationRequest, AcceptInvitationResponse, InvitationInfoResponse, InvitationLookupRequest, MeResponse } from '@ageverify/protocol';
import { ApiError, request } from './api';
import { formatDateTime } from './format';
import { i18n } from './i18n';
import { newAccountFields } from './new-account-fields';
import { fragmentParam } from './router';
import { errorMessage, formValues } from './screen-base';
import { baseStyles } from './styles';
import { SubmitController } from './submit-controller';

/**
 * The page of an invitation link (`/dashboard/invite#secret=…`): a new user chooses a password; a
 * user who already has an account signs in (as that email) and accepts. The secret is read from the
 * URL fragment, which the browser never sends, and goes to the API only in request bodies.
 *
 * @fires dash-signed-in - Accepted; detail.tenantId is the tenant joined.
 */
export class DashInvitation extends LitElement {
  static override properties = {
    info: { state: true },
    signedInAs: { state: true },
    loaded: { state: true },
  };
  static override styles = [baseStyles];

  info: InvitationInfoResponse | null = null;
  signedInAs: string | null = null;
  /** Accepting; its problem also says why the link opens nothing (no id, not found). */
  private readonly submission = new SubmitController(this);
  loaded = false;
  private readonly secret = fragmentParam(window.location.hash, 'secret');

  override connectedCallback(): void {
    super.connectedCallback();
    void this.load();
  }

  focusHeading(): void {
    this.renderRoot.querySelector<HTMLElement>('h1')?.focus();
  }

  private async load(): Promise<void> {
    if (!this.secret) {
      this.submission.problem = i18n.t('invite.noId');
      this.loaded = true;
      return;
    }
    try {
      const lookup: InvitationLookupRequest = { secret: this.secret };
      this.info = await request<InvitationInfoResponse>('POST', '/invitations/lookup', lookup);
      try {
        this.signedInAs = (await request<MeResponse>('GET', '/me')).user.email;
      } catch {
        this.signedInAs = null;
      }
    } catch (error) {
      this.submission.problem = error instanceof ApiError && error.status === 404 ? i18n.t('invite.notFound') : errorMessage(error);
    }
    this.loaded = true;
  }

  override render() {
    const heading = html`<h1 tabindex="-1">${i18n.t('invite.title')}</h1>`;
    if (!this.loaded) return html`${heading}<p role="status">${i18n.t('common.loading')}</p>`;
    if (!this.info) return html`${heading}<p class="error" role="alert">${this.submission.problem}</p>`;
    const info = this.info;
    const intro = html`<p>${i18n.t('invite.intro', { tenant: info.tenantName, role: i18n.t(`roles.${info.role}`), email: info.email })}</p>
      <p class="muted">${i18n.t('invite.expires', { date: formatDateTime(info.expiresAt) })}</p>
      ${this.submission.problem ? html`<p class="error" role="alert">${this.submission.problem}</p>` : nothing}`;
    if (info.accountExists) {
      if (this.signedInAs?.toLowerCase() === info.email.toLowerCase()) {
        return html`${heading}${intro}<button type="button" ?disabled=${this.submission.busy} @click=${() => this.accept({ secret: this.secret! })}>${i18n.t('invite.accept')}</button>`;
      }
      return html`${heading}${intro}
        <p>${i18n.t('invite.signInFirst')}</p>
        <dash-sign-in .email=${info.email} .heading=${i18n.t('invite.signInHeading')} @dash-signed-in=${this.afterSignIn}></dash-sign-in>`;
    }
    return html`${heading}${intro}
      <form class="card" @submit=${this.createAccount}>
        ${newAccountFields({ withTenantAndEmail: false })}
        <button type="submit" ?disabled=${this.submission.busy}>${i18n.t('invite.createAccount')}</button>
      </form>`;
  }

  /** The nested sign-in succeeded: accept as that user, without bubbling sign-in to the app first. */
  private async afterSignIn(event: Event): Promise<void> {
    event.stopPropagation();
    await this.accept({ secret: this.secret! });
  }

  private createAccount(event: Event): Promise<void> {
    const values = formValues(event);
    const body: AcceptInvitationRequest = { secret: this.secret!, password: values.password ?? '' };
    if (values.name) body.name = values.name;
    return this.accept(body);
  }

  private accept(body: AcceptInvitationRequest): Promise<void> {
    return this.submission.run(async () => {
      const result = await request<AcceptInvitationResponse>('POST', '/invitations/accept', body);
      this.dispatchEvent(new CustomEvent('dash-signed-in', { detail: { tenantId: result.tenantId }, bubbles: true, composed: true }));
    });
  }
}

declare global {
  interface HTMLElementTagNameMap {
    'dash-invitation': DashInvitation;
  }
}
