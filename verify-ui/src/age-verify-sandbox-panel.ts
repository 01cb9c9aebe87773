import { css, html, nothing } from 'lit';
import { SIMULATED_OUTCOMES, type SimulatedOutcome } from '@ageverify/protocol';
import { i18n } from './i18n';
import { TranslatedElement } from './translated-element';
import { screenStyles } from './styles';

/** Button label per outcome; the test ids are part of the UI's contract with e2e tests. */
const OUTCOME_LABEL_KEYS = {
  verified: 'sandbox.verified',
  failed: 'sandbox.failed',
  cancelled: 'sandbox.cancelled',
} as const satisfies Record<SimulatedOutcome, string>;

/**
 * Sandbox sessions only (docs/decisions-on-open-points.md "sandboxMode"): the tester chooses the outcome instead of a
 * real check. Clearly labelled, so nobody mistakes it for a real verification.
 *
 * @fires verify-simulate - A simulate button was pressed. detail: `{ outcome: SimulatedOutcome }`.
 */
export class AgeVerifySandboxPanel extends TranslatedElement {
  static override properties = {
    merchantName: { attribute: false },
    submitting: { attribute: false },
    errorMessage: { attribute: false },
    errorDetail: { attribute: false },
  };

  static override styles = [
    screenStyles,
    css`
      .panel {
        padding: 1rem;
        border: 2px dashed var(--av-sandbox-border);
        border-radius: 0.75rem;
        background: var(--av-sandbox-surface);
      }
      .error {
        margin-top: 1rem;
        padding: 0.75rem;
        border-left: 4px solid var(--av-error);
        background: var(--av-error-surface);
      }
      .error p:last-child {
        margin-bottom: 0;
      }
    `,
  ];

  merchantName: string | null = null;
  /** The outcome being sent, or null when idle: all buttons are disabled while one is in flight. */
  submitting: SimulatedOutcome | null = null;
  errorMessage: string | null = null;
  errorDetail: string | null = null;

  focusHeading(): void {
    this.renderRoot.querySelector<HTMLElement>('h1')?.focus();
  }

  override render() {
    const busy = this.submitting !== null;
    return html`
      <section class="panel" aria-labelledby="sandbox-heading" aria-busy=${busy ? 'true' : 'false'}>
        <span class="badge">${i18n.t('app.sandboxBadge')}</span>
        <h1 id="sandbox-heading" tabindex="-1">${i18n.t('sandbox.heading')}</h1>
        <p>
          ${this.merchantName ? i18n.t('sandbox.bodyMerchant', { merchant: this.merchantName }) : i18n.t('sandbox.bodyGeneric')}
        </p>
        <div class="actions">
          ${SIMULATED_OUTCOMES.map(
            (outcome) => html`<button
              type="button"
              class=${outcome === 'verified' ? '' : 'secondary'}
              data-testid=${`simulate-${outcome}`}
              ?disabled=${busy}
              @click=${() => this.onSimulate(outcome)}
            >
              ${this.submitting === outcome ? i18n.t('sandbox.submitting') : i18n.t(OUTCOME_LABEL_KEYS[outcome])}
            </button>`,
          )}
        </div>
        ${
          this.errorMessage
            ? html`<div class="error" role="alert" data-testid="simulate-error">
              <p>${this.errorMessage}</p>
              ${this.errorDetail ? html`<p class="muted">${this.errorDetail}</p>` : nothing}
            </div>`
            : nothing
        }
      </section>
    `;
  }

  private onSimulate(outcome: SimulatedOutcome): void {
    if (this.submitting) return;
    this.dispatchEvent(new CustomEvent('verify-simulate', { detail: { outcome } }));
  }
}

declare global {
  interface HTMLElementTagNameMap {
    'age-verify-sandbox-panel': AgeVerifySandboxPanel;
  }
}
