import { css, html, nothing, type PropertyValues } from 'lit';
import type { DocumentType, VerifyCredentials, VerifySessionView } from '@ageverify/protocol';
import { submitCheck } from './check-submission';
import { describeFailure } from './failure-text';
import { FRAME_SETTINGS, photoToJpeg } from './frame-capture';
import { i18n } from './i18n';
import { TranslatedElement } from './translated-element';
import {
  afterCameraProblem,
  afterCapture,
  afterDocumentChosen,
  afterResult,
  captureStep,
  startLive,
  type CameraProblem,
  type CapturePurpose,
  type LiveContext,
  type LiveStep,
  type LiveTransition,
} from './live-flow';
import { screenStyles } from './styles';

const CAMERA_TEST_IDS = { selfie: 'selfie-camera', document: 'document-camera', documentFront: 'document-front-camera' } as const satisfies Record<
  CapturePurpose,
  string
>;
const CAMERA_HEADINGS = {
  selfie: 'camera.selfieHeading',
  document: 'camera.documentHeading',
  documentFront: 'camera.documentFrontHeading',
} as const satisfies Record<CapturePurpose, string>;
const UPLOAD_LABELS = {
  selfie: 'camera.uploadSelfie',
  document: 'camera.uploadDocument',
  documentFront: 'camera.uploadDocumentFront',
} as const satisfies Record<CapturePurpose, string>;

/**
 * A live check from the first camera explanation to the engine's decision (steps and diagram in
 * live-flow.ts). Loaded lazily with the rest of the capture code (live-capture.ts). Images stay
 * in this element's memory only until one submission has carried them; nothing is stored.
 *
 * @fires verify-live-finish - The engine decided. Detail: `{ result: FinishedCheck }` (verified or failed, with redirectUrl).
 * @fires verify-live-refused - A submission was refused (4xx); the owner checks whether the session is over. Detail: `{ failure: ApiFailure }`.
 */
export class AgeVerifyLive extends TranslatedElement {
  static override properties = {
    session: { attribute: false },
    credentials: { attribute: false },
    mobile: { type: Boolean },
    step: { state: true },
    uploadError: { state: true },
  };

