import { css, html, nothing, svg } from 'lit';
import type { CallbackStatus, FailureReason } from '@ageverify/protocol';
import { i18n } from './i18n';
import { TranslatedElement } from './translated-element';
import { ReturnChannel } from './merchant-return';
import { screenStyles } from './styles';

/** Heading and body per outcome; the app announces the same heading in its live region. */
export const RESULT_TEXT_KEYS = {
  verified: { heading: 'result.verifiedHeading', body: 'result.verifiedBody' },
  failed: { heading: 'result.failedHeading', body: 'result.failedBody' },
  cancelled: { heading: 'result.cancelledHeading', body: 'result.cancelledBody' },
} as const satisfies Record<CallbackStatus, { heading: string; body: string }>;

const ICONS = {
  verified: svg`<path d="M7 12.5l3.2 3.2L17 9" />`,
  failed: svg`<path d="M8 8l8 8M16 8l-8 8" />`,
  cancelled: svg`<path d="M7.5 12h9" />`,
} as const satisfies Record<CallbackStatus, unknown>;

/**
 * The short result screen shown before the user goes back. The owner runs the timers and the
 * navigation; this element only shows the outcome and offers the manual way back.
 *
 * @fires verify-continue - "Continue" pressed (redirect channel). No detail.
 * @fires verify-close - "Close window" pressed (opener channel). No detail.
 */
export class AgeVerifyResult extends TranslatedElement {
  static override properties = {
    status: { type: String, reflect: true },
    channel: { attribute: false },
    redirectUrl: { attribute: false },
    reason: { attribute: false },
  };

  static override styles = [
    screenStyles,
    css`
      .icon {
        display: block;
        width: 3rem;
        height: 3rem;
        margin-bottom: 1rem;
        border-radius: 50%;
        fill: none;
        stroke: currentColor;
        stroke-width: 2.2;
        stroke-linecap: round;
        stroke-linejoin: round;
        color: var(--av-on-primary);
        background: var(--av-muted);
      }
      :host([status='verified']) .icon {
        background: var(--av-success);
      }
      :host([status='failed']) .icon {
        background: var(--av-error);
      }
    `,
  ];

  status: CallbackStatus = 'verified';
  channel: ReturnChannel = ReturnChannel.redirect;
  redirectUrl = '';
  /** Why a live check failed (protocol/src/checks.ts FAILURE_REASONS); null for simulated outcomes. */
  reason: FailureReason | null = null;

  focusHeading(): void {
    this.renderRoot.querySelector<HTMLElement>('h1')?.focus();
  }

  override render() {
    const text = RESULT_TEXT_KEYS[this.status];
    return html`
      <svg class="icon" viewBox="0 0 24 24" aria-hidden="true">${ICONS[this.status]}</svg>
      <h1 tabindex="-1" data-testid="result-heading">${this.reason === 'too_many_attempts' ? i18n.t('result.tooManyHeading') : i18n.t(text.heading)}</h1>
      <p>${i18n.t(text.body)}</p>
      ${this.reason ? html`<p data-testid="result-reason" data-reason=${this.reason}>${i18n.t(`result.reasons.${this.reason}`)}</p>` : nothing}
      ${
        this.channel === ReturnChannel.opener
          ? html`<p class="muted">${i18n.t('result.windowNotice')}</p>
            <div class="actions">
              <button type="button" data-testid="close-window" @click=${() => this.emit('verify-close')}>
                ${i18n.t('result.closeWindow')}
              </button>
              <a class="button secondary" data-testid="return-link" href=${this.redirectUrl}>${i18n.t('result.returnLink')}</a>
            </div>`
          : html`<p class="muted">${i18n.t('result.redirectNotice')}</p>
            <div class="actions">
              <button type="button" data-testid="continue" @click=${() => this.emit('verify-continue')}>
                ${i18n.t('result.continue')}
              </button>
            </div>`
      }
    `;
  }

  private emit(type: 'verify-continue' | 'verify-close'): void {
    this.dispatchEvent(new CustomEvent(type));
  }
}

declare global {
  interface HTMLElementTagNameMap {
    'age-verify-result': AgeVerifyResult;
  }
}
