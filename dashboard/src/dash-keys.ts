import { css, html, nothing } from 'lit';
import type { CreateKeyPairResponse, KeyPairView, KeyPairsResponse, RevokeKeyPairRequest } from '@ageverify/protocol';
import type { DashConfirm } from './dash-confirm';
import type { SecretItem } from './dash-secret';
import { formatDateTime } from './format';
import { i18n } from './i18n';
import { DashScreen, errorMessage } from './screen-base';
import { baseStyles } from './styles';

/**
 * API key pairs (issue 12, item 3). A pair is a publishable key (browser) and a secret key (server);
 * the secret key is shown once, at creation. Developers read the list; owners and admins create and revoke.
 */
export class DashKeys extends DashScreen {
  static override properties = { pairs: { state: true }, created: { state: true }, problem: { state: true }, busy: { state: true } };
  static override styles = [
    baseStyles,
    css`
      tr.revoked td {
        color: var(--dash-muted);
      }
    `,
  ];

  pairs: KeyPairView[] = [];
  created: CreateKeyPairResponse | null = null;
  problem: string | null = null;
  busy = false;

  protected async load(): Promise<void> {
    this.pairs = (await this.call<KeyPairsResponse>('GET', '/keys')).pairs;
  }

  override render() {
    return html`<h1 tabindex="-1">${i18n.t('keys.title')}</h1>
      <p>${i18n.t('keys.intro')}</p>
      ${this.may('keys') ? this.renderCreate() : html`<p class="muted" data-testid="keys-read-only">${i18n.t('keys.readOnly', { role: i18n.t(`roles.${this.userRole}`) })}</p>`}
      ${this.problem ? html`<p class="error" role="alert">${this.problem}</p>` : nothing}
      ${this.created ? this.renderCreated(this.created) : nothing}
      ${this.renderLoadState()}
      ${this.pairs.some((pair) => pair.launchUnavailable) ? html`<p class="error" role="note">${i18n.t('keys.launchUnavailableExplained')}</p>` : nothing}
      <div class="table-wrap">
        <table>
          <caption class="visually-hidden">${i18n.t('keys.title')}</caption>
          <thead>
            <tr>
              <th scope="col">${i18n.t('keys.mode')}</th>
              <th scope="col">${i18n.t('keys.publishable')}</th>
              <th scope="col">${i18n.t('keys.secret')}</th>
              <th scope="col">${i18n.t('keys.created')}</th>
              <th scope="col">${i18n.t('keys.state')}</th>
              ${this.may('keys') ? html`<th scope="col">${i18n.t('common.actions')}</th>` : nothing}
            </tr>
          </thead>
          <tbody>
            ${this.pairs.map((pair) => this.renderPair(pair))}
          </tbody>
        </table>
      </div>
      ${!this.loading && this.pairs.length === 0 ? html`<p class="muted">${i18n.t('keys.none')}</p>` : nothing}
      <section class="card" aria-labelledby="launch-heading">
        <h2 id="launch-heading">${i18n.t('keys.launchTitle')}</h2>
        <p>${i18n.t('keys.launchExplained')}</p>
      </section>
      <dash-confirm></dash-confirm>`;
  }

  private renderCreate() {
    return html`<div class="actions">
      <button type="button" ?disabled=${this.busy} @click=${() => this.create(false)}>${i18n.t('keys.createLive')}</button>
      <button type="button" class="secondary" ?disabled=${this.busy} @click=${() => this.create(true)}>${i18n.t('keys.createSandbox')}</button>
    </div>`;
  }

  private renderCreated(created: CreateKeyPairResponse) {
    const items: SecretItem[] = [
      { label: i18n.t('keys.publishable'), value: created.publishableKey, once: false, testId: 'new-publishable-key' },
      { label: i18n.t('keys.secret'), value: created.secretKey, once: true, testId: 'new-secret-key' },
    ];
    return html`<dash-secret
      .heading=${created.sandbox ? i18n.t('keys.createdSandbox') : i18n.t('keys.createdLive')}
      .items=${items}
      @dash-dismiss=${() => (this.created = null)}
    ></dash-secret>`;
  }

  private renderPair(pair: KeyPairView) {
    const revoked = pair.revokedAt !== null;
    let state = html`<span class="badge ok">${i18n.t('keys.active')}</span>`;
    if (revoked) state = html`<span class="badge neutral">${i18n.t('keys.revokedAt', { date: formatDateTime(pair.revokedAt) })}</span>`;
    else if (pair.launchUnavailable) state = html`<span class="badge bad">${i18n.t('keys.launchUnavailable')}</span>`;
    else if (pair.publishableRevokedAt) state = html`<span class="badge warn">${i18n.t('keys.publishableRevoked')}</span>`;
    return html`<tr class=${revoked ? 'revoked' : ''} data-pair-id=${pair.pairId}>
      <td><span class="badge ${pair.sandbox ? 'warn' : 'ok'}">${pair.sandbox ? i18n.t('keys.sandbox') : i18n.t('keys.live')}</span></td>
      <td><code>${pair.publishableKey}</code>${pair.publishableRevokedAt && !revoked ? html`<br /><span class="muted">${i18n.t('keys.revokedAt', { date: formatDateTime(pair.publishableRevokedAt) })}</span>` : nothing}</td>
      <td><code>${pair.secretKeyHint}</code></td>
      <td>${formatDateTime(pair.createdAt)}</td>
      <td>${state}</td>
      ${
        this.may('keys')
          ? html`<td>
            ${
              revoked
                ? nothing
                : html`<div class="actions">
                  <button type="button" class="danger" aria-label=${i18n.t('keys.revokeLabel', { key: pair.publishableKey })} @click=${() => this.revoke(pair, 'pair')}>
                    ${i18n.t('keys.revoke')}
                  </button>
                  ${
                    pair.publishableRevokedAt
                      ? nothing
                      : html`<button type="button" class="secondary" aria-label=${i18n.t('keys.revokePublishableLabel', { key: pair.publishableKey })} @click=${() => this.revoke(pair, 'publishable')}>
                        ${i18n.t('keys.revokePublishable')}
                      </button>`
                  }
                </div>`
            }
          </td>`
          : nothing
      }
    </tr>`;
  }

  private async create(sandbox: boolean): Promise<void> {
    this.busy = true;
    this.problem = null;
    try {
      this.created = await this.call<CreateKeyPairResponse>('POST', '/keys', { sandbox });
      await this.load();
    } catch (error) {
      this.problem = errorMessage(error);
    } finally {
      this.busy = false;
    }
  }

  private async revoke(pair: KeyPairView, only: NonNullable<RevokeKeyPairRequest['only']>): Promise<void> {
    const confirm = this.renderRoot.querySelector<DashConfirm>('dash-confirm')!;
    const confirmed = await confirm.ask({
      heading: only === 'pair' ? i18n.t('keys.revokeConfirmTitle') : i18n.t('keys.revokePublishableConfirmTitle'),
      message:
        only === 'pair' ? i18n.t('keys.revokeConfirm', { key: pair.publishableKey }) : i18n.t('keys.revokePublishableConfirm', { key: pair.publishableKey }),
      confirmLabel: i18n.t('keys.revoke'),
    });
    if (!confirmed) return;
    this.problem = null;
    try {
      const body: RevokeKeyPairRequest = { only };
      await this.call('POST', `/keys/${encodeURIComponent(pair.pairId)}/revoke`, body);
      await this.load();
    } catch (error) {
      this.problem = errorMessage(error);
    }
  }
}

declare global {
  interface HTMLElementTagNameMap {
    'dash-keys': DashKeys;
  }
}
