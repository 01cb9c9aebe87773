import { LitElement } from 'lit';
import { translationChanges } from './i18n';

/**
 * Base of every element that calls `i18n.t` in its render: it renders again when the page language
 * changes (the language switch, issue 23) or lazily loaded strings arrive, in place, so its state (a camera stream, a chosen
 * document, pictures taken) stays as it is. Elements that only show strings they are given
 * (age-verify-message) need not extend it: their owner renders again and passes new strings.
 */
export class TranslatedElement extends LitElement {
  private readonly onTranslationsChanged = () => this.requestUpdate();

  override connectedCallback(): void {
    super.connectedCallback();
    translationChanges.addEventListener('change', this.onTranslationsChanged);
  }

  override disconnectedCallback(): void {
    super.disconnectedCallback();
    translationChanges.removeEventListener('change', this.onTranslationsChanged);
  }
}
