import { html, nothing } from 'lit';
import type { DocumentType, LivenessChallenge } from '@ageverify/protocol';
import type { ApiResult } from './api';
import { FRAME_SETTINGS, captureBurst, encodeJpeg } from './frame-capture';
import { i18n } from './i18n';
import { TranslatedElement } from './translated-element';
import type { CapturePurpose } from './live-flow';
import { CameraState, CameraStream } from './camera-stream';
import { cameraStyles } from './age-verify-camera-styles';
import { captureChallenge, type CapturePhase, type CapturePrompt } from './liveness-capture';

const PROMPT_KEYS = {
  look: 'camera.challengeLook',
  left: 'camera.challengeLeft',
  right: 'camera.challengeRight',
  back: 'camera.challengeBack',
} as const satisfies Record<CapturePrompt, string>;

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
 * A document is one frame; a licence's front (`documentFront`) is a document picture like its
 * back, with its own heading and guide, and either can be uploaded instead.
 *
 * A selfie answers a liveness challenge (issue 19, decision 0062): the capture button asks the
 * owner's `challengeSource` for one, then guides the user through its moves (liveness-capture.ts)
 * with a prompt, an arrow and an outline cue, and a polite live region that announces each step.
 * It comes only from the camera: no upload (issue 19 Deliver 2).
 *
 * @fires verify-capture - A document picture was taken. Detail: `{ images: Blob[] }` (one JPEG).
 * @fires verify-selfie - The challenge's frames were taken. Detail: `{ selfie: ChallengeFrames }`.
 * @fires verify-challenge-failed - No challenge could be had. Detail: `{ failure: ApiFailure }`.
 * @fires verify-camera-problem - The camera cannot be used. Detail: `{ reason: CameraProblem }`.
 * @fires verify-upload-instead - "Upload a photo instead" was pressed (documents only). No detail.
 * @csspart preview - The <video> element.
 */
export class AgeVerifyCamera extends TranslatedElement {
  static override properties = {
    purpose: { type: String },
    documentType: { attribute: false },
    challengeSource: { attribute: false },
    taken: { state: true },
    phase: { state: true },
  };

  static override styles = cameraStyles;

  purpose: CapturePurpose = 'selfie';
  documentType: DocumentType | null = null;
  /** Asks the server for a new liveness challenge (api.ts requestChallenge); required for a selfie. */
  challengeSource: (() => Promise<ApiResult<LivenessChallenge>>) | null = null;
  private taken = 0;
  /** The challenge phase on screen while a selfie is captured, with its place among all phases. */
  private phase: { current: CapturePhase; index: number; count: number } | null = null;
  /** Ends a selfie capture when the element leaves the page. */
  private captureAbort: AbortController | null = null;
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

  override disconnectedCallback(): void {
    super.disconnectedCallback();
    this.captureAbort?.abort();
  }

  protected override updated(): void {
    if (this.getAttribute('state') !== this.camera.state) this.setAttribute('state', this.camera.state);
  }

  override render() {
    const selfie = this.purpose === 'selfie';
    const guide = selfie
      ? i18n.t('camera.selfieGuide')
      : this.purpose === 'documentFront'
        ? i18n.t('camera.licenceFrontGuide')
        : i18n.t(GUIDE_KEYS[this.documentType ?? 'passport']);
    const heading = selfie
      ? i18n.t('camera.selfieHeading')
      : this.purpose === 'documentFront'
        ? i18n.t('camera.documentFrontHeading')
        : i18n.t('camera.documentHeading');
    const busy = this.camera.state === CameraState.capturing;
    const move = this.phase?.current.move ?? null;
    return html`<div class="layout">
      <div class="head">
        <h1 tabindex="-1">${heading}</h1>
        <p id="guide-text">${guide}</p>
      </div>
      <div class="stage">
        <video part="preview" data-testid="camera-preview" aria-label=${i18n.t('camera.previewLabel')} aria-describedby="guide-text" muted playsinline autoplay></video>
        <div class="guide ${selfie ? 'face' : 'document'}" data-move=${move ?? 'none'} aria-hidden="true"></div>
        ${selfie ? this.renderChallenge() : nothing}
      </div>
      <div class="controls">
      <p class="muted status-line" role="status" data-testid="camera-status">${this.statusLine()}</p>
      <div class="actions">
        ${
          this.camera.state === CameraState.paused
            ? html`<button type="button" data-testid="camera-resume" @click=${() => void this.camera.start()}>${i18n.t('camera.resume')}</button>`
            : html`<button type="button" data-testid="capture" ?disabled=${this.camera.state !== CameraState.live} aria-busy=${busy ? 'true' : 'false'} @click=${this.capture}>
              ${selfie ? i18n.t('camera.capture') : i18n.t('camera.captureDocument')}
            </button>`
        }
        ${
          // Issue 19 Deliver 2: a selfie comes only from the live camera; documents may still be uploaded.
          selfie
            ? nothing
            : html`<button type="button" class="link" data-testid="upload-instead" ?disabled=${busy} @click=${this.onUploadInstead}>${i18n.t('camera.uploadInstead')}</button>`
        }
      </div>
      </div>
    </div>`;
  }

