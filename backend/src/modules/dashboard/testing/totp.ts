/**
 * RFC 6238 TOTP codes for tests (the backend's two-factor tests and the dashboard e2e spec), computed
 * from the `otpauth://` URI or the base32 secret the dashboard shows, like an authenticator app.
 * SHA-1, 6 digits, 30-second steps: what better-auth's two-factor plugin issues.
 */
import { createHmac } from 'node:crypto';

const BASE32 = 'ABCDEFGHIJKLMNOPQRSTUVWXYZ234567';
export const TOTP_PERIOD_MS = 30_000;

/** RFC 4648 base32, upper or lower case, spaces and padding ignored. */
export function base32Decode(text: string): Buffer {
  const clean = text.toUpperCase().replace(/[\s=]/g, '');
  let bits = 0;
  let value = 0;
  const bytes: number[] = [];
  for (const char of clean) {
    const index = BASE32.indexOf(char);
    if (index < 0) throw new Error(`not base32: ${char}`);
    value = (value << 5) | index;
    bits += 5;
    if (bits >= 8) {
      bytes.push((value >>> (bits - 8)) & 0xff);
      bits -= 8;
    }
  }
  return Buffer.from(bytes);
}

/** The base32 secret of an `otpauth://totp/…?secret=…` URI. */
export function secretOfUri(uri: string): string {
  const secret = new URL(uri).searchParams.get('secret');
  if (!secret) throw new Error(`no secret in ${uri}`);
  return secret;
}

/** RFC 4226 HOTP of one counter value. */
export function hotp(key: Buffer, counter: number, digits = 6): string {
  const message = Buffer.alloc(8);
  message.writeBigUInt64BE(BigInt(counter));
  const mac = createHmac('sha1', key).update(message).digest();
  const offset = mac[mac.length - 1]! & 0x0f;
  const binary = ((mac[offset]! & 0x7f) << 24) | (mac[offset + 1]! << 16) | (mac[offset + 2]! << 8) | mac[offset + 3]!;
  return String(binary % 10 ** digits).padStart(digits, '0');
}

/** The code an authenticator app shows at `atMs` (`steps` 30-second steps later, for a code not used yet). */
export function totpCode(base32Secret: string, atMs: number = Date.now(), steps = 0): string {
  return hotp(base32Decode(base32Secret), Math.floor(atMs / TOTP_PERIOD_MS) + steps);
}

/** A 6-digit code no step around `atMs` accepts (a wrong code that cannot be right by chance). */
export function wrongTotpCode(base32Secret: string, atMs: number = Date.now()): string {
  const valid = new Set([-2, -1, 0, 1, 2].map((step) => totpCode(base32Secret, atMs, step)));
  for (let n = 0; ; n += 1) {
    const candidate = String(n).padStart(6, '0');
    if (!valid.has(candidate)) return candidate;
  }
}
