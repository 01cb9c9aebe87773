import { html } from 'lit';
import { CHECK_LIMITS, type DocumentType } from '@ageverify/protocol';
import { FRAME_SETTINGS, captureBurst } from './frame-capture';
import { i18n } from './i18n';
import { TranslatedElement } from './translated-element';
import type { CapturePurpose } from './live-flow';
import { CameraState, CameraStream } from './camera-stream';
import { cameraStyles } from './age-verify-camera-styles';

const GUIDE_KEYS = {
  passport: 'camera.passportGuide',
  id_card: 'camera.idCardGuide',
  driving_licence: 'camera.licenceGuide',
} as const satisfies Record<DocumentType, string>;

/**
 * Live camera preview with a guide (a face oval, or a document frame) and the capture button.
 * Opens the camera when connected (the owner has explained why first), the front camera for a
 * selfie and the rear one for a document (`facingMode`, honoured on phones, ignored on laptops).
 * The stream is stopped when the element leaves the page and whenever the page is hidden (a
 * camera light must never stay on behind another tab); "Turn the camera back on" restarts it.
 * A selfie is a burst of CHECK_LIMITS.maxSelfieFrames frames, a document one frame; a licence's
 * front (`documentFront`) is a document picture like its back, with its own heading and guide.
 *
 * @fires verify-capture - Pictures were taken. Detail: `{ images: Blob[] }` (JPEG).
 * @fires verify-camera-problem - The camera cannot be used. Detail: `{ reason: CameraProblem }`.
 * @fires verify-upload-instead - "Upload a photo instead" was pressed. No detail.
 * @csspart preview - The <video> element.
 */
export class AgeVerifyCamera extends TranslatedElement {
  static override properties = {
    purpose: { type: String },
    documentType: { attribute: false },
    taken: { state: true },
  };

  static override styles = cameraStyles;

  purpose: CapturePurpose = 'selfie';
  documentType: DocumentType | null = null;
  private taken = 0;
  private readonly camera = new CameraStream(this, {
    video: () => this.renderRoot?.querySelector('video'),
    constraints: () => ({
      audio: false,
      video:
        this.purpose === 'selfie'
          ? { facingMode: 'user', width: { ideal: 1280 }, height: { ideal: 720 } }
          : { facingMode: { ideal: 'environment' }, width: { ideal: 1920 }, height: { ideal: 1080 } },
    }),
    onProblem: (reason) => this.dispatchEvent(new CustomEvent('verify-camera-problem', { detail: { reason } })),
  });

  focusHeading(): void {
    this.renderRoot.querySelector<HTMLElement>('h1')?.focus();
  }

  protected override updated(): void {
    if (this.getAttribute('state') !== this.camera.state) this.setAttribute('state', this.camera.state);
  }

  override render() {
    const guide =
      this.purpose === 'selfie'
        ? i18n.t('camera.selfieGuide')
        : this.purpose === 'documentFront'
          ? i18n.t('camera.licenceFrontGuide')
          : i18n.t(GUIDE_KEYS[this.documentType ?? 'passport']);
    const heading =
      this.purpose === 'selfie'
        ? i18n.t('camera.selfieHeading')
        : this.purpose === 'documentFront'
          ? i18n.t('camera.documentFrontHeading')
          : i18n.t('camera.documentHeading');
    const busy = this.camera.state === CameraState.capturing;
    return html`<div class="layout">
      <div class="head">
        <h1 tabindex="-1">${heading}</h1>
        <p id="guide-text">${guide}</p>
      </div>
      <div class="stage">
        <video part="preview" data-testid="camera-preview" aria-label=${i18n.t('camera.previewLabel')} aria-describedby="guide-text" muted playsinline autoplay></video>
        <div class="guide ${this.purpose === 'selfie' ? 'face' : 'document'}" aria-hidden="true"></div>
      </div>
      <div class="controls">
      <p class="muted" role="status" data-testid="camera-status">${this.statusLine()}</p>
      <div class="actions">
        ${
          this.camera.state === CameraState.paused
            ? html`<button type="button" data-testid="camera-resume" @click=${() => void this.camera.start()}>${i18n.t('camera.resume')}</button>`
            : html`<button type="button" data-testid="capture" ?disabled=${this.camera.state !== CameraState.live} aria-busy=${busy ? 'true' : 'false'} @click=${this.capture}>
              ${this.purpose === 'selfie' ? i18n.t('camera.capture') : i18n.t('camera.captureDocument')}
            </button>`
        }
        <button type="button" class="link" data-testid="upload-instead" ?disabled=${busy} @click=${this.onUploadInstead}>${i18n.t('camera.uploadInstead')}</button>
      </div>
      </div>
    </div>`;
  }

  private statusLine(): string {
    switch (this.camera.state) {
      case CameraState.starting:
        return i18n.t('camera.starting');
      case CameraState.capturing:
        return i18n.t('camera.capturing', { taken: this.taken, total: this.burstSize() });
      case CameraState.paused:
        return i18n.t('camera.paused');
      default:
        return '';
    }
  }

  private burstSize(): number {
    return this.purpose === 'selfie' ? CHECK_LIMITS.maxSelfieFrames : 1;
  }

  private async capture(): Promise<void> {
    const video = this.renderRoot.querySelector('video');
    if (!video || this.camera.state !== CameraState.live || video.videoWidth === 0) return;
    this.camera.state = CameraState.capturing;
    this.taken = 0;
    const maxSide = this.purpose === 'selfie' ? FRAME_SETTINGS.selfieMaxSide : FRAME_SETTINGS.documentMaxSide;
    try {
      const images = await captureBurst(video, this.burstSize(), FRAME_SETTINGS.burstIntervalMs, maxSide, (taken) => (this.taken = taken));
      this.camera.stop();
      this.dispatchEvent(new CustomEvent('verify-capture', { detail: { images } }));
    } catch {
      // The stream ended mid-burst (page hidden, camera unplugged): start it again.
      if (this.isConnected && !document.hidden) void this.camera.start();
    }
  }

  private onUploadInstead(): void {
    this.camera.cancel();
    this.dispatchEvent(new CustomEvent('verify-upload-instead'));
  }
}

declare global {
  interface HTMLElementTagNameMap {
    'age-verify-camera': AgeVerifyCamera;
  }
}
