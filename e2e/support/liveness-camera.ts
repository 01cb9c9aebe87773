/**
 * A fake front camera that follows the verify UI's liveness challenge (issue 19, decision 0062):
 * the selfie camera (getUserMedia with facingMode "user") becomes a canvas.captureStream() whose
 * canvas shows a rendered head turn (e2e/fixtures/head-turn, scripts/faces/render-head-turn.ts):
 * the frontal picture while the prompt says "look at the camera" (step 0) and between moves, the
 * head turned to the person's own left while the prompt says left, to their right while it says
 * right. It reads the prompt's data-move (age-verify-camera.ts, `data-testid="liveness-prompt"`).
 * Every other camera (the document's rear camera) stays Chromium's own fake device.
 *
 * `follow: false` is the attack a photo makes: the frontal picture, whatever the prompt says.
 *
 *   await useLivenessCamera(page);                   // before page.goto
 *   await captureSelfie(page);                        // press the capture button, wait for the challenge to end
 *   expect(await livenessCameraLog(page)).toEqual(['frontal', 'left', 'frontal', 'right']);
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { expect, type BrowserContext, type Page } from '@playwright/test';
import type { ChallengeMove } from '../../protocol/src/index';
import { capturePlan } from '../../verify-ui/src/liveness-capture';
import { FIXTURE_DIR } from './fake-camera';

export const HEAD_TURN_DIR = join(FIXTURE_DIR, 'head-turn');
export const HEAD_POSES = ['frontal', 'left', 'right'] as const;
export type HeadPose = (typeof HEAD_POSES)[number];

export interface LivenessCameraOptions {
  /** Follow the prompt (a live head) or always show the frontal picture (a held photo). Default true. */
  follow?: boolean;
  /** Pictures by pose; default e2e/fixtures/head-turn/{frontal,left,right}.jpg. */
  images?: Record<HeadPose, string>;
}

/** What the page-side script receives: the pictures' bytes as base64 (decoded there without a URL, so the page's CSP does not apply). */
interface CameraScriptArgument {
  follow: boolean;
  images: Record<HeadPose, string>;
}

declare global {
  interface Window {
    /** The poses the fake camera showed, in order, each once per change (read with livenessCameraLog). */
    __livenessCameraLog?: HeadPose[];
  }
}

/** Runs in the page before its scripts (page.addInitScript); self-contained, as Playwright serialises it. */
function installLivenessCamera({ follow, images }: CameraScriptArgument): void {
  const mediaDevices = navigator.mediaDevices;
  if (!mediaDevices?.getUserMedia) return;
  const original = mediaDevices.getUserMedia.bind(mediaDevices);
  const log: HeadPose[] = [];
  window.__livenessCameraLog = log;

  const isFrontCamera = (constraints?: MediaStreamConstraints): boolean => {
    const video = constraints?.video;
    if (!video || typeof video !== 'object') return false;
    const facing = video.facingMode;
    if (facing === 'user') return true;
    if (facing && typeof facing === 'object' && !Array.isArray(facing)) {
      const { ideal, exact } = facing as ConstrainDOMStringParameters;
      return ideal === 'user' || exact === 'user';
    }
    return false;
  };

  /** The prompt, through the open shadow roots of the verify UI's elements. */
  const findPrompt = (root: Document | ShadowRoot): Element | null => {
    const found = root.querySelector('[data-testid="liveness-prompt"]');
    if (found) return found;
    for (const element of root.querySelectorAll('*')) {
      const inner = element.shadowRoot ? findPrompt(element.shadowRoot) : null;
      if (inner) return inner;
    }
    return null;
  };

  const decoded = (async () => {
    const entries = await Promise.all(
      (Object.keys(images) as HeadPose[]).map(async (pose) => {
        const bytes = Uint8Array.from(atob(images[pose]), (character) => character.charCodeAt(0));
        return [pose, await createImageBitmap(new Blob([bytes], { type: 'image/jpeg' }))] as const;
      }),
    );
    return Object.fromEntries(entries) as Record<HeadPose, ImageBitmap>;
  })();

  const cameraStream = async (): Promise<MediaStream> => {
    const bitmaps = await decoded;
    // 640×480 as a laptop camera, the picture letterboxed as the y4m fake camera does (fake-camera.ts).
    const canvas = document.createElement('canvas');
    canvas.width = 640;
    canvas.height = 480;
    const context = canvas.getContext('2d');
    if (!context) throw new DOMException('No 2D canvas', 'NotReadableError');
    let shown: HeadPose | null = null;
    const draw = () => {
      const move = follow ? findPrompt(document)?.getAttribute('data-move') : null;
      const pose: HeadPose = move === 'left' || move === 'right' ? move : 'frontal';
      if (pose !== shown) log.push(pose);
      shown = pose;
      const bitmap = bitmaps[pose];
      const scale = Math.min(canvas.width / bitmap.width, canvas.height / bitmap.height);
      const width = bitmap.width * scale;
      const height = bitmap.height * scale;
      context.fillStyle = '#000';
      context.fillRect(0, 0, canvas.width, canvas.height);
      context.drawImage(bitmap, (canvas.width - width) / 2, (canvas.height - height) / 2, width, height);
    };
    draw();
    // Redrawn at the stream's rate, so a new prompt shows within a frame and the track never starves.
    const timer = setInterval(draw, 1000 / 30);
    const stream = canvas.captureStream(30);
    for (const track of stream.getVideoTracks()) track.addEventListener('ended', () => clearInterval(timer));
    const stop = MediaStreamTrack.prototype.stop;
    for (const track of stream.getVideoTracks()) {
      track.stop = function (this: MediaStreamTrack) {
        clearInterval(timer);
        stop.call(this);
      };
    }
    return stream;
  };

  mediaDevices.getUserMedia = (constraints?: MediaStreamConstraints) => (isFrontCamera(constraints) ? cameraStream() : original(constraints));
}

