/**
 * Where the face-match descriptor looks (decision 0065): the "face chip" dlib cut its training faces
 * to, which faceRecognitionNet (a port of dlib's ResNet) expects. dlib's get_face_chip_details maps
 * 33 of the 68 landmarks (eyes, nose, upper lip: not the jaw, eyebrows or lower lip, which move
 * with expression) onto its mean face shape by the closest similarity (scale, rotation, shift) and
 * samples a 150 × 150 square with a padding of 0.25 of the face on each side. Unlike face-api's own
 * alignment (a box around the landmarks), this also turns a tilted head upright.
 * The mean shape is dlib's (image_transforms/interpolation.h, Boost Software License 1.0).
 */

/** dlib's mean face shape of landmarks 17–67 in the unit square (x, then y). */
const MEAN_FACE_X = [
  0.000213256, 0.0752622, 0.18113, 0.29077, 0.393397, 0.586856, 0.689483, 0.799124, 0.904991, 0.98004, 0.490127, 0.490127, 0.490127, 0.490127, 0.36688,
  0.426036, 0.490127, 0.554217, 0.613373, 0.121737, 0.187122, 0.265825, 0.334606, 0.260918, 0.182743, 0.645647, 0.714428, 0.793132, 0.858516, 0.79751, 0.719335,
  0.254149, 0.340985, 0.428858, 0.490127, 0.551395, 0.639268, 0.726104, 0.642159, 0.556721, 0.490127, 0.423532, 0.338094, 0.290379, 0.428096, 0.490127,
  0.552157, 0.689874, 0.553364, 0.490127, 0.42689,
] as const;
const MEAN_FACE_Y = [
  0.106454, 0.038915, 0.0187482, 0.0344891, 0.0773906, 0.0773906, 0.0344891, 0.0187482, 0.038915, 0.106454, 0.203352, 0.307009, 0.409805, 0.515625, 0.587326,
  0.609345, 0.628106, 0.609345, 0.587326, 0.216423, 0.178758, 0.179852, 0.231733, 0.245099, 0.244077, 0.231733, 0.179852, 0.178758, 0.216423, 0.244077,
  0.245099, 0.780233, 0.745405, 0.727388, 0.742578, 0.727388, 0.745405, 0.780233, 0.864805, 0.902192, 0.909281, 0.902192, 0.864805, 0.784792, 0.778746,
  0.785343, 0.778746, 0.784792, 0.824182, 0.831803, 0.824182,
] as const;

/** The chip dlib's face-recognition model was trained on (dlib's dnn_face_recognition example). */
export const CHIP_SIZE = 150;
export const CHIP_PADDING = 0.25;

export type Point = readonly [number, number];

/** The landmarks dlib aligns on: 27–54 (nose, eyes, upper lip) and 60–64 (inner upper lip). */
const ALIGNED = Array.from({ length: 51 }, (_, k) => k + 17).filter((i) => i > 26 && !(i >= 55 && i <= 59) && !(i >= 65 && i <= 67));

/** Where dlib puts landmark `i` (17–67) in a chip of `size` pixels with `padding`. */
export function chipPoint(i: number, size = CHIP_SIZE, padding = CHIP_PADDING): Point {
  const place = (mean: number) => ((padding + mean) / (2 * padding + 1)) * size;
  return [place(MEAN_FACE_X[i - 17]!), place(MEAN_FACE_Y[i - 17]!)];
}

/**
 * The similarity that takes chip pixels to image pixels, fitted by least squares on the aligned
 * landmarks (68 points, image pixels), as the 8 numbers of a projective transform
 * [a0, a1, a2, b0, b1, b2, 0, 0]: a chip pixel (x, y) samples the image at
 * (a0·x + a1·y + a2, b0·x + b1·y + b2), tfjs's `image.transform` convention.
 */
export function chipTransform(landmarks: readonly Point[], size = CHIP_SIZE, padding = CHIP_PADDING): number[] {
  if (landmarks.length !== 68) throw new Error(`the face chip needs 68 landmarks, got ${landmarks.length}`);
  const from = ALIGNED.map((i) => chipPoint(i, size, padding));
  const to = ALIGNED.map((i) => landmarks[i]!);
  const centre = (points: readonly Point[]) => points.reduce(([x, y], p) => [x + p[0] / points.length, y + p[1] / points.length], [0, 0]);
  const [fx, fy] = centre(from);
  const [tx, ty] = centre(to);
  // Least squares for to ≈ [a −b; b a]·from + shift, on centred points.
  let a = 0;
  let b = 0;
  let norm = 0;
  from.forEach(([x, y], k) => {
    const px = x - fx;
    const py = y - fy;
    const qx = to[k]![0] - tx;
    const qy = to[k]![1] - ty;
    a += px * qx + py * qy;
    b += px * qy - py * qx;
    norm += px * px + py * py;
  });
  a /= norm;
  b /= norm;
  return [a, -b, tx - (a * fx - b * fy), b, a, ty - (b * fx + a * fy), 0, 0];
}
