import { css } from 'lit';

/**
 * Styles shared by every screen. Colours are the custom properties of palette.ts, set on
 * <age-verify-app>: custom properties inherit through shadow roots, so screens only read them.
 */
export const screenStyles = css`
  :host {
    display: block;
  }
  h1 {
    margin: 0 0 0.75rem;
    font-size: 1.375rem;
    line-height: 1.3;
    font-weight: 650;
    color: var(--av-text);
  }
  h1:focus {
    outline: none;
  }
  h2 {
    margin: 1.25rem 0 0.5rem;
    font-size: 1rem;
    font-weight: 600;
  }
  p {
    margin: 0 0 0.75rem;
  }
  p:last-child {
    margin-bottom: 0;
  }
  ol {
    margin: 0 0 0.75rem;
    padding-left: 1.25rem;
  }
  li + li {
    margin-top: 0.375rem;
  }
  .muted {
    color: var(--av-muted);
    font-size: 0.9375rem;
  }
  .actions {
    display: flex;
    flex-direction: column;
    gap: 0.625rem;
    margin-top: 1.5rem;
  }
  button,
  .button {
    box-sizing: border-box;
    display: inline-flex;
    align-items: center;
    justify-content: center;
    min-height: 2.875rem;
    width: 100%;
    padding: 0.625rem 1.25rem;
    border: 1px solid transparent;
    border-radius: 0.625rem;
    font: inherit;
    font-weight: 600;
    text-align: center;
    text-decoration: none;
    cursor: pointer;
    background: var(--av-primary);
    color: var(--av-on-primary);
  }
  button.secondary,
  .button.secondary {
    background: transparent;
    color: var(--av-text);
    border-color: var(--av-border-strong);
  }
  button:hover:not(:disabled),
  .button:hover {
    filter: brightness(1.08);
  }
  button:disabled {
    cursor: not-allowed;
    opacity: 0.6;
  }
  button:focus-visible,
  a:focus-visible {
    outline: 3px solid var(--av-focus);
    outline-offset: 2px;
  }
  a {
    color: var(--av-link);
  }
  .badge {
    display: inline-block;
    margin-bottom: 0.75rem;
    padding: 0.125rem 0.5rem;
    border-radius: 999px;
    font-size: 0.75rem;
    font-weight: 700;
    letter-spacing: 0.04em;
    text-transform: uppercase;
    background: var(--av-sandbox-bg);
    color: var(--av-sandbox-text);
    border: 1px solid var(--av-sandbox-border);
  }
  @media (min-width: 480px) {
    .actions.inline {
      flex-direction: row;
    }
  }
`;

/**
 * The frame <age-verify-app> draws around the screens: a centred card on the page background, and
 * the visually hidden class of its live region (read by screen readers, never shown).
 */
export const pageStyles = css`
  :host {
    display: flex;
    justify-content: center;
    align-items: flex-start;
    box-sizing: border-box;
    min-height: 100vh;
    min-height: 100dvh;
    padding: 1rem;
    background: var(--av-bg);
    color: var(--av-text);
    font-family: system-ui, -apple-system, 'Segoe UI', Roboto, 'Helvetica Neue', Arial, sans-serif;
    font-size: 1rem;
    line-height: 1.5;
  }
  main {
    box-sizing: border-box;
    width: 100%;
    max-width: 30rem;
    padding: 1.5rem 1.25rem;
    border: 1px solid var(--av-border);
    border-radius: 1rem;
    background: var(--av-surface);
    box-shadow: 0 1px 3px rgb(0 0 0 / 0.06), 0 8px 24px rgb(0 0 0 / 0.06);
  }
  @media (min-width: 640px) {
    :host {
      align-items: center;
      padding: 2rem;
    }
    main {
      padding: 2rem;
    }
  }
  .visually-hidden {
    position: absolute;
    width: 1px;
    height: 1px;
    margin: -1px;
    padding: 0;
    overflow: hidden;
    clip: rect(0 0 0 0);
    white-space: nowrap;
    border: 0;
  }
`;
