import { css, html, nothing } from 'lit';
import type {
  CreateKeyPairRequest,
  CreateKeyPairResponse,
  KeyPairView,
  KeyPairsResponse,
  RenameKeyPairRequest,
  RevokeKeyPairRequest,
} from '@ageverify/protocol';
import type { DashConfirm } from './dash-confirm';
import type { SecretItem } from './dash-secret';
import { formatDateTime } from './format';
import { i18n } from './i18n';
import { DashScreen, errorMessage, formValues } from './screen-base';
import { baseStyles } from './styles';
import { SubmitController } from './submit-controller';

/**
 * API key pairs (issue 12, item 3). A pair is a publishable key (browser) and a secret key (server);
 * the secret key is shown once, at creation. Developers read the list; owners and admins create,
 * label (issue 23) and revoke. The service checks a label (trimmed, at most 100 characters) and its
 * message says what is wrong.
 */
export class DashKeys extends DashScreen {
  static override properties = {
    pairs: { state: true },
    created: { state: true },
    editing: { state: true },
    renamed: { state: true },
  };
  static override styles = [
    baseStyles,
    css`
      tr.revoked td {
        color: var(--dash-muted);
      }
      form.rename {
        display: flex;
        flex-wrap: wrap;
        gap: 0.5rem;
        align-items: center;
      }
      form.rename .error {
        flex-basis: 100%;
      }
    `,
  ];

  pairs: KeyPairView[] = [];
  created: CreateKeyPairResponse | null = null;
  /** Creating a pair (its problem is also a revocation's). */
  private readonly submission = new SubmitController(this);
  /** The pair whose label is being edited in its row. */
  editing: string | null = null;
  /** Saving a label; its problem is shown in the row, beside the field. */
  private readonly renaming = new SubmitController(this);
  renamed: string | null = null;

  protected async load(): Promise<void> {
    this.pairs = (await this.call<KeyPairsResponse>('GET', '/keys')).pairs;
  }

