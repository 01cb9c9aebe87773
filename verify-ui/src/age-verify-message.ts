import { LitElement, css, html, nothing } from 'lit';
import { screenStyles } from './styles';

/** Visual weight of a message screen; errors get a coloured rule, not only a colour in the text. */
export const MessageTone = {
  info: 'info',
  warning: 'warning',
  error: 'error',
} as const;
export type MessageTone = (typeof MessageTone)[keyof typeof MessageTone];

/**
 * A screen that only informs: loading, redirecting, errors, a billing block, a session that is
 * over, live checks not yet available, the phone's "return to your computer". It holds no
 * behaviour; an optional action button reports a click and the owner decides what it means.
 *
 * @fires verify-action - The action button was pressed. No detail.
 */
export class AgeVerifyMessage extends LitElement {
  static override properties = {
    heading: { type: String },
    body: { type: String },
    bodyTestId: { attribute: false },
    bodyHint: { attribute: false },
    hint: { type: String },
    hintTestId: { attribute: false },
    detail: { type: String },
    tone: { type: String, reflect: true },
    busy: { type: Boolean },
    actionLabel: { attribute: false },
    actionTestId: { attribute: false },
    linkHref: { attribute: false },
    linkLabel: { attribute: false },
    linkTestId: { attribute: false },
  };

  static override styles = [
    screenStyles,
    css`
      :host([tone='error']) h1,
      :host([tone='warning']) h1 {
        padding-left: 0.75rem;
        border-left: 4px solid var(--av-error);
      }
      :host([tone='warning']) h1 {
        border-left-color: var(--av-warning);
      }
      .detail {
        font-size: 0.875rem;
        color: var(--av-muted);
        overflow-wrap: anywhere;
      }
      .spinner {
        width: 2rem;
        height: 2rem;
        margin: 0 0 1rem;
        border: 3px solid var(--av-border);
        border-top-color: var(--av-primary);
        border-radius: 50%;
        animation: spin 0.9s linear infinite;
      }
      @keyframes spin {
        to {
          transform: rotate(360deg);
        }
      }
      @media (prefers-reduced-motion: reduce) {
        .spinner {
          animation-duration: 3s;
        }
      }
    `,
  ];

  heading = '';
  body = '';
  /** Test id of the body paragraph, for screens whose text tests read (the live check's retry and step-up). */
  bodyTestId: string | null = null;
  /** The retry hint the body explains, as the body paragraph's data-hint. */
  bodyHint: string | null = null;
  hint = '';
  hintTestId: string | null = null;
  detail = '';
  tone: MessageTone = MessageTone.info;
  busy = false;
  actionLabel: string | null = null;
  actionTestId = 'message-action';
  linkHref: string | null = null;
  linkLabel: string | null = null;
  linkTestId = 'message-link';

  /** Moves keyboard and screen-reader focus to the new screen's heading. */
  focusHeading(): void {
    this.renderRoot.querySelector<HTMLElement>('h1')?.focus();
  }

  override render() {
    const hasActions = Boolean(this.actionLabel) || Boolean(this.linkHref && this.linkLabel);
    return html`
      ${this.busy ? html`<div class="spinner" aria-hidden="true"></div>` : nothing}
      <h1 tabindex="-1">${this.heading}</h1>
      ${this.body ? html`<p data-testid=${this.bodyTestId ?? nothing} data-hint=${this.bodyHint ?? nothing}>${this.body}</p>` : nothing}
      ${this.hint ? html`<p class="muted" data-testid=${this.hintTestId ?? nothing}>${this.hint}</p>` : nothing}
      ${this.detail ? html`<p class="detail">${this.detail}</p>` : nothing}
      ${
        hasActions
          ? html`<div class="actions">
            ${this.actionLabel ? html`<button type="button" data-testid=${this.actionTestId} @click=${this.onAction}>${this.actionLabel}</button>` : nothing}
            ${
              this.linkHref && this.linkLabel
                ? html`<a class="button secondary" data-testid=${this.linkTestId} href=${this.linkHref} rel="noopener noreferrer"
                  >${this.linkLabel}</a
                >`
                : nothing
            }
          </div>`
          : nothing
      }
    `;
  }

  private onAction(): void {
    this.dispatchEvent(new CustomEvent('verify-action'));
  }
}

declare global {
  interface HTMLElementTagNameMap {
    'age-verify-message': AgeVerifyMessage;
  }
}