  /**
   * The prompt over the preview and its cue, and the screen reader's account of each step. The
   * prompt carries the challenge step and move as data attributes, so e2e tests (and their fake
   * camera, e2e/support/liveness-camera.ts) follow what the user is asked to do.
   *
   * The arrow for "your left" sits on the screen's left and points left. The user faces the screen,
   * so their own left is the screen's left as they see it; and the selfie preview is mirrored
   * (age-verify-camera-styles.ts), so their face in it also turns toward that side, as in a mirror.
   * In an unmirrored preview the face would move against the arrow.
   */
  private renderChallenge() {
    const phase = this.phase;
    const announcement = phase
      ? i18n.t('camera.challengeAnnouncement', { step: phase.index + 1, total: phase.count, prompt: i18n.t(PROMPT_KEYS[phase.current.prompt]) })
      : '';
    return html`${
      phase
        ? html`<p
            class="prompt"
            data-testid="liveness-prompt"
            data-phase=${phase.current.prompt}
            data-step=${phase.current.step ?? ''}
            data-move=${phase.current.move ?? ''}
            aria-hidden="true"
          >${i18n.t(PROMPT_KEYS[phase.current.prompt])}</p>`
        : nothing
    }${
      phase?.current.move
        ? html`<div class="cue" data-testid="liveness-cue" data-move=${phase.current.move} aria-hidden="true">
            <svg viewBox="0 0 48 48" focusable="false"><path d="M30 8 L14 24 L30 40" /></svg>
          </div>`
        : nothing
    }<p class="visually-hidden" aria-live="polite" data-testid="liveness-announcement">${announcement}</p>`;
  }

  private statusLine(): string {
    switch (this.camera.state) {
      case CameraState.starting:
        return i18n.t('camera.starting');
      case CameraState.capturing:
        // A selfie's steps speak through the prompt and its live region; until the challenge is there, say it is coming.
        if (this.purpose === 'selfie') return this.phase ? '' : i18n.t('camera.challengePreparing');
        return i18n.t('camera.capturing', { taken: this.taken, total: 1 });
      case CameraState.paused:
        return i18n.t('camera.paused');
      default:
        return '';
    }
  }

  private async capture(): Promise<void> {
    const video = this.renderRoot.querySelector('video');
    if (!video || this.camera.state !== CameraState.live || video.videoWidth === 0) return;
    this.camera.state = CameraState.capturing;
    if (this.purpose === 'selfie') {
      await this.captureSelfie(video);
      return;
    }
    this.taken = 0;
    try {
      const images = await captureBurst(video, 1, FRAME_SETTINGS.burstIntervalMs, FRAME_SETTINGS.documentMaxSide, (taken) => (this.taken = taken));
      this.camera.stop();
      this.dispatchEvent(new CustomEvent('verify-capture', { detail: { images } }));
    } catch {
      // The stream ended mid-burst (page hidden, camera unplugged): start it again.
      if (this.isConnected && !document.hidden) void this.camera.start();
    }
  }

  /** A new challenge for every press (one is used once), then its phases with the frames they take. */
  private async captureSelfie(video: HTMLVideoElement): Promise<void> {
    if (!this.challengeSource) throw new Error('Expected a challengeSource for a selfie, got none');
    this.captureAbort?.abort();
    const abort = new AbortController();
    this.captureAbort = abort;
    const challenge = await this.challengeSource();
    if (abort.signal.aborted || !this.isConnected) return;
    if (!challenge.ok) {
      this.camera.stop();
      this.dispatchEvent(new CustomEvent('verify-challenge-failed', { detail: { failure: challenge.failure } }));
      return;
    }
    try {
      const selfie = await captureChallenge({
        challenge: challenge.value,
        // A pause (page hidden) ends the capture even if the camera is back on by the next frame: one
        // challenge's frames must come from one uninterrupted sequence.
        grab: () =>
          this.camera.state === CameraState.capturing
            ? encodeJpeg(video, video.videoWidth, video.videoHeight, FRAME_SETTINGS.selfieMaxSide)
            : Promise.reject(new Error('The camera stopped during the capture')),
        onPhase: (current, index, phases) => (this.phase = { current, index, count: phases.length }),
        signal: abort.signal,
      });
      this.camera.stop();
      this.dispatchEvent(new CustomEvent('verify-selfie', { detail: { selfie } }));
    } catch {
      this.phase = null;
      // The stream ended mid-capture (page hidden, camera unplugged): start it again; the next press asks for a new challenge.
      if (!abort.signal.aborted && this.isConnected && !document.hidden) void this.camera.start();
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
