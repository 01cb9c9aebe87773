import { css, html, nothing } from 'lit';
import { DOCUMENT_TYPES, needsDocumentFront, type DocumentType } from '@ageverify/protocol';
import { i18n } from './i18n';
import { TranslatedElement } from './translated-element';
import { screenStyles } from './styles';

const LABEL_KEYS = {
  passport: { label: 'document.passport', hint: 'document.passportHint' },
  id_card: { label: 'document.idCard', hint: 'document.idCardHint' },
  driving_licence: { label: 'document.drivingLicence', hint: 'document.drivingLicenceHint' },
} as const satisfies Record<DocumentType, { label: string; hint: string }>;

/**
 * "Which document will you use?": passport, ID card or driving licence, as a native radio group
 * (arrow keys move between them), then Continue. Says which side the camera needs.
 *
 * @fires verify-document-chosen - Continue pressed. Detail: `{ documentType: DocumentType }`.
 */
export class AgeVerifyDocumentChoice extends TranslatedElement {
  static override properties = {
    selected: { state: true },
    faceMatch: { type: Boolean, attribute: 'face-match' },
    minimumAge: { attribute: false },
  };

  static override styles = [
    screenStyles,
    css`
      fieldset {
        margin: 0;
        padding: 0;
        border: none;
      }
      legend {
        margin-bottom: 0.75rem;
      }
      label {
        display: flex;
        gap: 0.75rem;
        align-items: flex-start;
        padding: 0.75rem;
        margin-bottom: 0.5rem;
        border: 1px solid var(--av-border-strong);
        border-radius: 0.625rem;
        cursor: pointer;
      }
      label:has(input:checked) {
        border-color: var(--av-primary);
        box-shadow: inset 0 0 0 1px var(--av-primary);
      }
      input {
        margin-top: 0.25rem;
        width: 1.125rem;
        height: 1.125rem;
        accent-color: var(--av-primary);
      }
      input:focus-visible {
        outline: 3px solid var(--av-focus);
        outline-offset: 2px;
      }
      .name {
        display: block;
        font-weight: 600;
      }
    `,
  ];

  private selected: DocumentType = 'passport';
  /** The session has face match on: a licence's front (with the portrait) is asked for too. */
  faceMatch = false;
  /**
   * The age the document's date of birth must show: the tenant's legal minimum age, which is what
   * a document check proves (not challengeAge; issue 23). Said here too, because skip_intro=true
   * and a step-up from L1 both reach this screen without the intro.
   */
  minimumAge: number | null = null;

  private hintKey(type: DocumentType) {
    return needsDocumentFront(type, this.faceMatch) ? ('document.drivingLicenceBothSidesHint' as const) : LABEL_KEYS[type].hint;
  }

  focusHeading(): void {
    this.renderRoot.querySelector<HTMLElement>('h1')?.focus();
  }

  override render() {
    return html`
      <h1 tabindex="-1">${i18n.t('document.chooseHeading')}</h1>
      ${this.minimumAge === null ? nothing : html`<p data-testid="document-rule">${i18n.t('intro.documentRule', { age: this.minimumAge })}</p>`}
      <fieldset>
        <legend>${i18n.t('document.chooseBody')}</legend>
        ${DOCUMENT_TYPES.map(
          (type) => html`<label>
            <input
              type="radio"
              name="document-type"
              value=${type}
              data-testid=${`document-${type}`}
              .checked=${this.selected === type}
              @change=${() => (this.selected = type)}
            />
            <span><span class="name">${i18n.t(LABEL_KEYS[type].label)}</span><span class="muted">${i18n.t(this.hintKey(type))}</span></span>
          </label>`,
        )}
      </fieldset>
      <div class="actions">
        <button type="button" data-testid="document-continue" @click=${this.onContinue}>${i18n.t('document.continue')}</button>
      </div>
    `;
  }

  private onContinue(): void {
    this.dispatchEvent(new CustomEvent('verify-document-chosen', { detail: { documentType: this.selected } }));
  }
}

declare global {
  interface HTMLElementTagNameMap {
    'age-verify-document-choice': AgeVerifyDocumentChoice;
  }
}
