import { css } from 'lit';

/**
 * The page's colours, light and dark, as custom properties on <age-verify-app>'s host. Custom
 * properties inherit through shadow roots, so every screen reads them as `var(--av-…)` and this is
 * the one place that defines the palette and dark mode. The app adopts it before its own styles.
 */
export const palette = css`
  :host {
    --av-bg: #f3f4f6;
    --av-surface: #ffffff;
    --av-text: #111827;
    --av-muted: #4b5563;
    --av-border: #e5e7eb;
    --av-border-strong: #9ca3af;
    --av-primary: #1f4fd1;
    --av-on-primary: #ffffff;
    --av-link: #1f4fd1;
    --av-focus: #b45309;
    --av-success: #15803d;
    --av-error: #b91c1c;
    --av-error-surface: #fef2f2;
    --av-warning: #b45309;
    --av-sandbox-bg: #fef3c7;
    --av-sandbox-text: #78350f;
    --av-sandbox-border: #d97706;
    --av-sandbox-surface: #fffbeb;
  }
  @media (prefers-color-scheme: dark) {
    :host {
      --av-bg: #0f1115;
      --av-surface: #1a1d23;
      --av-text: #f3f4f6;
      --av-muted: #b0b6c0;
      --av-border: #2d323b;
      --av-border-strong: #5b6270;
      --av-primary: #6d93ff;
      --av-on-primary: #0b1020;
      --av-link: #8fb0ff;
      --av-focus: #f59e0b;
      --av-success: #4ade80;
      --av-error: #f87171;
      --av-error-surface: #2a1618;
      --av-warning: #fbbf24;
      --av-sandbox-bg: #3b2a05;
      --av-sandbox-text: #fde68a;
      --av-sandbox-border: #d97706;
      --av-sandbox-surface: #221a08;
    }
  }
`;
