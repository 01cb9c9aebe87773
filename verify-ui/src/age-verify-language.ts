import { css, html } from 'lit';
import { UI_LANGUAGES, type UiLanguage } from '@ageverify/protocol';
import { currentLanguage, i18n } from './i18n';
import { TranslatedElement } from './translated-element';
import { LANGUAGE_NAMES } from './language';

/**
 * The language switch on every verify page (issue 23): a native <select>, so it works with the
 * keyboard, screen readers and phones' own pickers without any script of ours. Each option is the
 * language's name in itself, marked with its `lang` so it is pronounced right. The element only
 * reports the choice; <age-verify-app> changes the language and keeps it in the address.
 *
 * @fires verify-language-change - Another language was chosen. Detail: `{ language: UiLanguage }`.
 */
export class AgeVerifyLanguage extends TranslatedElement {
  static override styles = css`
    :host {
      display: flex;
      justify-content: flex-end;
      align-items: center;
      gap: 0.5rem;
      margin: -0.5rem 0 1rem;
      font-size: 0.875rem;
    }
    label {
      color: var(--av-muted);
    }
    select {
      min-height: 2.25rem;
      padding: 0.25rem 0.5rem;
      border: 1px solid var(--av-border-strong);
      border-radius: 0.5rem;
      font: inherit;
      background: var(--av-surface);
      color: var(--av-text);
    }
    select:focus-visible {
      outline: 3px solid var(--av-focus);
      outline-offset: 2px;
    }
  `;

  override render() {
    const selected = currentLanguage();
    return html`<label for="language">${i18n.t('app.language')}</label>
      <select id="language" data-testid="language-switch" @change=${this.onChange}>
        ${UI_LANGUAGES.map((code) => html`<option value=${code} lang=${code} .selected=${code === selected}>${LANGUAGE_NAMES[code]}</option>`)}
      </select>`;
  }

  private onChange(event: Event): void {
    const language = (event.target as HTMLSelectElement).value as UiLanguage;
    if (language === currentLanguage()) return;
    this.dispatchEvent(new CustomEvent('verify-language-change', { detail: { language } }));
  }
}

declare global {
  interface HTMLElementTagNameMap {
    'age-verify-language': AgeVerifyLanguage;
  }
}
