/**
 * Chromium's fake camera, fed from y4m videos made with ffmpeg from the committed still images in
 * e2e/fixtures (never committed themselves: they are large and derived). Global setup makes them
 * into test-results/fake-camera/; a spec picks one per file with
 * `test.use({ launchOptions: fakeCameraLaunchOptions('astronaut') })`.
 */
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync } from 'node:fs';
import { basename, extname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { LaunchOptions } from '@playwright/test';
import { CHROMIUM_ARGS, chromiumPath } from './browser';

const repoRoot = fileURLToPath(new URL('../..', import.meta.url));
export const FIXTURE_DIR = join(repoRoot, 'e2e', 'fixtures');
/** The verification engine's own test images (a generated passport, more faces), once its branch is merged. */
export const ENGINE_FIXTURE_DIR = join(repoRoot, 'backend', 'src', 'modules', 'engine', 'fixtures');
const FIXTURE_DIRS = [FIXTURE_DIR, ENGINE_FIXTURE_DIR];
export const FAKE_CAMERA_DIR = join(repoRoot, 'test-results', 'fake-camera');

/** A committed still image by name (without extension), e.g. `astronaut` → e2e/fixtures/astronaut.jpg. */
export function fixtureImage(name: string): string {
  const found = findFixtureImage(name);
  if (!found) throw new Error(`No fixture image ${name}.jpg or .png in e2e/fixtures or backend/src/modules/engine/fixtures`);
  return found;
}

/** The first image named like one of `names` in e2e/fixtures, then in the engine's fixtures; null if none. */
export function findFixtureImage(...names: string[]): string | null {
  for (const dir of FIXTURE_DIRS) {
    for (const name of names) {
      for (const ext of ['.jpg', '.png']) {
        const path = join(dir, `${name}${ext}`);
        if (existsSync(path)) return path;
      }
    }
  }
  return null;
}

export function fakeCameraVideo(name: string): string {
  return join(FAKE_CAMERA_DIR, `${name}.y4m`);
}

/**
 * One y4m per fixture image: 640×480 (letterboxed, as a laptop camera), 2 s at 10 fps, yuv420p
 * (the only pixel format Chromium's file capture reads). Chromium loops the file.
 */
export function makeFakeCameraVideos(): string[] {
  mkdirSync(FAKE_CAMERA_DIR, { recursive: true });
  const made: string[] = [];
  const images = FIXTURE_DIRS.filter((dir) => existsSync(dir)).flatMap((dir) =>
    readdirSync(dir)
      .filter((file) => ['.jpg', '.png'].includes(extname(file)))
      .map((file) => join(dir, file)),
  );
  for (const path of images) {
    const file = basename(path);
    const output = fakeCameraVideo(basename(file, extname(file)));
    if (made.includes(output)) continue; // e2e/fixtures wins over an engine image of the same name
    const result = spawnSync(
      'ffmpeg',
      [
        '-loglevel',
        'error',
        '-y',
        '-loop',
        '1',
        '-i',
        path,
        '-t',
        '2',
        '-r',
        '10',
        '-vf',
        'scale=640:480:force_original_aspect_ratio=decrease,pad=640:480:(ow-iw)/2:(oh-ih)/2',
        '-pix_fmt',
        'yuv420p',
        output,
      ],
      { encoding: 'utf8' },
    );
    if (result.status !== 0) throw new Error(`ffmpeg could not make ${output} from ${file}: ${result.stderr || result.error?.message}`);
    made.push(output);
  }
  return made;
}

/**
 * Launch options for a Chromium whose camera shows `video` (a name from makeFakeCameraVideos).
 * `permission: 'deny'` makes the fake permission prompt refuse, as a user who clicks "Block".
 */
export function fakeCameraLaunchOptions(video: string, permission: 'allow' | 'deny' = 'allow'): LaunchOptions {
  return {
    executablePath: chromiumPath(),
    args: [
      ...CHROMIUM_ARGS,
      permission === 'allow' ? '--use-fake-ui-for-media-stream' : '--use-fake-ui-for-media-stream=deny',
      '--use-fake-device-for-media-stream',
      `--use-file-for-fake-video-capture=${fakeCameraVideo(video)}`,
    ],
  };
}
