import { css, html, nothing } from 'lit';
import { FRAME_SETTINGS, photoToJpeg } from './frame-capture';
import { i18n } from './i18n';
import type { CameraProblem, CapturePurpose, DocumentPurpose } from './live-flow';
import { screenStyles } from './styles';
import { TranslatedElement } from './translated-element';

const UPLOAD_LABELS = {
  document: 'camera.uploadDocument',
  documentFront: 'camera.uploadDocumentFront',
} as const satisfies Record<DocumentPurpose, string>;

/**
 * The screen shown when the camera cannot be used (refused or missing): how to allow it, a photo
 * to upload instead, and trying the camera again (issue 25, item 11: the upload screen apart from
 * the live check that shows it). A picked photo is encoded like a camera frame; one that cannot
 * be read leaves the screen as it is with an alert.
 *
 * A selfie cannot be uploaded (issue 19 Deliver 2: it answers a live challenge). For a selfie the
 * screen says so and offers only what can still work: the camera again, on the desktop the QR
 * panel below (when the page shows one), else another device with a camera, and an ID document
 * instead where the session allows it (`documentInstead`: an L1 face check whose account allows
 * step-up, face match off; decision 0063).
 *
 * @fires verify-capture - A document photo was picked and encoded. Detail: `{ images: Blob[] }` (one JPEG).
 * @fires verify-retry-camera - "Try the camera again" was pressed. No detail.
 * @fires verify-document-instead - "Continue with an ID document" was pressed. No detail.
 */
export class AgeVerifyUpload extends TranslatedElement {
  static override properties = {
    purpose: { attribute: false },
    reason: { attribute: false },
    onPhone: { attribute: false },
    handoffOffered: { attribute: false },
    documentInstead: { attribute: false },
    insteadError: { attribute: false },
    uploadError: { state: true },
  };

  static override styles = [
    screenStyles,
    css`
      .file input {
        position: absolute;
        width: 1px;
        height: 1px;
        opacity: 0;
      }
      .file input:focus-visible + span {
        outline: 3px solid var(--av-focus);
        outline-offset: 2px;
      }
      .file {
        display: block;
      }
      .file span {
        width: 100%;
      }
      .error {
        color: var(--av-error);
      }
    `,
  ];

  purpose: CapturePurpose = 'selfie';
  reason: CameraProblem = 'unavailable';
  /** On a phone (or the phone of a handoff): a phone's alternative is named, not the desktop's QR panel. */
  onPhone = false;
  /** The desktop shows the QR panel below (a handoff link exists): the selfie's way forward without a camera here. */
  handoffOffered = false;
  /** The selfie's face check may give way to an ID document (the session view's documentInstead). */
  documentInstead = false;
  /** Why the last "Continue with an ID document" was refused, in the page language; null when it was not. */
  insteadError: string | null = null;
  private uploadError = false;

  focusHeading(): void {
    this.renderRoot.querySelector<HTMLElement>('h1')?.focus();
  }

  override render() {
    const denied = this.reason === 'denied';
    const safari = /Safari/.test(navigator.userAgent) && !/Chrome|Chromium|Edg|Firefox|FxiOS|CriOS/.test(navigator.userAgent);
    return html`<h1 tabindex="-1" data-testid="camera-blocked" data-reason=${this.reason} data-purpose=${this.purpose}>
        ${denied ? i18n.t('camera.deniedHeading') : i18n.t('camera.unavailableHeading')}
      </h1>
      <p>${denied ? i18n.t('camera.deniedBody') : i18n.t('camera.unavailableBody')}</p>
      ${
        // The same screen follows the licence's back: say that the front is wanted now.
        this.purpose === 'documentFront' ? html`<p data-testid="upload-what">${i18n.t('camera.documentFrontIntro')}</p>` : nothing
      }
      ${denied ? html`<p data-testid="camera-how-to">${safari ? i18n.t('camera.howToAllowSafari') : i18n.t('camera.howToAllow')}</p>` : nothing}
      ${this.purpose === 'selfie' ? this.renderSelfieAlternative() : this.renderUpload(this.purpose)}`;
  }

  private renderSelfieAlternative() {
    return html`<p data-testid="selfie-camera-only">${i18n.t('camera.selfieCameraOnly')}</p>
      <p class="muted" data-testid="selfie-alternative" data-alternative=${this.handoffOffered ? 'handoff' : 'other-device'}>
        ${this.handoffOffered ? i18n.t('camera.selfieHandoffAlternative') : i18n.t('camera.selfieOtherDevice')}
      </p>
      ${this.documentInstead ? html`<p data-testid="document-instead-offer">${i18n.t('camera.documentInsteadBody')}</p>` : nothing}
      ${this.insteadError ? html`<p class="error" role="alert" data-testid="document-instead-error">${this.insteadError}</p>` : nothing}
      <div class="actions">
        ${
          this.documentInstead
            ? html`<button type="button" data-testid="document-instead" @click=${() => this.dispatchEvent(new CustomEvent('verify-document-instead'))}>
                ${i18n.t('camera.documentInstead')}
              </button>`
            : nothing
        }
        <button type="button" class=${this.documentInstead ? 'secondary' : ''} data-testid="camera-retry" @click=${this.onRetryCamera}>
          ${i18n.t('camera.retryCamera')}
        </button>
      </div>`;
  }

  private renderUpload(purpose: DocumentPurpose) {
    return html`<p class="muted">${this.onPhone ? i18n.t('camera.phoneAlternative') : i18n.t('camera.desktopAlternative')}</p>
      ${this.uploadError ? html`<p class="error" role="alert">${i18n.t('camera.uploadFailed')}</p>` : nothing}
      <div class="actions">
        <label class="file">
          <input type="file" accept="image/*" capture="environment" data-testid="upload-photo" @change=${(event: Event) => void this.onPhotoPicked(event)} />
          <span class="button">${i18n.t(UPLOAD_LABELS[purpose])}</span>
        </label>
        <button type="button" class="secondary" data-testid="camera-retry" @click=${this.onRetryCamera}>${i18n.t('camera.retryCamera')}</button>
      </div>`;
  }

  private onRetryCamera(): void {
    this.uploadError = false;
    this.dispatchEvent(new CustomEvent('verify-retry-camera'));
  }

  private async onPhotoPicked(event: Event): Promise<void> {
    const input = event.target as HTMLInputElement;
    const file = input.files?.[0];
    input.value = '';
    if (!file) return;
    try {
      const image = await photoToJpeg(file, FRAME_SETTINGS.documentMaxSide);
      this.uploadError = false;
      this.dispatchEvent(new CustomEvent('verify-capture', { detail: { images: [image] } }));
    } catch {
      this.uploadError = true;
    }
  }
}

declare global {
  interface HTMLElementTagNameMap {
    'age-verify-upload': AgeVerifyUpload;
  }
}
