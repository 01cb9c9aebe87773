import { css } from 'lit';

/**
 * Styles shared by every dashboard element (each has its own shadow root). Colours are chosen for
 * WCAG AA contrast on white; state is never shown by colour alone (badges carry a word).
 */
export const baseStyles = css`
  :host {
    display: block;
    --dash-text: #111827;
    --dash-muted: #4b5563;
    --dash-border: #d1d5db;
    --dash-surface: #ffffff;
    --dash-primary: #1d4ed8;
    --dash-on-primary: #ffffff;
    --dash-danger: #b91c1c;
    --dash-focus: #f59e0b;
    color: var(--dash-text);
  }
  h1 {
    margin: 0 0 1rem;
    font-size: 1.5rem;
    line-height: 1.3;
  }
  h1:focus {
    outline: none;
  }
  h2 {
    margin: 1.5rem 0 0.5rem;
    font-size: 1.125rem;
  }
  h3 {
    margin: 1rem 0 0.5rem;
    font-size: 1rem;
  }
  p {
    margin: 0 0 0.75rem;
  }
  a {
    color: var(--dash-primary);
  }
  .muted {
    color: var(--dash-muted);
    font-size: 0.9375rem;
  }
  .card {
    box-sizing: border-box;
    margin: 0 0 1rem;
    padding: 1rem 1.25rem;
    border: 1px solid var(--dash-border);
    border-radius: 0.5rem;
    background: var(--dash-surface);
  }
  .card > h2:first-child,
  .card > form > h2:first-child {
    margin-top: 0;
  }
  button,
  .button {
    display: inline-flex;
    align-items: center;
    justify-content: center;
    min-height: 2.5rem;
    padding: 0.375rem 1rem;
    border: 1px solid var(--dash-primary);
    border-radius: 0.375rem;
    font: inherit;
    font-weight: 600;
    text-decoration: none;
    cursor: pointer;
    background: var(--dash-primary);
    color: var(--dash-on-primary);
  }
  button.secondary,
  .button.secondary {
    background: var(--dash-surface);
    color: var(--dash-primary);
  }
  button.danger {
    background: var(--dash-surface);
    color: var(--dash-danger);
    border-color: var(--dash-danger);
  }
  button:disabled {
    cursor: not-allowed;
    opacity: 0.6;
  }
  button:focus-visible,
  a:focus-visible,
  input:focus-visible,
  select:focus-visible,
  textarea:focus-visible,
  summary:focus-visible {
    outline: 3px solid var(--dash-focus);
    outline-offset: 2px;
  }
  .actions {
    display: flex;
    flex-wrap: wrap;
    gap: 0.5rem;
    align-items: center;
    margin: 0.75rem 0;
  }
  form .field {
    display: flex;
    flex-direction: column;
    gap: 0.25rem;
    margin: 0 0 0.75rem;
    max-width: 32rem;
  }
  label {
    font-weight: 600;
  }
  fieldset {
    margin: 0 0 0.75rem;
    padding: 0.5rem 0.75rem;
    border: 1px solid var(--dash-border);
    border-radius: 0.375rem;
  }
  legend {
    font-weight: 600;
  }
  fieldset label {
    font-weight: 400;
    display: flex;
    gap: 0.5rem;
    align-items: center;
  }
  input[type='text'],
  input[type='email'],
  input[type='password'],
  input[type='url'],
  input[type='search'],
  select,
  textarea {
    box-sizing: border-box;
    min-height: 2.5rem;
    padding: 0.375rem 0.5rem;
    border: 1px solid #6b7280;
    border-radius: 0.375rem;
    font: inherit;
    background: #fff;
    color: var(--dash-text);
  }
  .error {
    margin: 0.5rem 0;
    padding: 0.5rem 0.75rem;
    border-left: 4px solid var(--dash-danger);
    background: #fef2f2;
    color: #7f1d1d;
  }
  .success {
    margin: 0.5rem 0;
    padding: 0.5rem 0.75rem;
    border-left: 4px solid #15803d;
    background: #f0fdf4;
    color: #14532d;
  }
  .table-wrap {
    overflow-x: auto;
  }
  table {
    width: 100%;
    border-collapse: collapse;
    font-size: 0.9375rem;
  }
  th,
  td {
    padding: 0.5rem;
    border-bottom: 1px solid var(--dash-border);
    text-align: left;
    vertical-align: top;
  }
  th {
    font-weight: 600;
    background: #f9fafb;
  }
  code,
  pre {
    font-family: ui-monospace, SFMono-Regular, Menlo, Consolas, monospace;
    font-size: 0.875rem;
    overflow-wrap: anywhere;
  }
  pre {
    margin: 0.5rem 0;
    padding: 0.75rem;
    max-height: 24rem;
    overflow: auto;
    white-space: pre-wrap;
    background: #f3f4f6;
    border-radius: 0.375rem;
  }
  .badge {
    display: inline-block;
    padding: 0.0625rem 0.5rem;
    border-radius: 999px;
    font-size: 0.8125rem;
    font-weight: 600;
    border: 1px solid currentColor;
    white-space: nowrap;
  }
  .badge.ok {
    color: #14532d;
    background: #dcfce7;
  }
  .badge.warn {
    color: #78350f;
    background: #fef3c7;
  }
  .badge.bad {
    color: #7f1d1d;
    background: #fee2e2;
  }
  .badge.neutral {
    color: #374151;
    background: #f3f4f6;
  }
  dl.facts {
    display: grid;
    grid-template-columns: max-content 1fr;
    gap: 0.25rem 1rem;
    margin: 0 0 0.75rem;
  }
  dl.facts dt {
    font-weight: 600;
  }
  dl.facts dd {
    margin: 0;
    overflow-wrap: anywhere;
  }
  ul.plain {
    margin: 0;
    padding: 0;
    list-style: none;
  }
  .visually-hidden {
    position: absolute;
    width: 1px;
    height: 1px;
    overflow: hidden;
    clip: rect(0 0 0 0);
    white-space: nowrap;
  }
`;