/** Installs the fake front camera in every page of `target` opened from now on. */
export async function useLivenessCamera(target: Page | BrowserContext, options: LivenessCameraOptions = {}): Promise<void> {
  const paths = options.images ?? Object.fromEntries(HEAD_POSES.map((pose) => [pose, join(HEAD_TURN_DIR, `${pose}.jpg`)]));
  const images = Object.fromEntries(HEAD_POSES.map((pose) => [pose, readFileSync(paths[pose]).toString('base64')])) as Record<HeadPose, string>;
  await target.addInitScript(installLivenessCamera, { follow: options.follow ?? true, images } satisfies CameraScriptArgument);
}

/** The poses the fake camera showed in `page` so far, once per change. */
export function livenessCameraLog(page: Page): Promise<HeadPose[]> {
  return page.evaluate(() => [...(window.__livenessCameraLog ?? [])]);
}

/** The selfie screen at one moment of a challenge, read in the page in one go (age-verify-camera.ts). */
export interface ChallengeMoment {
  phase: string;
  step: string;
  move: string;
  prompt: string;
  announcement: string;
  /** The arrow, when one shows: its centre from the preview's left edge, as a share of the preview's width, and its CSS animation. */
  cue: { centreShare: number; animation: string } | null;
}

/**
 * Waits for the selfie screen's prompt to reach `phase` ('look', 'left', 'right', 'back') and reads
 * that moment in the page itself, in one round trip: a phase lasts a few seconds, too short for a
 * chain of locator calls on a loaded machine.
 */
export async function waitForChallengePhase(page: Page, phase: string, timeout = 20_000): Promise<ChallengeMoment> {
  const handle = await page.waitForFunction(
    (wanted: string) => {
      const find = (root: Document | ShadowRoot, selector: string): Element | null => {
        const found = root.querySelector(selector);
        if (found) return found;
        for (const element of root.querySelectorAll('*')) {
          const inner = element.shadowRoot ? find(element.shadowRoot, selector) : null;
          if (inner) return inner;
        }
        return null;
      };
      const prompt = find(document, '[data-testid="liveness-prompt"]');
      if (!(prompt instanceof HTMLElement) || prompt.dataset.phase !== wanted) return null;
      const root = prompt.getRootNode() as ShadowRoot;
      const stage = root.querySelector('.stage')?.getBoundingClientRect();
      const cue = root.querySelector('[data-testid="liveness-cue"]');
      const arrow = cue?.querySelector('svg');
      const box = cue?.getBoundingClientRect();
      return {
        phase: prompt.dataset.phase ?? '',
        step: prompt.dataset.step ?? '',
        move: prompt.dataset.move ?? '',
        prompt: prompt.textContent?.trim() ?? '',
        announcement: root.querySelector('[data-testid="liveness-announcement"]')?.textContent?.trim() ?? '',
        cue:
          box && stage && arrow
            ? { centreShare: (box.left + box.width / 2 - stage.left) / stage.width, animation: getComputedStyle(arrow).animationName }
            : null,
      };
    },
    phase,
    { timeout, polling: 50 },
  );
  return (await handle.jsonValue()) as ChallengeMoment;
}

/**
 * How long the capture of a challenge with `moves` takes on screen (the verify UI's own plan,
 * liveness-capture.ts), with room for the challenge request and the frames' encoding.
 */
export function challengeCaptureMs(moves: readonly ChallengeMove[] = ['left', 'right']): number {
  return capturePlan(moves).reduce((total, phase) => total + phase.durationMs, 0) + 5000;
}

/** Presses the selfie's capture button and waits until the challenge's capture is over (the camera screen leaves). */
export async function captureSelfie(page: Page, moves?: readonly ChallengeMove[]): Promise<void> {
  const camera = page.getByTestId('selfie-camera');
  const button = camera.getByTestId('capture');
  await expect(button).toBeEnabled();
  await button.click();
  await expect(camera).toHaveCount(0, { timeout: challengeCaptureMs(moves) });
}
