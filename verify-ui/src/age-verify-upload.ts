import { css, html, nothing } from 'lit';
import { FRAME_SETTINGS, photoToJpeg } from './frame-capture';
import { i18n } from './i18n';
import type { CameraProblem, CapturePurpose } from './live-flow';
import { screenStyles } from './styles';
import { TranslatedElement } from './translated-element';

const UPLOAD_LABELS = {
  selfie: 'camera.uploadSelfie',
  document: 'camera.uploadDocument',
  documentFront: 'camera.uploadDocumentFront',
} as const satisfies Record<CapturePurpose, string>;

/**
 * The screen shown when the camera cannot be used (refused or missing): how to allow it, a photo
 * to upload instead, and trying the camera again (issue 25, item 11: the upload screen apart from
 * the live check that shows it). A picked photo is encoded like a camera frame; one that cannot
 * be read leaves the screen as it is with an alert.
 *
 * @fires verify-capture - A photo was picked and encoded. Detail: `{ images: Blob[] }` (one JPEG).
 * @fires verify-retry-camera - "Try the camera again" was pressed. No detail.
 */
export class AgeVerifyUpload extends TranslatedElement {
  static override properties = {
    purpose: { attribute: false },
    reason: { attribute: false },
    onPhone: { attribute: false },
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
      <p class="muted">${this.onPhone ? i18n.t('camera.phoneAlternative') : i18n.t('camera.desktopAlternative')}</p>
      ${this.uploadError ? html`<p class="error" role="alert">${i18n.t('camera.uploadFailed')}</p>` : nothing}
      <div class="actions">
        <label class="file">
          <input
            type="file"
            accept="image/*"
            capture=${this.purpose === 'selfie' ? 'user' : 'environment'}
            data-testid="upload-photo"
            @change=${(event: Event) => void this.onPhotoPicked(event)}
          />
          <span class="button">${i18n.t(UPLOAD_LABELS[this.purpose])}</span>
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
    const purpose = this.purpose;
    try {
      const image = await photoToJpeg(file, purpose === 'selfie' ? FRAME_SETTINGS.selfieMaxSide : FRAME_SETTINGS.documentMaxSide);
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
