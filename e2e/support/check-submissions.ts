/**
 * Reads what the verify UI sends to `POST /api/v1/verify/checks` (protocol/src/checks.ts):
 * multipart/form-data, text fields and JPEG image parts. Used by the contract spec (which answers
 * with page.route) and by the live specs (which only watch the real request).
 */
import type { Request } from '@playwright/test';

export interface SubmittedImage {
  name: string;
  filename: string;
  type: string;
  bytes: number;
  /** From the JPEG's SOF marker; null when the bytes are not a JPEG. */
  width: number | null;
  height: number | null;
}

export interface SubmittedCheck {
  contentType: string;
  fields: Record<string, string>;
  /** Field names in body order (text fields first, then images). */
  order: string[];
  images: SubmittedImage[];
}

/** Width and height of a baseline or progressive JPEG, from its first SOF segment. */
export function jpegSize(bytes: Uint8Array): { width: number; height: number } | null {
  if (bytes[0] !== 0xff || bytes[1] !== 0xd8) return null;
  let offset = 2;
  while (offset + 9 < bytes.length) {
    if (bytes[offset] !== 0xff) return null;
    const marker = bytes[offset + 1]!;
    const length = (bytes[offset + 2]! << 8) | bytes[offset + 3]!;
    if (marker >= 0xc0 && marker <= 0xcf && marker !== 0xc4 && marker !== 0xc8 && marker !== 0xcc) {
      return { height: (bytes[offset + 5]! << 8) | bytes[offset + 6]!, width: (bytes[offset + 7]! << 8) | bytes[offset + 8]! };
    }
    offset += 2 + length;
  }
  return null;
}

export async function readSubmission(request: Request): Promise<SubmittedCheck> {
  const contentType = (await request.allHeaders())['content-type'] ?? '';
  const body = request.postDataBuffer() ?? Buffer.alloc(0);
  const form = await new Response(new Uint8Array(body), { headers: { 'content-type': contentType } }).formData();
  const fields: Record<string, string> = {};
  const order: string[] = [];
  const images: SubmittedImage[] = [];
  for (const [name, value] of form.entries()) {
    order.push(name);
    if (typeof value === 'string') {
      fields[name] = value;
      continue;
    }
    const file = value as File;
    const bytes = new Uint8Array(await file.arrayBuffer());
    const size = jpegSize(bytes);
    images.push({ name, filename: file.name, type: file.type, bytes: bytes.length, width: size?.width ?? null, height: size?.height ?? null });
  }
  return { contentType, fields, order, images };
}
