import { css, html, nothing, type PropertyValues } from 'lit';
import { i18n } from './i18n';
import { TranslatedElement } from './translated-element';
import { QUIET_ZONE, encodeQr, type QrCode } from './qr-code';
import { screenStyles } from './styles';

/**
 * Desktop side of the QR handoff (spec "QR handoff": "a desktop user can continue on mobile").
 * Shown below the intro and check screens. Closed, it offers "Continue on your phone"; open, it
 * shows the handoff link as a QR code and as text, and says that this page is waiting. The app's
 * HandoffController owns the link (already checked by safeHandoffUrl) and the polling; this
 * element only displays and reports the click.
 *
 * @fires verify-handoff-open - "Continue on your phone" was pressed. No detail.
 */
export class AgeVerifyHandoff extends TranslatedElement {
  static override properties = {
    url: { attribute: false },
    open: { type: Boolean, reflect: true },
    pollStopped: { attribute: false },
    unreachable: { attribute: false },
    copied: { state: true },
  };

  static override styles = [
    screenStyles,
    css`
      :host {
        margin-top: 1.5rem;
        padding-top: 1.25rem;
        border-top: 1px solid var(--av-border);
      }
      h2 {
        margin-top: 0;
      }
      .qr {
        display: block;
        box-sizing: border-box;
        width: min(100%, 15rem);
        height: auto;
        margin: 1rem auto;
        /* Scanners need dark modules on a light ground, also in dark mode. */
        background: #ffffff;
        border-radius: 0.5rem;
      }
      .link {
        margin: 0.5rem 0 0;
        padding: 0.5rem 0.625rem;
        border: 1px solid var(--av-border);
        border-radius: 0.5rem;
        font-family: ui-monospace, SFMono-Regular, Menlo, Consolas, monospace;
        font-size: 0.8125rem;
        overflow-wrap: anywhere;
        user-select: all;
      }
      .actions {
        margin-top: 0.75rem;
      }
      .waiting {
        margin-top: 0.75rem;
      }
      .warning {
        padding-left: 0.75rem;
        border-left: 4px solid var(--av-warning);
      }
    `,
  ];

  /** The checked handoff link; the element renders nothing without one. */
  url: string | null = null;
  open = false;
  /** Polling gave up: say that this page will not move on by itself. */
  pollStopped = false;
  /** The link is a loopback address (PUBLIC_BASE_URL): say a phone cannot open it. */
  unreachable = false;
  private copied = false;
  private qr: QrCode | null = null;

  /** Moves focus to the panel heading once it opens, so screen readers hear the instructions. */
  focusHeading(): void {
    this.renderRoot.querySelector<HTMLElement>('h2')?.focus();
  }

  protected override willUpdate(changed: PropertyValues<this>): void {
    if (changed.has('url')) {
      this.copied = false;
      this.qr = null;
      if (this.url) {
        try {
          this.qr = encodeQr(this.url);
        } catch {
          // Too long for any QR version: the link below still works.
        }
      }
    }
  }

  override render() {
    if (!this.url) return nothing;
    if (!this.open) {
      return html`<p class="muted">${i18n.t('handoff.offer')}</p>
        <div class="actions">
          <button type="button" class="secondary" data-testid="handoff-open" @click=${this.onOpen}>${i18n.t('handoff.open')}</button>
        </div>`;
    }
    return html`
      <section aria-labelledby="handoff-heading">
        <h2 id="handoff-heading" tabindex="-1">${i18n.t('handoff.heading')}</h2>
        ${this.unreachable ? html`<p class="warning" role="note" data-testid="handoff-unreachable">${i18n.t('handoff.loopback')}</p>` : nothing}
        <p>${i18n.t('handoff.instructions')}</p>
        ${this.qr ? this.renderQr(this.qr) : nothing}
        <p class="muted">${i18n.t('handoff.linkLabel')}</p>
        <p class="link" data-testid="handoff-link">${this.url}</p>
        <div class="actions">
          <button type="button" class="secondary" data-testid="handoff-copy" @click=${this.onCopy}>
            ${this.copied ? i18n.t('handoff.copied') : i18n.t('handoff.copy')}
          </button>
        </div>
        <p class="muted waiting" role="status" data-testid="handoff-waiting">
          ${this.pollStopped ? i18n.t('handoff.pollStopped') : i18n.t('handoff.waiting')}
        </p>
      </section>
    `;
  }

  /**
   * One path drawn from module coordinates; every value is bound as an attribute, never parsed as
   * markup. Black on white with a four-module quiet zone, crisp edges so cameras see sharp modules.
   */
  private renderQr(qr: QrCode) {
    const side = qr.size + QUIET_ZONE * 2;
    return html`<svg
      class="qr"
      data-testid="handoff-qr"
      role="img"
      aria-label=${i18n.t('handoff.qrLabel')}
      viewBox="${-QUIET_ZONE} ${-QUIET_ZONE} ${side} ${side}"
      shape-rendering="crispEdges"
    >
      <rect x=${-QUIET_ZONE} y=${-QUIET_ZONE} width=${side} height=${side} fill="#ffffff"></rect>
      <path d=${qr.path} fill="#000000"></path>
    </svg>`;
  }

  private onOpen(): void {
    this.dispatchEvent(new CustomEvent('verify-handoff-open'));
  }

  private async onCopy(): Promise<void> {
    const url = this.url;
    if (!url) return;
    try {
      await navigator.clipboard.writeText(url);
      this.copied = true;
    } catch {
      // No clipboard access (permissions, insecure context): the link text stays selectable.
      const link = this.renderRoot.querySelector('.link');
      if (link) window.getSelection()?.selectAllChildren(link);
    }
  }
}

declare global {
  interface HTMLElementTagNameMap {
    'age-verify-handoff': AgeVerifyHandoff;
  }
}
