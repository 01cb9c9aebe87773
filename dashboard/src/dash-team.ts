import { html, nothing } from 'lit';
import {
  decideMemberChange,
  INVITABLE_ROLES,
  USER_ROLES,
  type CreateInvitationRequest,
  type InvitationView,
  type MembersResponse,
  type MemberView,
  type UserRole,
} from '@ageverify/protocol';
import type { DashConfirm } from './dash-confirm';
import { formatDateTime } from './format';
import { i18n } from './i18n';
import { DashScreen, formValues } from './screen-base';
import { baseStyles } from './styles';
import { SubmitController } from './submit-controller';

/**
 * Members, roles and invitations (issue 12, item 2). Everyone sees who is on the team; owners and
 * admins invite, change roles and remove (admins cannot touch owners; the API enforces it).
 */
export class DashTeam extends DashScreen {
  static override properties = { data: { state: true }, status: { state: true }, userId: { type: String } };
  static override styles = [baseStyles];

  data: MembersResponse | null = null;
  status: string | null = null;
  /** Every change; after a refusal the team is read again, since the refusal may come from a change someone else made. */
  private readonly submission = new SubmitController(this, { onError: () => this.load().catch(() => {}) });
  userId = '';

  protected async load(): Promise<void> {
    this.data = await this.call<MembersResponse>('GET', '/members');
  }

  override render() {
    const data = this.data;
    return html`<h1 tabindex="-1">${i18n.t('team.title')}</h1>
      <p>${i18n.t('team.roles')}</p>
      ${this.may('members') ? nothing : html`<p class="muted" data-testid="team-read-only">${i18n.t('team.readOnly', { role: i18n.t(`roles.${this.userRole}`) })}</p>`}
      ${this.submission.problem ? html`<p class="error" role="alert">${this.submission.problem}</p>` : nothing}
      <p role="status" class=${this.status ? 'success' : 'visually-hidden'}>${this.status ?? ''}</p>
      ${this.may('members') ? this.renderInvite() : nothing}
      ${this.renderLoadState()}
      ${data ? this.renderMembers(data.members) : nothing}
      ${data ? this.renderInvitations(data.invitations) : nothing}
      <dash-two-factor-policy .tenantId=${this.tenantId} .userRole=${this.userRole}></dash-two-factor-policy>
      <dash-confirm></dash-confirm>`;
  }

  private renderInvite() {
    return html`<form class="card" @submit=${this.invite}>
      <h2>${i18n.t('team.inviteTitle')}</h2>
      <div class="field">
        <label for="invite-email">${i18n.t('auth.email')}</label>
        <input id="invite-email" name="email" type="email" required autocomplete="off" />
      </div>
      <div class="field">
        <label for="invite-role">${i18n.t('team.role')}</label>
        <select id="invite-role" name="role">
          ${INVITABLE_ROLES.map((role) => html`<option value=${role}>${i18n.t(`roles.${role}`)}</option>`)}
        </select>
      </div>
      <button type="submit" ?disabled=${this.submission.busy}>${i18n.t('team.invite')}</button>
      <p class="muted">${i18n.t('team.inviteHint')}</p>
    </form>`;
  }

  private renderMembers(members: MemberView[]) {
    return html`<h2>${i18n.t('team.members')}</h2>
      <div class="table-wrap">
        <table>
          <thead>
            <tr>
              <th scope="col">${i18n.t('team.name')}</th>
              <th scope="col">${i18n.t('auth.email')}</th>
              <th scope="col">${i18n.t('team.role')}</th>
              <th scope="col">${i18n.t('team.since')}</th>
              ${this.may('members') ? html`<th scope="col">${i18n.t('common.actions')}</th>` : nothing}
            </tr>
          </thead>
          <tbody>
            ${members.map((member) => this.renderMember(member))}
          </tbody>
        </table>
      </div>`;
  }

