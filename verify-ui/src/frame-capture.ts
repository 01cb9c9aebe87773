/**
 * Turns camera frames and picked photos into the JPEG parts of a submission (protocol/src/checks.ts):
 * drawn on a canvas, downscaled so the longer side fits, encoded as JPEG. Only ever loaded with
 * the live capture chunk.
 */
export const FRAME_SETTINGS = {
  /** Selfie frames: enough for face detection and age estimation, small enough for five per request. */
  selfieMaxSide: 960,
  /** Documents: the MRZ's OCR-B characters and a PDF417 barcode need more pixels than a face. */
  documentMaxSide: 1600,
  jpegQuality: 0.88,
  /** Gap between the frames of one burst: long enough for the engine to see natural movement. */
  burstIntervalMs: 180,
} as const;

/** Dimensions scaled down (never up) so that the longer side is at most `maxSide`, rounded to pixels. */
export function fitWithin(width: number, height: number, maxSide: number): { width: number; height: number } {
  if (width <= 0 || height <= 0) throw new Error(`Expected a positive image size, got ${width}×${height}`);
  const scale = Math.min(1, maxSide / Math.max(width, height));
  return { width: Math.max(1, Math.round(width * scale)), height: Math.max(1, Math.round(height * scale)) };
}

/** Draws one image (a playing <video>, a decoded photo) downscaled and encodes it as JPEG. */
export function encodeJpeg(source: CanvasImageSource, sourceWidth: number, sourceHeight: number, maxSide: number): Promise<Blob> {
  const size = fitWithin(sourceWidth, sourceHeight, maxSide);
  const canvas = document.createElement('canvas');
  canvas.width = size.width;
  canvas.height = size.height;
  const context = canvas.getContext('2d');
  if (!context) return Promise.reject(new Error('No 2D canvas context'));
  context.drawImage(source, 0, 0, size.width, size.height);
  return new Promise((resolve, reject) => {
    canvas.toBlob((blob) => (blob ? resolve(blob) : reject(new Error('The canvas could not be encoded'))), 'image/jpeg', FRAME_SETTINGS.jpegQuality);
  });
}

/** `count` frames of a playing video, `intervalMs` apart, oldest first. */
export async function captureBurst(
  video: HTMLVideoElement,
  count: number,
  intervalMs: number,
  maxSide: number,
  onFrame?: (taken: number) => void,
): Promise<Blob[]> {
  const frames: Blob[] = [];
  for (let index = 0; index < count; index++) {
    if (index > 0) await new Promise((resolve) => setTimeout(resolve, intervalMs));
    frames.push(await encodeJpeg(video, video.videoWidth, video.videoHeight, maxSide));
    onFrame?.(frames.length);
  }
  return frames;
}

/**
 * A photo the user picked or took with the camera app (the upload fallback), decoded through an
 * object URL (`img-src blob:` in the page's CSP) and re-encoded, so a 12-megapixel phone photo
 * becomes a part the submission limits accept, and its EXIF data (location!) is not sent.
 */
export async function photoToJpeg(file: Blob, maxSide: number): Promise<Blob> {
  const url = URL.createObjectURL(file);
  try {
    const image = new Image();
    image.src = url;
    await image.decode();
    return await encodeJpeg(image, image.naturalWidth, image.naturalHeight, maxSide);
  } finally {
    URL.revokeObjectURL(url);
  }
}
