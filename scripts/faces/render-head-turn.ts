/**
 * `bun scripts/faces/render-head-turn.ts`: the three pictures of the e2e fake camera's genuine head
 * turn (issue 19, Deliver 1 and the acceptance "the fake camera showing a genuine 3D head turn that
 * follows the challenge"): e2e/fixtures/head-turn/{frontal,left,right}.jpg, rendered from the
 * public-domain astronaut portrait's face mesh turned in three dimensions (head-pose-render.ts);
 * and e2e/fixtures/head-turn-other/ the same from other-adult.png (CC0), a live person who is not
 * the passport's holder (face match).
 * e2e/support/liveness-camera.ts shows one of them at a time, following the verify UI's prompt.
 * Committed (the portrait's licence allows it, see the engine fixtures' README), so the e2e run
 * needs no face model; run this again only when the renderer changes.
 */
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { faceMesh, readRaw, renderHeadPose, toJpeg } from '../../backend/src/modules/engine/liveness/testing/head-pose-render';

const repoRoot = fileURLToPath(new URL('../..', import.meta.url));
const FIXTURES = join(repoRoot, 'backend', 'src', 'modules', 'engine', 'fixtures');
const PEOPLE = [
  { photo: join(FIXTURES, 'astronaut.jpg'), out: join(repoRoot, 'e2e', 'fixtures', 'head-turn') },
  { photo: join(FIXTURES, 'other-adult.png'), out: join(repoRoot, 'e2e', 'fixtures', 'head-turn-other') },
];
/**
 * Degrees of yaw of the turned pictures: a clear turn that keeps both eyes in view. The renderer's
 * convention: the person's own left is negative yaw (as the camera sees it, the face turns toward
 * the image's right). Human's mesh reads about 60 % of a rendered angle (liveness-sequences.ts), and
 * the motion check asks for 16° of it (MOTION_LIMITS), so a full 36° turn.
 */
const TURN_DEGREES = 36;
const POSES = { frontal: 0, left: -TURN_DEGREES, right: TURN_DEGREES } as const;

for (const person of PEOPLE) {
  const photo = await readRaw(readFileSync(person.photo));
  const mesh = await faceMesh(photo);
  mkdirSync(person.out, { recursive: true });
  for (const [name, yaw] of Object.entries(POSES)) {
    // The frontal picture goes through the renderer too, so all three carry the same texture mapping.
    const image = await renderHeadPose(photo, mesh, yaw, 0);
    const path = join(person.out, `${name}.jpg`);
    writeFileSync(path, await toJpeg(image));
    console.log(`${path}: yaw ${yaw}°`);
  }
}