  private renderMember(member: MemberView) {
    const self = member.userId === this.userId;
    // Admins cannot change owners (protocol decideMemberChange, the rule the API applies); nobody
    // changes themself here. Keeping the member's own role is the change that asks only "may I touch them".
    const editable = !self && decideMemberChange({ actor: this.userRole, target: member.role, change: { role: member.role }, owners: 2 }) === null;
    // The roles this user may give (only an owner makes an owner), from the same rule.
    const roles = USER_ROLES.filter((role) => decideMemberChange({ actor: this.userRole, target: member.role, change: { role }, owners: 2 }) === null);
    return html`<tr data-user-id=${member.userId}>
      <td>${member.name || '—'}${self ? html` <span class="muted">${i18n.t('team.you')}</span>` : nothing}</td>
      <td>${member.email}</td>
      <td>
        ${
          editable
            ? html`<label class="visually-hidden" for="role-${member.userId}">${i18n.t('team.roleOf', { email: member.email })}</label>
              <select id="role-${member.userId}" @change=${(event: Event) => this.changeRole(member, (event.target as HTMLSelectElement).value as UserRole)}>
                ${roles.map((role) => html`<option value=${role} ?selected=${role === member.role}>${i18n.t(`roles.${role}`)}</option>`)}
              </select>`
            : i18n.t(`roles.${member.role}`)
        }
      </td>
      <td>${formatDateTime(member.createdAt)}</td>
      ${
        this.may('members')
          ? html`<td>
            ${
              editable
                ? html`<button type="button" class="danger" aria-label=${i18n.t('team.removeLabel', { email: member.email })} @click=${() => this.removeMember(member)}>
                  ${i18n.t('team.remove')}
                </button>`
                : nothing
            }
          </td>`
          : nothing
      }
    </tr>`;
  }

  private renderInvitations(invitations: InvitationView[]) {
    const pending = invitations.filter((invitation) => invitation.status === 'pending');
    return html`<h2>${i18n.t('team.invitations')}</h2>
      ${pending.length === 0 ? html`<p class="muted">${i18n.t('team.noInvitations')}</p>` : nothing}
      <ul>
        ${pending.map(
          (invitation) => html`<li class="actions">
            <span>${invitation.email} · ${i18n.t(`roles.${invitation.role}`)} · ${i18n.t('team.expires', { date: formatDateTime(invitation.expiresAt) })}</span>
            ${
              this.may('members')
                ? html`<button type="button" class="secondary" aria-label=${i18n.t('team.cancelInvitationLabel', { email: invitation.email })} @click=${() => this.cancelInvitation(invitation)}>
                  ${i18n.t('team.cancelInvitation')}
                </button>`
                : nothing
            }
          </li>`,
        )}
      </ul>`;
  }

  /** Runs a change; its result message goes to the status line, and the team is read again. */
  private run(action: () => Promise<string>): Promise<void> {
    this.status = null;
    return this.submission.run(async () => {
      this.status = await action();
      await this.load();
    });
  }

  private invite(event: Event): Promise<void> {
    const values = formValues(event);
    const form = event.target as HTMLFormElement;
    return this.run(async () => {
      const body: CreateInvitationRequest = { email: values.email ?? '', role: (values.role as CreateInvitationRequest['role']) ?? 'developer' };
      await this.call<InvitationView>('POST', '/invitations', body);
      form.reset();
      return i18n.t('team.invited', { email: body.email });
    });
  }

  private changeRole(member: MemberView, role: UserRole): Promise<void> {
    return this.run(async () => {
      await this.call('PATCH', `/members/${encodeURIComponent(member.userId)}`, { role });
      return i18n.t('team.roleChanged', { email: member.email, role: i18n.t(`roles.${role}`) });
    });
  }

  private async removeMember(member: MemberView): Promise<void> {
    const confirmed = await this.renderRoot.querySelector<DashConfirm>('dash-confirm')!.ask({
      heading: i18n.t('team.removeTitle'),
      message: i18n.t('team.removeConfirm', { email: member.email }),
      confirmLabel: i18n.t('team.remove'),
    });
    if (!confirmed) return;
    await this.run(async () => {
      await this.call('DELETE', `/members/${encodeURIComponent(member.userId)}`);
      return i18n.t('team.removed', { email: member.email });
    });
  }

  private cancelInvitation(invitation: InvitationView): Promise<void> {
    return this.run(async () => {
      await this.call('DELETE', `/invitations/${encodeURIComponent(invitation.invitationId)}`);
      return i18n.t('team.invitationCancelled', { email: invitation.email });
    });
  }
}

declare global {
  interface HTMLElementTagNameMap {
    'dash-team': DashTeam;
  }
}
