import { css, html, type PropertyValues } from 'lit';
import { CHECK_LIMITS, type DocumentType } from '@ageverify/protocol';
import { FRAME_SETTINGS, captureBurst } from './frame-capture';
import { i18n } from './i18n';
import { TranslatedElement } from './translated-element';
import { CameraProblem, type CapturePurpose } from './live-flow';
import { screenStyles } from './styles';

/** Camera life cycle shown by the element; `failed` is reported to the owner, which shows the next step. */
const CameraState = {
  starting: 'starting',
  live: 'live',
  capturing: 'capturing',
  paused: 'paused',
  failed: 'failed',
} as const;
type CameraState = (typeof CameraState)[keyof typeof CameraState];

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
    state: { state: true },
    taken: { state: true },
  };

  static override styles = [
    screenStyles,
    css`
      /* Portrait: heading, preview, controls under each other. Landscape phones are short: preview
         beside the text and buttons, so the capture button stays on screen without scrolling. */
      .layout {
        display: grid;
        grid-template-areas: 'head' 'stage' 'controls';
      }
      .head {
        grid-area: head;
      }
      .controls {
        grid-area: controls;
      }
      .controls .actions {
        margin-top: 0.75rem;
      }
      @media (orientation: landscape) and (max-height: 540px) {
        .layout {
          grid-template-columns: minmax(0, 1.1fr) minmax(0, 1fr);
          grid-template-areas: 'stage head' 'stage controls';
          grid-template-rows: auto 1fr;
          column-gap: 1rem;
        }
        .stage {
          margin: 0;
          max-height: 75vh;
          max-height: 75dvh;
        }
        h1 {
          font-size: 1.125rem;
        }
        .head p {
          font-size: 0.875rem;
        }
        button {
          min-height: 2.5rem;
        }
      }
      .stage {
        grid-area: stage;
        position: relative;
        overflow: hidden;
        margin: 0 0 1rem;
        border-radius: 0.75rem;
        background: #000;
        aspect-ratio: 3 / 4;
        max-height: 60vh;
        max-height: 60dvh;
        width: 100%;
      }
      @media (orientation: landscape) {
        .stage {
          aspect-ratio: 4 / 3;
        }
      }
      video {
        position: absolute;
        inset: 0;
        width: 100%;
        height: 100%;
        object-fit: cover;
      }
      :host([purpose='selfie']) video {
        /* A mirror image is what people expect of a front camera; the frames sent are not mirrored. */
        transform: scaleX(-1);
      }
      .guide {
        position: absolute;
        pointer-events: none;
        border: 3px solid rgb(255 255 255 / 0.9);
        box-shadow: 0 0 0 100vmax rgb(0 0 0 / 0.35);
      }
      .guide.face {
        left: 50%;
        top: 50%;
        width: 56%;
        height: 72%;
        transform: translate(-50%, -52%);
        border-radius: 50%;
      }
      .guide.document {
        left: 6%;
        right: 6%;
        top: 50%;
        aspect-ratio: 1.42;
        transform: translateY(-50%);
        border-radius: 0.75rem;
      }
      :host([state='capturing']) .guide {
        border-color: var(--av-primary);
        transition: border-color 0.2s;
      }
      @media (prefers-reduced-motion: reduce) {
        :host([state='capturing']) .guide {
          transition: none;
        }
      }
      button.link {
        background: none;
        border: none;
        color: var(--av-link);
        text-decoration: underline;
        font-weight: 500;
        min-height: 2.75rem;
      }
    `,
  ];

  purpose: CapturePurpose = 'selfie';
  documentType: DocumentType | null = null;
  private state: CameraState = CameraState.starting;
  private taken = 0;
  private stream: MediaStream | null = null;
  private startRequest = 0;
  private readonly onVisibility = () => {
    if (document.hidden && this.stream) {
      this.stopStream();
      if (this.state !== CameraState.failed) this.state = CameraState.paused;
    }
  };

  focusHeading(): void {
    this.renderRoot.querySelector<HTMLElement>('h1')?.focus();
  }

  override connectedCallback(): void {
    super.connectedCallback();
    document.addEventListener('visibilitychange', this.onVisibility);
    void this.start();
  }

  override disconnectedCallback(): void {
    super.disconnectedCallback();
    document.removeEventListener('visibilitychange', this.onVisibility);
    this.startRequest++;
    this.stopStream();
  }

  protected override updated(changed: PropertyValues<this>): void {
    if (changed.has('state' as keyof AgeVerifyCamera)) this.setAttribute('state', this.state);
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
    const busy = this.state === CameraState.capturing;
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
          this.state === CameraState.paused
            ? html`<button type="button" data-testid="camera-resume" @click=${this.start}>${i18n.t('camera.resume')}</button>`
            : html`<button type="button" data-testid="capture" ?disabled=${this.state !== CameraState.live} aria-busy=${busy ? 'true' : 'false'} @click=${this.capture}>
              ${this.purpose === 'selfie' ? i18n.t('camera.capture') : i18n.t('camera.captureDocument')}
            </button>`
        }
        <button type="button" class="link" data-testid="upload-instead" ?disabled=${busy} @click=${this.onUploadInstead}>${i18n.t('camera.uploadInstead')}</button>
      </div>
      </div>
    </div>`;
  }

  private statusLine(): string {
    switch (this.state) {
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

  private async start(): Promise<void> {
    const request = ++this.startRequest;
    this.state = CameraState.starting;
    if (!navigator.mediaDevices?.getUserMedia) {
      this.fail(CameraProblem.unavailable);
      return;
    }
    let stream: MediaStream;
    try {
      stream = await navigator.mediaDevices.getUserMedia({
        audio: false,
        video:
          this.purpose === 'selfie'
            ? { facingMode: 'user', width: { ideal: 1280 }, height: { ideal: 720 } }
            : { facingMode: { ideal: 'environment' }, width: { ideal: 1920 }, height: { ideal: 1080 } },
      });
    } catch (error) {
      if (request !== this.startRequest) return;
      const name = error instanceof DOMException ? error.name : '';
      this.fail(name === 'NotAllowedError' || name === 'SecurityError' ? CameraProblem.denied : CameraProblem.unavailable);
      return;
    }
    // The element left the page, or the page was hidden, while the browser was asking.
    if (request !== this.startRequest || document.hidden) {
      for (const track of stream.getTracks()) track.stop();
      if (request === this.startRequest) this.state = CameraState.paused;
      return;
    }
    this.stream = stream;
    await this.updateComplete;
    const video = this.renderRoot.querySelector('video');
    if (!video) return;
    video.srcObject = stream;
    try {
      await video.play();
    } catch {
      // Autoplay of a muted inline video is allowed everywhere; a refusal means the stream ended.
    }
    if (request !== this.startRequest) return;
    this.state = CameraState.live;
    video.dataset.live = 'true';
  }

  private fail(reason: CameraProblem): void {
    this.state = CameraState.failed;
    this.stopStream();
    this.dispatchEvent(new CustomEvent('verify-camera-problem', { detail: { reason } }));
  }

  private stopStream(): void {
    for (const track of this.stream?.getTracks() ?? []) track.stop();
    this.stream = null;
    const video = this.renderRoot?.querySelector('video');
    if (video) {
      video.srcObject = null;
      delete video.dataset.live;
    }
  }

  private async capture(): Promise<void> {
    const video = this.renderRoot.querySelector('video');
    if (!video || this.state !== CameraState.live || video.videoWidth === 0) return;
    this.state = CameraState.capturing;
    this.taken = 0;
    const maxSide = this.purpose === 'selfie' ? FRAME_SETTINGS.selfieMaxSide : FRAME_SETTINGS.documentMaxSide;
    try {
      const images = await captureBurst(video, this.burstSize(), FRAME_SETTINGS.burstIntervalMs, maxSide, (taken) => (this.taken = taken));
      this.stopStream();
      this.dispatchEvent(new CustomEvent('verify-capture', { detail: { images } }));
    } catch {
      // The stream ended mid-burst (page hidden, camera unplugged): start it again.
      if (this.isConnected && !document.hidden) void this.start();
    }
  }

  private onUploadInstead(): void {
    this.stopStream();
    this.startRequest++;
    this.dispatchEvent(new CustomEvent('verify-upload-instead'));
  }
}

declare global {
  interface HTMLElementTagNameMap {
    'age-verify-camera': AgeVerifyCamera;
  }
}
