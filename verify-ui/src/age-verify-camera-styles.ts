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
    /* The status line keeps one line's height when it empties (the camera is on): the buttons under
       it stay put, so a press made while the camera starts lands on what it was aimed at. */
    .status-line {
      min-height: 1lh;
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
    /* The liveness challenge (issue 19): the prompt over the top of the preview, an arrow at the side
       to turn to, and the oval's same side drawn thick. Not mirrored: only the video is. */
    .prompt {
      position: absolute;
      top: 0.75rem;
      left: 50%;
      transform: translateX(-50%);
      width: max-content;
      max-width: calc(100% - 1.5rem);
      margin: 0;
      padding: 0.375rem 0.75rem;
      border-radius: 0.5rem;
      background: rgb(0 0 0 / 0.7);
      color: #fff;
      font-size: 1.25rem;
      font-weight: 600;
      text-align: center;
    }
    .cue {
      position: absolute;
      top: 50%;
      width: 18%;
      max-width: 5rem;
      transform: translateY(-50%);
      pointer-events: none;
    }
    .cue[data-move='left'] {
      left: 3%;
    }
    .cue[data-move='right'] {
      right: 3%;
    }
    .cue svg {
      display: block;
      width: 100%;
      fill: none;
      stroke: #fff;
      stroke-width: 6;
      stroke-linecap: round;
      stroke-linejoin: round;
      filter: drop-shadow(0 0 3px rgb(0 0 0 / 0.8));
      animation: nudge-left 0.9s ease-in-out infinite alternate;
    }
    .cue[data-move='right'] svg {
      transform: scaleX(-1);
      animation-name: nudge-right;
    }
    @keyframes nudge-left {
      to {
        transform: translateX(-30%);
      }
    }
    @keyframes nudge-right {
      to {
        transform: scaleX(-1) translateX(-30%);
      }
    }
    .guide.face[data-move='left'] {
      border-left: 8px solid var(--av-primary);
    }
    .guide.face[data-move='right'] {
      border-right: 8px solid var(--av-primary);
    }
    /* Reduced motion: the arrow stands still; its side and the words say where to turn. */
    @media (prefers-reduced-motion: reduce) {
      .cue svg,
      .cue[data-move='right'] svg {
        animation: none;
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
