import { LitElement, css, html, nothing } from 'lit';
import {
  TWO_FACTOR_ERROR_CODES,
  type DisableTwoFactorRequest,
  type EnableTwoFactorRequest,
  type EnableTwoFactorResponse,
  type TwoFactorCodeRequest,
} from '@ageverify/protocol';
import { QUIET_ZONE, encodeQr, type QrCode } from '@ageverify/verify-ui/qr-code';
import { ApiError, request } from './api';
import { i18n } from './i18n';
import { errorMessage, formValues } from './screen-base';
import { baseStyles } from './styles';
import { SubmitController } from './submit-controller';

/** Where an enrolment stands: nothing started, waiting for the first code, or showing the recovery codes once. */
type Stage =
  | { name: 'idle' }
  | { name: 'confirm'; uri: string; secret: string; qr: QrCode | null; backupCodes: string[] }
  | { name: 'codes'; backupCodes: string[] };

/**
 * Two-factor sign-in of the signed-in user (issue 23, decision 0057), on the account screen:
 *
 * off → (password) `two-factor/enable` → the app's QR code and setup key, and a first code
 * → `two-factor/verify-totp` turns it on → the recovery codes, shown this once → on;
 * on → (password) `two-factor/disable` → off.
 *
 * The QR code is drawn as one SVG path with the verify UI's encoder (its path data bound as an
 * attribute: no generated markup, nothing the strict CSP forbids). The setup key is the URI's
 * base32 secret, grouped by four for typing. Neither is kept once the enrolment is confirmed.
 *
 * @fires dash-two-factor-change - detail.enabled: two-factor sign-in was turned on (after the recovery codes were dismissed) or off.
 */
export class DashTwoFactor extends LitElement {
  static override properties = {
    enabled: { type: Boolean },
    requiredBy: { attribute: false },
    stage: { state: true },
    status: { state: true },
  };

  static override styles = [
    baseStyles,
    css`
      .qr {
        display: block;
        width: 12rem;
        height: 12rem;
        margin: 0.5rem 0 1rem;
      }
      .key {
        display: inline-block;
        padding: 0.375rem 0.5rem;
        font-size: 1.0625rem;
        letter-spacing: 0.05em;
        word-break: break-all;
        background: #fff;
        border: 1px solid var(--dash-border);
        border-radius: 0.25rem;
        user-select: all;
      }
      .codes-card {
        border-color: #b45309;
        background: #fffbeb;
      }
      ol.codes {
        display: grid;
        grid-template-columns: repeat(auto-fill, minmax(9rem, 1fr));
        gap: 0.375rem 1.5rem;
        margin: 0.75rem 0 1rem;
        padding-left: 1.75rem;
      }
      ol.codes code {
        font-size: 1rem;
      }
    `,
  ];

  /** Two-factor sign-in is on for this user (GET /me). */
  enabled = false;
  /** Names of the user's tenants whose policy requires it of this user. */
  requiredBy: string[] = [];
  stage: Stage = { name: 'idle' };
  /** The outcome of the last action, announced politely. */
  status: string | null = null;

  private readonly submission = new SubmitController(this, { message: problemOf });

  override render() {
    return html`<section class="card" aria-labelledby="two-factor-heading">
      <h2 id="two-factor-heading" tabindex="-1">${i18n.t('twoFactor.title')}</h2>
      <p data-testid="two-factor-state"><strong>${this.enabled ? i18n.t('twoFactor.stateOn') : i18n.t('twoFactor.stateOff')}</strong></p>
      ${this.enabled || this.stage.name !== 'idle' ? nothing : html`<p>${i18n.t('twoFactor.explain')}</p>`}
      ${this.requiredBy.length > 0 && this.enabled ? html`<p class="muted">${i18n.t('twoFactor.requiredHint', { tenants: this.requiredBy.join(', ') })}</p>` : nothing}
      ${this.submission.problem ? html`<p class="error" role="alert">${this.submission.problem}</p>` : nothing}
      <p role="status" class=${this.status ? 'success' : 'visually-hidden'}>${this.status ?? ''}</p>
      ${this.renderStage()}
    </section>`;
  }

