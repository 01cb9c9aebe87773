import { css } from 'lit';
import { screenStyles } from './styles';

/** Styles of <age-verify-camera>: the preview stage with its guide, and a layout that keeps the capture button on screen. */
export const cameraStyles = [
  screenStyles,
  css`
    /* Portrait: heading, preview, controls under each other. Landscape phones are short: preview
       beside the text and buttons, so the capture button stays on screen without scrolling. */
    .layout {
      display: grid;
      grid-template-areas: 'head' 'stage' 'controls';
    }
    .head {
      grid-area: head;
    }
    .controls {
      grid-area: controls;
    }
    .controls .actions {
      margin-top: 0.75rem;
    }
    @media (orientation: landscape) and (max-height: 540px) {
      .layout {
        grid-template-columns: minmax(0, 1.1fr) minmax(0, 1fr);
        grid-template-areas: 'stage head' 'stage controls';
        grid-template-rows: auto 1fr;
        column-gap: 1rem;
      }
      .stage {
        margin: 0;
        max-height: 75vh;
        max-height: 75dvh;
      }
      h1 {
        font-size: 1.125rem;
      }
      .head p {
        font-size: 0.875rem;
      }
      button {
        min-height: 2.5rem;
      }
    }
    .stage {
      grid-area: stage;
      position: relative;
      overflow: hidden;
      margin: 0 0 1rem;
      border-radius: 0.75rem;
      background: #000;
      aspect-ratio: 3 / 4;
      max-height: 60vh;
      max-height: 60dvh;
      width: 100%;
    }
    @media (orientation: landscape) {
      .stage {
        aspect-ratio: 4 / 3;
      }
    }
    video {
      position: absolute;
      inset: 0;
      width: 100%;
      height: 100%;
      object-fit: cover;
    }
    :host([purpose='selfie']) video {
      /* A mirror image is what people expect of a front camera; the frames sent are not mirrored. */
      transform: scaleX(-1);
    }
    .guide {
      position: absolute;
      pointer-events: none;
      border: 3px solid rgb(255 255 255 / 0.9);
      box-shadow: 0 0 0 100vmax rgb(0 0 0 / 0.35);
    }
    .guide.face {
      left: 50%;
      top: 50%;
      width: 56%;
      height: 72%;
      transform: translate(-50%, -52%);
      border-radius: 50%;
    }
    .guide.document {
      left: 6%;
      right: 6%;
      top: 50%;
      aspect-ratio: 1.42;
      transform: translateY(-50%);
      border-radius: 0.75rem;
    }
    :host([state='capturing']) .guide {
      border-color: var(--av-primary);
      transition: border-color 0.2s;
    }
    @media (prefers-reduced-motion: reduce) {
      :host([state='capturing']) .guide {
        transition: none;
      }
    }
    button.link {
      background: none;
      border: none;
      color: var(--av-link);
      text-decoration: underline;
      font-weight: 500;
      min-height: 2.75rem;
    }
  `,
];
