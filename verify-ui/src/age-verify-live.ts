import { css, html, nothing, type PropertyValues } from 'lit';
import type { DocumentType, VerifyCredentials, VerifySessionView } from '@ageverify/protocol';
import { continueWithDocument, requestChallenge, type ApiFailure } from './api';
import { submitCheck } from './check-submission';
import { describeFailure } from './failure-text';
import { i18n } from './i18n';
import { TranslatedElement } from './translated-element';
import {
  afterCameraProblem,
  afterCapture,
  afterDocumentChosen,
  afterDocumentInstead,
  afterResult,
  afterSelfie,
  afterSubmitFailed,
  captureStep,
  startLive,
  type CameraProblem,
  type CapturePurpose,
  type DocumentPurpose,
  type LiveContext,
  type LiveStep,
  type LiveTransition,
} from './live-flow';
import type { ChallengeFrames } from './liveness-capture';
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
    handoffOffered: { attribute: false },
    step: { state: true },
    insteadError: { state: true },
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
    `,
  ];

  session: VerifySessionView | null = null;
  credentials: VerifyCredentials | null = null;
  /** A phone or tablet: the upload fallback comes first when the camera fails, and no QR panel is mentioned. */
  mobile = false;
  /** The desktop page shows the QR panel (a handoff link exists): where a selfie without a camera here can go on. */
  handoffOffered = false;
  private step: LiveStep = { kind: 'choose-document' };
  private insteadError: string | null = null;
  private context: LiveContext | null = null;
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
          .challengeSource=${this.challengeSource}
          @verify-capture=${(event: CustomEvent<{ images: Blob[] }>) => this.onDocumentPicture(step.purpose, event.detail.images)}
          @verify-selfie=${(event: CustomEvent<{ selfie: ChallengeFrames }>) => this.apply(afterSelfie(this.context!, event.detail.selfie))}
          @verify-challenge-failed=${(event: CustomEvent<{ failure: ApiFailure }>) => this.onChallengeFailed(event.detail.failure)}
          @verify-camera-problem=${(event: CustomEvent<{ reason: CameraProblem }>) => this.apply(afterCameraProblem(this.context!, step.purpose, event.detail.reason))}
          @verify-upload-instead=${() => this.apply(afterCameraProblem(this.context!, step.purpose, 'unavailable'))}
        ></age-verify-camera>`;
      case 'camera-blocked':
        return html`<age-verify-upload
          data-step
          .purpose=${step.purpose}
          .reason=${step.reason}
          .onPhone=${this.mobile || Boolean(this.session?.handoff)}
          .handoffOffered=${this.handoffOffered}
          .documentInstead=${step.purpose === 'selfie' && this.context?.check === 'age_estimation' && this.session?.documentInstead === true}
          .insteadError=${this.insteadError}
          @verify-capture=${(event: CustomEvent<{ images: Blob[] }>) => this.onDocumentPicture(step.purpose, event.detail.images)}
          @verify-retry-camera=${this.onRetryCamera}
          @verify-document-instead=${() => void this.onDocumentInstead()}
        ></age-verify-upload>`;
      case 'uploading':
        return this.renderUploading(step.progress);
      case 'retry':
        return html`<age-verify-message
          data-step
          .heading=${i18n.t('retry.heading')}
          .body=${i18n.t(`retry.hints.${step.hint}`)}
          .bodyTestId=${'retry-hint'}
          .bodyHint=${step.hint}
          .hint=${i18n.t('retry.attemptsLeft', { count: step.attemptsLeft })}
          .hintTestId=${'attempts-left'}
          .actionLabel=${i18n.t('retry.takeAgain')}
          .actionTestId=${'retake'}
          @verify-action=${() => this.goTo(captureStep(this.context!, step.purpose))}
        ></age-verify-message>`;
      case 'step-up':
        return html`<age-verify-message
          data-step
          .heading=${i18n.t('stepUp.heading')}
          .body=${i18n.t('stepUp.body')}
          .bodyTestId=${'step-up-reason'}
          .actionLabel=${i18n.t('stepUp.continue')}
          .actionTestId=${'step-up-continue'}
          @verify-action=${() => this.goTo({ kind: 'choose-document' })}
        ></age-verify-message>`;
      case 'send-failed': {
        const text = describeFailure(step.failure);
        return html`<age-verify-message
          data-step
          .heading=${i18n.t('upload.failed')}
          .body=${text.body}
          .hint=${text.detail ?? ''}
          .actionLabel=${i18n.t('upload.resend')}
          .actionTestId=${'resend'}
          @verify-action=${() => void this.submit(this.context!)}
        ></age-verify-message>`;
      }
      case 'challenge-failed': {
        const text = describeFailure(step.failure);
        return html`<age-verify-message
          data-step
          data-testid="challenge-failed"
          .heading=${i18n.t('camera.challengeFailed')}
          .body=${text.body}
          .hint=${text.detail ?? ''}
          .actionLabel=${i18n.t('camera.challengeTryAgain')}
          .actionTestId=${'challenge-retry'}
          @verify-action=${() => this.goTo(captureStep(this.context!, 'selfie'))}
        ></age-verify-message>`;
      }
      case 'challenge-renewed':
        // A refused challenge (late, replayed, superseded) costs the user no attempt; say so plainly.
        return html`<age-verify-message
          data-step
          data-testid="challenge-renewed"
          .heading=${i18n.t('camera.challengeRenewedHeading')}
          .body=${i18n.t('camera.challengeRenewedBody')}
          .bodyTestId=${'challenge-renewed-reason'}
          .actionLabel=${i18n.t('camera.challengeRenewedAction')}
          .actionTestId=${'challenge-renew'}
          @verify-action=${() => this.goTo(captureStep(this.context!, 'selfie'))}
        ></age-verify-message>`;
    }
  }

  /** Each press of the selfie's capture button asks for a new challenge with this page's credentials. */
  private readonly challengeSource = () => {
    if (!this.credentials) throw new Error('Expected credentials before a selfie capture, got none');
    return requestChallenge(this.credentials);
  };

  private onDocumentPicture(purpose: CapturePurpose, images: Blob[]): void {
    if (purpose === 'selfie') throw new Error('Expected a document picture, got a selfie picture: selfies come only from the challenge');
    this.apply(afterCapture(this.context!, purpose as DocumentPurpose, images));
  }

  private onChallengeFailed(failure: ApiFailure): void {
    this.goTo({ kind: 'challenge-failed', failure });
    // A refusal may mean the session is over (completed on the phone, expired): the owner checks.
    if (failure.kind === 'http' && failure.status < 500) this.dispatchEvent(new CustomEvent('verify-live-refused', { detail: { failure } }));
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
      ${
        // What the liveness challenge will ask, said before the camera is on; the camera screen itself
        // keeps only its short guide, so the capture button stays on a small phone's screen.
        purpose === 'selfie' ? html`<p data-testid="challenge-explanation">${i18n.t('camera.challengeIntro')}</p>` : nothing
      }
      <p class="muted">${i18n.t('camera.permissionHint')}</p>
      <div class="actions">
        <button type="button" data-testid="camera-allow" @click=${() => this.goTo({ kind: 'camera', purpose })}>${i18n.t('camera.allow')}</button>
      </div>`;
  }

  private renderUploading(progress: number) {
    const percent = Math.round(progress * 100);
    return html`<h1 tabindex="-1">${i18n.t('upload.heading')}</h1>
      <progress data-testid="upload-progress" max="100" .value=${percent} aria-label=${i18n.t('upload.progressLabel')}></progress>
      <p class="muted" role="status">${progress < 1 ? i18n.t('upload.sending', { percent }) : i18n.t('upload.checking')}</p>`;
  }

  private goTo(step: LiveStep): void {
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

  /** No camera: the server moves the face check to the document (decision 0063); a refusal is said on the same screen. */
  private async onDocumentInstead(): Promise<void> {
    if (!this.credentials || !this.context) return;
    this.insteadError = null;
    const response = await continueWithDocument(this.credentials);
    if (!this.isConnected) return;
    if (response.ok) {
      this.apply(afterDocumentInstead(this.context));
      return;
    }
    const text = describeFailure(response.failure);
    this.insteadError = text.detail ?? text.body;
    // A refusal may mean the session is over (completed on the phone, expired): the owner checks.
    if (response.failure.kind === 'http' && response.failure.status < 500) {
      this.dispatchEvent(new CustomEvent('verify-live-refused', { detail: { failure: response.failure } }));
    }
  }

  private onRetryCamera(): void {
    if (!this.context || this.step.kind !== 'camera-blocked') return;
    this.context = { ...this.context, cameraUnusable: false };
    this.goTo({ kind: 'camera', purpose: this.step.purpose });
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
    const failed = afterSubmitFailed(context, response.failure);
    this.apply(failed);
    // A refused challenge is answered here (a new one); other refusals may mean the session is over: the owner checks.
    if (failed.kind === 'step' && failed.step.kind === 'challenge-renewed') return;
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
