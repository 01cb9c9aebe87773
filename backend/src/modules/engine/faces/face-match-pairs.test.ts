/**
 * Face match on real photos with the real models (issue 21): the rule of face-match.ts on the
 * descriptors face-analysis.ts computes, exactly as the engine compares a portrait with a selfie.
 * The photos are in fixtures/README.md with their licences.
 */
import { beforeAll, describe, expect, test } from 'bun:test';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import sharp from 'sharp';
import { decodeImage } from '../image-decoding';
import { analyseFace, type FaceModels, loadFaceModels } from './face-analysis';
import { cosineSimilarity, FACE_MATCH_MIN_SIMILARITY, matchFrames } from './face-match';

let models: FaceModels;

beforeAll(async () => {
  models = await loadFaceModels();
}, 120_000);

const fixture = (name: string) => readFileSync(join(import.meta.dir, '..', 'fixtures', name));

/** Face match's descriptor of the one face of a selfie-sized photo, and Human's faceres beside it. */
async function describeFace(name: string, bytes: Uint8Array = fixture(name)): Promise<{ embedding: number[]; faceres: number[] }> {
  const image = await decodeImage(bytes, { maxSide: 640 });
  const { face } = await analyseFace(models, image, { descriptor: true, embedding: true, age: false, passive: false });
  if (!face?.embedding || !face.descriptor) throw new Error(`no face described in ${name}`);
  return { embedding: face.embedding, faceres: face.descriptor };
}

/** Every fixture photo of a person's face, by person. */
const PEOPLE: Record<string, string[]> = {
  lisa: ['lisa-30cm.jpg', 'lisa-webcam.jpg'],
  astronaut: ['astronaut.jpg'],
  'other adult': ['other-adult.png'],
  p042: ['london-042-neutral.jpg'],
  p043: ['london-043-smiling.jpg'],
  p069: ['london-069-smiling.jpg'],
  p082: ['london-082-neutral.jpg'],
  p115: ['london-115-neutral.jpg'],
  p137: ['london-137-smiling.jpg'],
};

describe('face match on real photos (issue 21)', () => {
  test('one person photographed on two occasions (webcam at home; another day, another camera, hair changed) is the same person', async () => {
    const [portrait, selfie] = await Promise.all([describeFace('lisa-30cm.jpg'), describeFace('lisa-webcam.jpg')]);
    // Measured 0.80.
    expect(matchFrames(portrait.embedding, [selfie.embedding]).outcome).toBe('match');
  }, 60_000);

  test.each([30, -25])(
    'a head tilted %d° in the picture is described as when upright (face-alignment.ts): it still matches the photo of another day',
    async (degrees) => {
      const tilted = await sharp(fixture('lisa-webcam.jpg')).rotate(degrees, { background: '#808080' }).jpeg().toBuffer();
      const [upright, turned, other] = await Promise.all([
        describeFace('lisa-webcam.jpg'),
        describeFace('lisa-webcam.jpg', tilted),
        describeFace('lisa-30cm.jpg'),
      ]);
      // Measured 0.90 and 0.95 against the upright photo; 0.76 and 0.81 against the other day's (upright: 0.80).
      expect(cosineSimilarity(upright.embedding, turned.embedding)).toBeGreaterThan(0.85);
      expect(matchFrames(other.embedding, [turned.embedding]).outcome).toBe('match');
    },
    60_000,
  );

  test('the closest different-person pair of the fixture photos is refused, and so is every other', async () => {
    const described = Object.entries(PEOPLE).flatMap(([person, files]) => files.map((file) => ({ person, file })));
    const faces = await Promise.all(described.map(async (photo) => ({ ...photo, ...(await describeFace(photo.file)) })));
    const strangers = faces.flatMap((a, i) =>
      faces.slice(i + 1).flatMap((b) => (a.person === b.person ? [] : [{ pair: `${a.file} ${b.file}`, a: a.embedding, b: b.embedding }])),
    );
    const closest = strangers.reduce((best, pair) => (cosineSimilarity(pair.a, pair.b) > cosineSimilarity(best.a, best.b) ? pair : best));
    // Measured: london-069-smiling.jpg against london-115-neutral.jpg, 0.39 (the pair below).
    expect(closest.pair).toBe('london-069-smiling.jpg london-115-neutral.jpg');
    for (const { pair, a, b } of strangers) expect([pair, matchFrames(a, [b]).outcome]).toEqual([pair, 'mismatch']);
  }, 120_000);

  test("two London strangers between the tuning set's 0.1 % point (0.337) and the shipped threshold are refused (decision 0090)", async () => {
    const [portrait, selfie] = await Promise.all([describeFace('london-069-smiling.jpg'), describeFace('london-115-neutral.jpg')]);
    // Measured 0.386: a threshold chosen for FAR 0.1 % on news photos would accept them.
    expect(cosineSimilarity(portrait.embedding, selfie.embedding)).toBeGreaterThan(0.337);
    expect(cosineSimilarity(portrait.embedding, selfie.embedding)).toBeLessThan(FACE_MATCH_MIN_SIMILARITY);
    expect(matchFrames(portrait.embedding, [selfie.embedding]).outcome).toBe('mismatch');
  }, 60_000);

  test("the London pair that Human's faceres took for one person (0.79) is two people to face match's descriptor", async () => {
    const [portrait, selfie] = await Promise.all([describeFace('london-042-neutral.jpg'), describeFace('london-137-smiling.jpg')]);
    // Before decision 0064 faceres alone decided, at 0.62, and accepted them; face match's descriptor scores them 0.15.
    expect(cosineSimilarity(portrait.faceres, selfie.faceres)).toBeGreaterThanOrEqual(0.62);
    expect(matchFrames(portrait.embedding, [selfie.embedding]).outcome).toBe('mismatch');
  }, 60_000);
});
