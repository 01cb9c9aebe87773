import { LitElement, css, html } from 'lit';
import { i18n } from './i18n';
import { baseStyles } from './styles';

export interface SecretItem {
  label: string;
  value: string;
  /** Only the secret values are "shown once"; a publishable key beside them can be read again later. */
  once: boolean;
  testId: string;
}

/**
 * Values the service shows a single time (a secret key, a signing secret), with a copy button and
 * a plain statement that they cannot be shown again. The owner removes it on `dash-dismiss`.
 *
 * @fires dash-dismiss - The user confirmed they stored the values.
 */
export class DashSecret extends LitElement {
  static override properties = {
    heading: { type: String },
    doneLabel: { type: String },
    items: { attribute: false },
    copied: { state: true },
  };

  static override styles = [
    baseStyles,
    css`
      .card {
        border-color: #b45309;
        background: #fffbeb;
      }
      .value {
        display: flex;
        flex-wrap: wrap;
        gap: 0.5rem;
        align-items: center;
        margin: 0.25rem 0 0.75rem;
      }
      h2 {
        margin-top: 0;
      }
      .value code {
        min-width: 0;
        word-break: break-all;
        padding: 0.375rem 0.5rem;
        background: #fff;
        border: 1px solid var(--dash-border);
        border-radius: 0.25rem;
        user-select: all;
      }
    `,
  ];

  heading = '';
  /** The dismiss button's words; "I have stored it" unless the owner says otherwise. */
  doneLabel: string | null = null;
  items: SecretItem[] = [];
  copied: string | null = null;

  override firstUpdated(): void {
    // Announce the new secret and move focus to it, so it is not missed.
    this.renderRoot.querySelector<HTMLElement>('h2')?.focus();
  }

  override render() {
    return html`<section class="card" aria-labelledby="secret-heading">
      <h2 id="secret-heading" tabindex="-1">${this.heading}</h2>
      <p>${i18n.t('secret.once')}</p>
      ${this.items.map(
        (
          item,
        ) => html`<p class="label"><strong>${item.label}</strong>${item.once ? html` <span class="badge warn">${i18n.t('secret.onceBadge')}</span>` : ''}</p>
          <div class="value">
            <code data-testid=${item.testId}>${item.value}</code>
            <button type="button" class="secondary" aria-label=${i18n.t('secret.copyLabel', { label: item.label })} @click=${() => this.copy(item)}>
              ${i18n.t('secret.copy')}
            </button>
          </div>`,
      )}
      <p role="status" class="muted">${this.copied ? i18n.t('secret.copied', { label: this.copied }) : ''}</p>
      <button type="button" @click=${this.dismiss}>${this.doneLabel ?? i18n.t('secret.done')}</button>
    </section>`;
  }

  private async copy(item: SecretItem): Promise<void> {
    try {
      await navigator.clipboard.writeText(item.value);
      this.copied = item.label;
    } catch {
      // No clipboard permission: select the text so Ctrl+C copies it.
      const code = [...this.renderRoot.querySelectorAll('code')].find((element) => element.textContent === item.value);
      if (code) window.getSelection()?.selectAllChildren(code);
      this.copied = null;
    }
  }

  private dismiss(): void {
    this.dispatchEvent(new CustomEvent('dash-dismiss', { bubbles: true, composed: true }));
  }
}

declare global {
  interface HTMLElementTagNameMap {
    'dash-secret': DashSecret;
  }
}