  private renderStage() {
    const stage = this.stage;
    if (stage.name === 'confirm') return this.renderConfirm(stage);
    if (stage.name === 'codes') return this.renderCodes(stage.backupCodes);
    return html`<form @submit=${this.enabled ? this.turnOff : this.turnOn}>
      <div class="field">
        <label for="two-factor-password">${i18n.t('twoFactor.password')}</label>
        <input id="two-factor-password" name="password" type="password" required autocomplete="current-password" />
      </div>
      <button type="submit" class=${this.enabled ? 'danger' : ''} ?disabled=${this.submission.busy}>
        ${this.enabled ? i18n.t('twoFactor.turnOff') : i18n.t('twoFactor.turnOn')}
      </button>
    </form>`;
  }

  private renderConfirm(stage: Extract<Stage, { name: 'confirm' }>) {
    return html`<h3 id="scan-heading" tabindex="-1">${i18n.t('twoFactor.scanTitle')}</h3>
      <p>${i18n.t('twoFactor.scan')}</p>
      ${stage.qr ? renderQr(stage.qr) : nothing}
      <p>${i18n.t('twoFactor.manual')}</p>
      <p><code class="key" data-testid="two-factor-secret">${groupedKey(stage.secret)}</code></p>
      <form @submit=${this.confirm}>
        <div class="field">
          <label for="two-factor-code">${i18n.t('twoFactor.confirmCode')}</label>
          <input
            id="two-factor-code"
            name="code"
            type="text"
            inputmode="numeric"
            pattern="[0-9 ]{6,7}"
            maxlength="7"
            required
            autocomplete="one-time-code"
            aria-describedby="two-factor-code-hint"
          />
          <span id="two-factor-code-hint" class="muted">${i18n.t('twoFactor.confirmHint')}</span>
        </div>
        <div class="actions">
          <button type="submit" ?disabled=${this.submission.busy}>${i18n.t('twoFactor.confirm')}</button>
          <button type="button" class="secondary" @click=${this.cancel}>${i18n.t('common.cancel')}</button>
        </div>
      </form>`;
  }

  private renderCodes(backupCodes: string[]) {
    return html`<div class="card codes-card">
      <h3 id="codes-heading" tabindex="-1">${i18n.t('twoFactor.codesTitle')}</h3>
      <p>${i18n.t('twoFactor.codesIntro')}</p>
      <ol class="codes" aria-label=${i18n.t('twoFactor.codesLabel')} data-testid="recovery-codes">
        ${backupCodes.map((code) => html`<li><code>${code}</code></li>`)}
      </ol>
      <div class="actions">
        <button type="button" class="secondary" @click=${() => this.copyCodes(backupCodes)}>${i18n.t('twoFactor.copyCodes')}</button>
        <button type="button" @click=${this.finish}>${i18n.t('twoFactor.codesDone')}</button>
      </div>
    </div>`;
  }

  private turnOn(event: Event): Promise<void> {
    const values = formValues(event);
    return this.submission.run(async () => {
      this.status = null;
      const body: EnableTwoFactorRequest = { password: values.password ?? '' };
      const started = await request<EnableTwoFactorResponse>('POST', '/auth/two-factor/enable', body);
      const secret = new URL(started.totpURI).searchParams.get('secret') ?? '';
      let qr: QrCode | null = null;
      try {
        qr = encodeQr(started.totpURI);
      } catch {
        // Too long for a QR code (an unusually long email address): the setup key still works.
      }
      this.stage = { name: 'confirm', uri: started.totpURI, secret, qr, backupCodes: started.backupCodes };
      await this.focusOn('#scan-heading');
    });
  }