  static override styles = [
    screenStyles,
    css`
      progress {
        display: block;
        width: 100%;
        height: 0.75rem;
        margin: 1rem 0;
        accent-color: var(--av-primary);
      }
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

  session: VerifySessionView | null = null;
  credentials: VerifyCredentials | null = null;
  /** A phone or tablet: the upload fallback comes first when the camera fails, and no QR panel is mentioned. */
  mobile = false;
  private step: LiveStep = { kind: 'choose-document' };
  private context: LiveContext | null = null;
  private uploadError = false;
  private abort: AbortController | null = null;

  focusHeading(): void {
    const target = this.renderRoot.querySelector<HTMLElement & { focusHeading?: () => void }>('[data-step]');
    if (target?.focusHeading) target.focusHeading();
    else this.renderRoot.querySelector<HTMLElement>('h1')?.focus();
  }

  protected override willUpdate(changed: PropertyValues<this>): void {
    if (changed.has('session') && this.session && !this.context) {
      const start = startLive(this.session);
      this.step = start.step;
      this.context = start.context;
    }
  }

  protected override updated(changed: PropertyValues<this>): void {
    const previous = changed.get('step' as keyof AgeVerifyLive) as LiveStep | undefined;
    // A new step is a new screen for the user: focus its heading (the app does this for its own screens).
    // The same kind for another picture (the upload screen for a licence's back, then its front) is one too.
    const purposeOf = (step: LiveStep) => ('purpose' in step ? step.purpose : null);
    if (previous && (previous.kind !== this.step.kind || purposeOf(previous) !== purposeOf(this.step)))
      void this.updateComplete.then(() => this.focusHeading());
  }

  override disconnectedCallback(): void {
    super.disconnectedCallback();
    this.abort?.abort();
  }

  override render() {
    const step = this.step;
    switch (step.kind) {
      case 'camera-intro':
        return this.renderCameraIntro(step.purpose);
      case 'choose-document':
        return html`<age-verify-document-choice
          data-step
          data-testid="document-choice"
          ?face-match=${this.session?.faceMatchEnabled ?? false}
          .minimumAge=${this.session?.legalMinimumAge ?? null}
          @verify-document-chosen=${this.onDocumentChosen}
        ></age-verify-document-choice>`;
      case 'camera':
        return html`<age-verify-camera
          data-step
          data-testid=${CAMERA_TEST_IDS[step.purpose]}
          purpose=${step.purpose}
          .documentType=${this.context?.documentType ?? null}
          @verify-capture=${(event: CustomEvent<{ images: Blob[] }>) => this.apply(afterCapture(this.context!, step.purpose, event.detail.images))}
          @verify-camera-problem=${(event: CustomEvent<{ reason: CameraProblem }>) => this.apply(afterCameraProblem(this.context!, step.purpose, event.detail.reason))}
          @verify-upload-instead=${() => this.apply(afterCameraProblem(this.context!, step.purpose, 'unavailable'))}
        ></age-verify-camera>`;
      case 'camera-blocked':
        return this.renderBlocked(step);
      case 'uploading':
        return this.renderUploading(step.progress);
      case 'retry':
        return html`<h1 tabindex="-1">${i18n.t('retry.heading')}</h1>
          <p data-testid="retry-hint" data-hint=${step.hint}>${i18n.t(`retry.hints.${step.hint}`)}</p>
          <p class="muted" data-testid="attempts-left">${i18n.t('retry.attemptsLeft', { count: step.attemptsLeft })}</p>
          <div class="actions">
            <button type="button" data-testid="retake" @click=${() => this.goTo(captureStep(this.context!, step.purpose))}>${i18n.t('retry.takeAgain')}</button>
          </div>`;
      case 'step-up':
        return html`<h1 tabindex="-1">${i18n.t('stepUp.heading')}</h1>
          <p data-testid="step-up-reason">${i18n.t('stepUp.body')}</p>
          <div class="actions">
            <button type="button" data-testid="step-up-continue" @click=${() => this.goTo({ kind: 'choose-document' })}>${i18n.t('stepUp.continue')}</button>
          </div>`;
      case 'send-failed': {
        const text = describeFailure(step.failure);
        return html`<h1 tabindex="-1">${i18n.t('upload.failed')}</h1>
          <p>${text.body}</p>
          ${text.detail ? html`<p class="muted">${text.detail}</p>` : nothing}
          <div class="actions">
            <button type="button" data-testid="resend" @click=${() => void this.submit(this.context!)}>${i18n.t('upload.resend')}</button>
          </div>`;
      }
    }
  }

  private renderCameraIntro(purpose: CapturePurpose) {
    const afterDocument = purpose === 'selfie' && this.context?.check === 'document';
    return html`<h1 tabindex="-1">${i18n.t(CAMERA_HEADINGS[purpose])}</h1>
      <p data-testid="camera-explanation">
        ${
          afterDocument
            ? i18n.t('camera.selfieAfterDocument')
            : purpose === 'selfie'
              ? i18n.t('camera.selfieIntro')
              : purpose === 'document'
                ? i18n.t('camera.documentIntro')
                : i18n.t('camera.documentFrontIntro')
        }
      </p>
      <p class="muted">${i18n.t('camera.permissionHint')}</p>
      <div class="actions">
        <button type="button" data-testid="camera-allow" @click=${() => this.goTo({ kind: 'camera', purpose })}>${i18n.t('camera.allow')}</button>
      </div>`;
  }

  private renderBlocked(step: Extract<LiveStep, { kind: 'camera-blocked' }>) {
    const denied = step.reason === 'denied';
    const safari = /Safari/.test(navigator.userAgent) && !/Chrome|Chromium|Edg|Firefox|FxiOS|CriOS/.test(navigator.userAgent);
    return html`<h1 tabindex="-1" data-testid="camera-blocked" data-reason=${step.reason} data-purpose=${step.purpose}>
        ${denied ? i18n.t('camera.deniedHeading') : i18n.t('camera.unavailableHeading')}
      </h1>
      <p>${denied ? i18n.t('camera.deniedBody') : i18n.t('camera.unavailableBody')}</p>
      ${
        // The same screen follows the licence's back: say that the front is wanted now.
        step.purpose === 'documentFront' ? html`<p data-testid="upload-what">${i18n.t('camera.documentFrontIntro')}</p>` : nothing
      }
      ${denied ? html`<p data-testid="camera-how-to">${safari ? i18n.t('camera.howToAllowSafari') : i18n.t('camera.howToAllow')}</p>` : nothing}
      <p class="muted">${this.mobile || this.session?.handoff ? i18n.t('camera.phoneAlternative') : i18n.t('camera.desktopAlternative')}</p>
      ${this.uploadError ? html`<p class="error" role="alert">${i18n.t('camera.uploadFailed')}</p>` : nothing}
      <div class="actions">
        <label class="file">
          <input
            type="file"
            accept="image/*"
            capture=${step.purpose === 'selfie' ? 'user' : 'environment'}
            data-testid="upload-photo"
            @change=${(event: Event) => void this.onPhotoPicked(event, step.purpose)}
          />
          <span class="button">${i18n.t(UPLOAD_LABELS[step.purpose])}</span>
        </label>
        <button type="button" class="secondary" data-testid="camera-retry" @click=${this.onRetryCamera}>${i18n.t('camera.retryCamera')}</button>
      </div>`;
  }

  private renderUploading(progress: number) {
    const percent = Math.round(progress * 100);
    return html`<h1 tabindex="-1">${i18n.t('upload.heading')}</h1>
      <progress data-testid="upload-progress" max="100" .value=${percent} aria-label=${i18n.t('upload.progressLabel')}></progress>
      <p class="muted" role="status">${progress < 1 ? i18n.t('upload.sending', { percent }) : i18n.t('upload.checking')}</p>`;
  }

  private goTo(step: LiveStep): void {
    this.uploadError = false;
    this.step = step;
  }

  private apply(transition: LiveTransition): void {
    switch (transition.kind) {
      case 'step':
        this.context = transition.context;
        this.goTo(transition.step);
        return;
      case 'submit':
        this.context = transition.context;
        void this.submit(transition.context);
        return;
      case 'finish':
        this.dispatchEvent(new CustomEvent('verify-live-finish', { detail: { result: transition.result } }));
        return;
    }
  }

  private onDocumentChosen(event: CustomEvent<{ documentType: DocumentType }>): void {
    this.apply(afterDocumentChosen(this.context!, event.detail.documentType));
  }

  private onRetryCamera(): void {
    if (!this.context || this.step.kind !== 'camera-blocked') return;
    this.context = { ...this.context, cameraUnusable: false };
    this.goTo({ kind: 'camera', purpose: this.step.purpose });
  }

  private async onPhotoPicked(event: Event, purpose: CapturePurpose): Promise<void> {
    const input = event.target as HTMLInputElement;
    const file = input.files?.[0];
    input.value = '';
    if (!file || !this.context) return;
    try {
      const image = await photoToJpeg(file, purpose === 'selfie' ? FRAME_SETTINGS.selfieMaxSide : FRAME_SETTINGS.documentMaxSide);
      this.uploadError = false;
      this.apply(afterCapture(this.context, purpose, [image]));
    } catch {
      this.uploadError = true;
    }
  }

  private async submit(context: LiveContext): Promise<void> {
    if (!this.credentials) return;
    this.abort?.abort();
    const abort = new AbortController();
    this.abort = abort;
    this.goTo({ kind: 'uploading', progress: 0 });
    const response = await submitCheck(
      {
        credentials: this.credentials,
        check: context.check,
        documentType: context.documentType ?? undefined,
        selfie: context.selfie,
        document: context.check === 'document' ? context.document : null,
        documentFront: context.check === 'document' ? context.documentFront : null,
      },
      { signal: abort.signal, onProgress: (fraction) => (this.step = { kind: 'uploading', progress: fraction }) },
    );
    if (abort.signal.aborted || !this.isConnected) return;
    if (response.ok) {
      this.apply(afterResult(context, response.value));
      return;
    }
    this.goTo({ kind: 'send-failed', failure: response.failure });
    if (response.failure.kind === 'http' && response.failure.status < 500) {
      this.dispatchEvent(new CustomEvent('verify-live-refused', { detail: { failure: response.failure } }));
    }
  }
}

declare global {
  interface HTMLElementTagNameMap {
    'age-verify-live': AgeVerifyLive;
  }
}