  override render() {
    return html`<h1 tabindex="-1">${i18n.t('keys.title')}</h1>
      <p>${i18n.t('keys.intro')}</p>
      ${this.may('keys') ? this.renderCreate() : html`<p class="muted" data-testid="keys-read-only">${i18n.t('keys.readOnly', { role: i18n.t(`roles.${this.userRole}`) })}</p>`}
      ${this.submission.problem ? html`<p class="error" role="alert">${this.submission.problem}</p>` : nothing}
      ${this.created ? this.renderCreated(this.created) : nothing}
      ${this.renderLoadState()}
      <p role="status" class="visually-hidden">${this.renamed ?? ''}</p>
      ${this.pairs.some((pair) => pair.launchUnavailable) ? html`<p class="error" role="note">${i18n.t('keys.launchUnavailableExplained')}</p>` : nothing}
      <div class="table-wrap">
        <table>
          <caption class="visually-hidden">${i18n.t('keys.title')}</caption>
          <thead>
            <tr>
              <th scope="col">${i18n.t('keys.label')}</th>
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
    // Two submit buttons: the one pressed says live or sandbox (SubmitEvent.submitter).
    return html`<form class="card" @submit=${this.create} novalidate>
      <div class="field">
        <label for="new-label">${i18n.t('keys.labelField')}</label>
        <input
          id="new-label"
          name="label"
          type="text"
          autocomplete="off"
          placeholder=${i18n.t('keys.labelPlaceholder')}
          aria-describedby="new-label-hint"
          @keydown=${this.noImplicitSubmit}
        />
        <span id="new-label-hint" class="muted">${i18n.t('keys.labelHint')}</span>
      </div>
      <div class="actions">
        <button type="submit" name="mode" value="live" ?disabled=${this.busy}>${i18n.t('keys.createLive')}</button>
        <button type="submit" name="mode" value="sandbox" class="secondary" ?disabled=${this.busy}>${i18n.t('keys.createSandbox')}</button>
      </div>
    </form>`;
  }

  /** Enter in the label field would press the first button, Create live key pair: which pair to make is the user's click. */
  private readonly noImplicitSubmit = (event: KeyboardEvent) => {
    if (event.key === 'Enter') event.preventDefault();
  };

  private renderLabel(pair: KeyPairView) {
    if (this.editing !== pair.pairId) {
      return pair.label ? html`<span data-testid="pair-label">${pair.label}</span>` : html`<span class="muted">${i18n.t('keys.noLabel')}</span>`;
    }
    const name = pair.label ?? pair.publishableKey;
    return html`<form class="rename" @submit=${(event: Event) => this.rename(event, pair)} @keydown=${this.cancelOnEscape} novalidate>
      <input
        id="rename-${pair.pairId}"
        name="label"
        type="text"
        autocomplete="off"
        .value=${pair.label ?? ''}
        aria-label=${i18n.t('keys.labelOf', { key: pair.publishableKey })}
        aria-describedby="rename-hint-${pair.pairId}${this.renaming.problem ? ` rename-error-${pair.pairId}` : ''}"
        aria-invalid=${this.renaming.problem ? 'true' : 'false'}
      />
      <button type="submit" ?disabled=${this.busy}>${i18n.t('common.save')}</button>
      <button type="button" class="secondary" @click=${() => this.stopEditing(pair)}>${i18n.t('common.cancel')}</button>
      ${this.renaming.problem ? html`<span id="rename-error-${pair.pairId}" class="error" role="alert">${this.renaming.problem}</span>` : nothing}
      <span id="rename-hint-${pair.pairId}" class="visually-hidden">${i18n.t('keys.renameHint', { name })}</span>
    </form>`;
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
      <td>${this.renderLabel(pair)}</td>
      <td><span class="badge ${pair.sandbox ? 'warn' : 'ok'}">${pair.sandbox ? i18n.t('keys.sandbox') : i18n.t('keys.live')}</span></td>
      <td><code>${pair.publishableKey}</code>${pair.publishableRevokedAt && !revoked ? html`<br /><span class="muted">${i18n.t('keys.revokedAt', { date: formatDateTime(pair.publishableRevokedAt) })}</span>` : nothing}</td>
      <td><code>${pair.secretKeyHint}</code></td>
      <td>${formatDateTime(pair.createdAt)}</td>
      <td>${state}</td>
      ${
        this.may('keys')
          ? html`<td>
            <div class="actions">
              <button
                type="button"
                class="secondary"
                id="rename-button-${pair.pairId}"
                ?disabled=${this.editing === pair.pairId}
                aria-label=${i18n.t('keys.renameLabel', { key: pair.publishableKey })}
                @click=${() => this.startEditing(pair)}
              >
                ${i18n.t('keys.rename')}
              </button>
            </div>
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

  /** One action at a time: creating and saving a label disable each other's buttons. */
  private get busy(): boolean {
    return this.submission.busy || this.renaming.busy;
  }

  private create(event: SubmitEvent): Promise<void> {
    const values = formValues(event);
    const form = event.target as HTMLFormElement;
    const sandbox = (event.submitter as HTMLButtonElement | null)?.value === 'sandbox';
    return this.submission.run(async () => {
      const body: CreateKeyPairRequest = { sandbox };
      if (values.label?.trim()) body.label = values.label;
      this.created = await this.call<CreateKeyPairResponse>('POST', '/keys', body);
      form.reset();
      await this.load();
    });
  }

  private async startEditing(pair: KeyPairView): Promise<void> {
    this.editing = pair.pairId;
    this.renaming.problem = null;
    this.renamed = null;
    await this.updateComplete;
    this.renderRoot.querySelector<HTMLInputElement>(`#rename-${CSS.escape(pair.pairId)}`)?.focus();
  }

  /** Back to the row's Rename button, so keyboard users keep their place. */
  private async stopEditing(pair: KeyPairView): Promise<void> {
    this.editing = null;
    this.renaming.problem = null;
    await this.updateComplete;
    this.renderRoot.querySelector<HTMLButtonElement>(`#rename-button-${CSS.escape(pair.pairId)}`)?.focus();
  }

  private readonly cancelOnEscape = (event: KeyboardEvent) => {
    if (event.key !== 'Escape') return;
    const pair = this.pairs.find((candidate) => candidate.pairId === this.editing);
    if (pair) void this.stopEditing(pair);
  };

  private rename(event: Event, pair: KeyPairView): Promise<void> {
    const values = formValues(event);
    return this.renaming.run(
      async () => {
        const body: RenameKeyPairRequest = { label: values.label?.trim() ? values.label : null };
        const updated = await this.call<KeyPairView>('PATCH', `/keys/${encodeURIComponent(pair.pairId)}`, body);
        this.pairs = this.pairs.map((candidate) => (candidate.pairId === updated.pairId ? updated : candidate));
        this.renamed = updated.label ? i18n.t('keys.renamed', { label: updated.label }) : i18n.t('keys.labelRemoved');
        await this.stopEditing(pair);
      },
      {
        // Back to the field the message describes, in the row of this pair.
        onError: async () => {
          await this.updateComplete;
          this.renderRoot.querySelector<HTMLInputElement>(`#rename-${CSS.escape(pair.pairId)}`)?.focus();
        },
      },
    );
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
    this.submission.problem = null;
    try {
      const body: RevokeKeyPairRequest = { only };
      await this.call('POST', `/keys/${encodeURIComponent(pair.pairId)}/revoke`, body);
      await this.load();
    } catch (error) {
      this.submission.problem = errorMessage(error);
    }
  }
}

declare global {
  interface HTMLElementTagNameMap {
    'dash-keys': DashKeys;
  }
}
