import { html, nothing } from 'lit';
import type { CheckKind, VerificationMode } from '@ageverify/protocol';
import { i18n } from './i18n';
import { TranslatedElement } from './translated-element';
import { screenStyles } from './styles';

/**
 * The first screen: who asks, what is checked, and a button to begin. Every value shown here
 * comes from the authenticated session (POST /verify/session), never from the page's query.
 *
 * @fires verify-start - The user pressed Start. No detail.
 */
export class AgeVerifyIntro extends TranslatedElement {
  static override properties = {
    merchantName: { attribute: false },
    challengeAge: { attribute: false },
    legalMinimumAge: { attribute: false },
    verificationMode: { attribute: false },
    nextCheck: { attribute: false },
    faceMatchEnabled: { attribute: false },
    sandboxMode: { attribute: false },
  };

  static override styles = [screenStyles];

  merchantName: string | null = null;
  challengeAge = 0;
  legalMinimumAge = 18;
  verificationMode: VerificationMode = 'L1';
  /** A reload after an L1 step-up continues with a document: say what that checks. */
  nextCheck: CheckKind | null = null;
  faceMatchEnabled = true;
  sandboxMode = false;

  focusHeading(): void {
    this.renderRoot.querySelector<HTMLElement>('h1')?.focus();
  }

  override render() {
    // Say what is really checked (issue 23; docs/decisions-on-open-points.md "What L2 checks"): a
    // face estimate is held against challengeAge, a document's date of birth against the tenant's
    // legal minimum age, whatever challengeAge says.
    const documentCheck = this.isDocumentCheck();
    const merchant = this.merchantName;
    const lead = documentCheck
      ? merchant
        ? i18n.t('intro.documentLeadMerchant', { merchant })
        : i18n.t('intro.documentLeadGeneric')
      : merchant
        ? i18n.t('intro.leadMerchant', { merchant, age: this.challengeAge })
        : i18n.t('intro.leadGeneric', { age: this.challengeAge });
    return html`
      ${this.sandboxMode ? html`<span class="badge">${i18n.t('app.sandboxBadge')}</span>` : nothing}
      <h1 tabindex="-1">${i18n.t('intro.heading')}</h1>
      <p data-testid="intro-lead">${lead}</p>
      ${documentCheck ? html`<p data-testid="intro-document-rule">${i18n.t('intro.documentRule', { age: this.legalMinimumAge })}</p>` : nothing}
      <h2>${i18n.t('intro.stepsHeading')}</h2>
      <ol>
        ${this.steps().map((step) => html`<li>${step}</li>`)}
      </ol>
      <p class="muted">${this.sandboxMode ? i18n.t('intro.sandboxNote') : i18n.t('intro.privacy')}</p>
      <div class="actions">
        <button type="button" data-testid="start" @click=${this.onStart}>${i18n.t('intro.start')}</button>
      </div>
    `;
  }

  /** Spec "What the service does": L1 is face estimation; L2 always uses an ID document, plus a selfie when face match is on. */
  private steps(): string[] {
    if (!this.isDocumentCheck()) return [i18n.t('intro.stepSelfie')];
    return this.faceMatchEnabled ? [i18n.t('intro.stepDocument'), i18n.t('intro.stepFaceMatch')] : [i18n.t('intro.stepDocument')];
  }

  private isDocumentCheck(): boolean {
    return this.verificationMode === 'L2' || this.nextCheck === 'document';
  }

  private onStart(): void {
    this.dispatchEvent(new CustomEvent('verify-start'));
  }
}

declare global {
  interface HTMLElementTagNameMap {
    'age-verify-intro': AgeVerifyIntro;
  }
}
