import { ReactiveElement } from 'lit';

/**
 * Asks every Lit element under `root`, in open shadow roots too, to render again: after a language
 * switch (issue 23) every screen, the header and any open dialog show the new language at once,
 * without a reload and without losing what the screens hold (loaded data, half-filled forms).
 * Elements render their strings with `i18n.t` in render(), so a new render is all they need.
 */
export function requestUpdateEverywhere(root: ParentNode): void {
  for (const element of root.querySelectorAll('*')) {
    if (element instanceof ReactiveElement) element.requestUpdate();
    if (element.shadowRoot) requestUpdateEverywhere(element.shadowRoot);
  }
}
