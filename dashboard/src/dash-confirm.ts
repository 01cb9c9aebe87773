import { LitElement, css, html } from 'lit';
import { i18n } from './i18n';
import { baseStyles } from './styles';

/**
 * A modal confirmation for destructive actions (revoke, delete, rotate). The native <dialog> traps
 * focus, closes on Escape (= cancel) and gives focus back to the button that opened it.
 */
export class DashConfirm extends LitElement {
  static override properties = {
    heading: { state: true },
    message: { state: true },
    confirmLabel: { state: true },
  };

  static override styles = [
    baseStyles,
    css`
      dialog {
        max-width: 28rem;
        border: 1px solid var(--dash-border);
        border-radius: 0.5rem;
        padding: 1.25rem;
      }
      dialog::backdrop {
        background: rgb(0 0 0 / 0.4);
      }
      h2 {
        margin-top: 0;
      }
    `,
  ];

  heading = '';
  message = '';
  confirmLabel = '';
  private resolve: ((confirmed: boolean) => void) | null = null;

  /** Opens the dialog; resolves true when the user confirms, false on cancel or Escape. */
  async ask(options: { heading: string; message: string; confirmLabel: string }): Promise<boolean> {
    this.resolve?.(false);
    this.heading = options.heading;
    this.message = options.message;
    this.confirmLabel = options.confirmLabel;
    await this.updateComplete;
    const dialog = this.renderRoot.querySelector('dialog')!;
    dialog.showModal();
    // The safe choice has focus first.
    this.renderRoot.querySelector<HTMLButtonElement>('button.secondary')?.focus();
    return new Promise<boolean>((resolve) => {
      this.resolve = resolve;
    });
  }

  override render() {
    return html`<dialog aria-labelledby="confirm-heading" aria-describedby="confirm-message" @close=${() => this.finish(false)}>
      <h2 id="confirm-heading">${this.heading}</h2>
      <p id="confirm-message">${this.message}</p>
      <div class="actions">
        <button type="button" class="secondary" @click=${() => this.finish(false)}>${i18n.t('common.cancel')}</button>
        <button type="button" class="danger" data-testid="confirm-yes" @click=${() => this.finish(true)}>${this.confirmLabel}</button>
      </div>
    </dialog>`;
  }

  private finish(confirmed: boolean): void {
    const resolve = this.resolve;
    this.resolve = null;
    const dialog = this.renderRoot.querySelector('dialog');
    if (dialog?.open) dialog.close();
    resolve?.(confirmed);
  }
}

declare global {
  interface HTMLElementTagNameMap {
    'dash-confirm': DashConfirm;
  }
}