  private confirm(event: Event): Promise<void> {
    const values = formValues(event);
    const stage = this.stage;
    if (stage.name !== 'confirm') return Promise.resolve();
    return this.submission.run(async () => {
      const body: TwoFactorCodeRequest = { code: (values.code ?? '').replace(/\s+/g, '') };
      await request('POST', '/auth/two-factor/verify-totp', body);
      // On now; the recovery codes are shown this once, before anything else changes on the page.
      this.stage = { name: 'codes', backupCodes: stage.backupCodes };
      await this.focusOn('#codes-heading');
    });
  }

  private async cancel(): Promise<void> {
    // The unconfirmed enrolment stays unused: sign-in asks for no code, and a new start replaces it.
    this.stage = { name: 'idle' };
    this.submission.problem = null;
    await this.focusOn('#two-factor-heading');
  }

  private async copyCodes(backupCodes: string[]): Promise<void> {
    try {
      await navigator.clipboard.writeText(backupCodes.join('\n'));
      this.status = i18n.t('twoFactor.codesCopied');
    } catch {
      // No clipboard permission: select the list so Ctrl+C copies it.
      const list = this.renderRoot.querySelector('ol.codes');
      if (list) window.getSelection()?.selectAllChildren(list);
    }
  }

  private async finish(): Promise<void> {
    this.stage = { name: 'idle' };
    this.status = null;
    this.dispatchEvent(new CustomEvent('dash-two-factor-change', { detail: { enabled: true }, bubbles: true, composed: true }));
    await this.focusOn('#two-factor-heading');
  }

  private turnOff(event: Event): Promise<void> {
    const values = formValues(event);
    const form = event.target as HTMLFormElement;
    return this.submission.run(async () => {
      const body: DisableTwoFactorRequest = { password: values.password ?? '' };
      await request('POST', '/auth/two-factor/disable', body);
      form.reset();
      this.status = i18n.t('twoFactor.turnedOff');
      this.dispatchEvent(new CustomEvent('dash-two-factor-change', { detail: { enabled: false }, bubbles: true, composed: true }));
    });
  }

  private async focusOn(selector: string): Promise<void> {
    await this.updateComplete;
    this.renderRoot.querySelector<HTMLElement>(selector)?.focus();
  }
}

/** A QR code as one SVG path on a white square with its quiet zone; sized by the stylesheet. */
function renderQr(qr: QrCode) {
  const side = qr.size + QUIET_ZONE * 2;
  return html`<svg
    class="qr"
    data-testid="two-factor-qr"
    role="img"
    aria-label=${i18n.t('twoFactor.qrLabel')}
    viewBox="${-QUIET_ZONE} ${-QUIET_ZONE} ${side} ${side}"
    shape-rendering="crispEdges"
  >
    <rect x=${-QUIET_ZONE} y=${-QUIET_ZONE} width=${side} height=${side} fill="#ffffff"></rect>
    <path d=${qr.path} fill="#000000"></path>
  </svg>`;
}

/** `ABCD EFGH …`: the base32 key in groups of four, as authenticator apps accept it (spaces are ignored). */
function groupedKey(secret: string): string {
  return secret.replace(/(.{4})(?=.)/g, '$1 ');
}

/** A wrong password, a wrong or used code and the rate limit in the dashboard's words. */
function problemOf(error: unknown): string {
  if (error instanceof ApiError) {
    if (error.status === 429) return i18n.t('auth.rateLimited', { minutes: Math.max(1, Math.ceil((error.retryAfter ?? 900) / 60)) });
    if (error.code === TWO_FACTOR_ERROR_CODES.passwordWrong) return i18n.t('twoFactor.wrongPassword');
    if (error.code === TWO_FACTOR_ERROR_CODES.codeInvalid) return i18n.t('twoFactor.codeWrong');
    if (error.code === TWO_FACTOR_ERROR_CODES.codeUsed) return i18n.t('twoFactor.codeUsed');
  }
  return errorMessage(error);
}

declare global {
  interface HTMLElementTagNameMap {
    'dash-two-factor': DashTwoFactor;
  }
}
