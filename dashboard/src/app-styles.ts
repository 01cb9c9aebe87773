import { css } from 'lit';
import { baseStyles } from './styles';

/**
 * The app frame's styles (dash-app.ts; apart by issue 25, item 11): the skip link, the layout of
 * navigation and screen, and the centred entry pages. The header has its own (dash-header.ts).
 */
export const appStyles = [
  baseStyles,
  css`
    :host {
      min-height: 100vh;
      background: #f5f6f8;
    }
    .skip {
      position: absolute;
      left: -999px;
      top: 0;
      padding: 0.5rem 1rem;
      background: #fff;
    }
    .skip:focus {
      left: 0.5rem;
      z-index: 10;
    }
    .layout {
      display: grid;
      grid-template-columns: 13rem 1fr;
      gap: 1.5rem;
      max-width: 80rem;
      margin: 0 auto;
      padding: 1.5rem;
    }
    nav ul {
      margin: 0;
      padding: 0;
      list-style: none;
    }
    nav a {
      display: block;
      padding: 0.5rem 0.75rem;
      border-radius: 0.375rem;
      color: var(--dash-text);
      text-decoration: none;
    }
    nav a[aria-current='page'] {
      background: #dbeafe;
      color: #1e3a8a;
      font-weight: 600;
    }
    main {
      min-width: 0;
    }
    .centered {
      max-width: 32rem;
      margin: 3rem auto;
      padding: 0 1rem;
    }
    @media (max-width: 900px) {
      .layout {
        grid-template-columns: 1fr;
        padding: 1rem;
      }
      nav ul {
        display: flex;
        flex-wrap: wrap;
        gap: 0.25rem;
      }
    }
  `,
];
