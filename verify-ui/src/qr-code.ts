import qrcode from 'qrcode-generator';

/**
 * A QR code as one SVG path: the handoff panel (age-verify-handoff.ts) draws it with a Lit `html`
 * template (the path data is bound as an attribute value), so no generated markup is ever parsed
 * as HTML. The dashboard's two-factor enrolment draws its otpauth URI the same way, importing this
 * module as `@ageverify/verify-ui/qr-code` (decision 0057).
 *
 * qrcode-generator is used for the encoding because it ships an ES module without Node built-ins
 * (the `qrcode` package is CommonJS-only and cannot be bundled by our rollup config; see
 * docs/decisions/0002-qr-code-library.md).
 */
export interface QrCode {
  /** Modules per side, without the quiet zone. */
  size: number;
  /** SVG path data in module units: one `M x y h w v 1 h -w z` rectangle per horizontal run of dark modules. */
  path: string;
}

/** ISO/IEC 18004: scanners need a light margin of four modules around the symbol. */
export const QUIET_ZONE = 4;

/**
 * Encodes `text` (ASCII, for example a normalised URL) in byte mode with error correction level M,
 * the smallest version that fits. Throws if the text is too long for any QR version.
 */
export function encodeQr(text: string): QrCode {
  const code = qrcode(0, 'M');
  code.addData(text, 'Byte');
  code.make();
  const size = code.getModuleCount();
  const parts: string[] = [];
  for (let row = 0; row < size; row += 1) {
    let col = 0;
    while (col < size) {
      if (!code.isDark(row, col)) {
        col += 1;
        continue;
      }
      const start = col;
      while (col < size && code.isDark(row, col)) col += 1;
      const run = col - start;
      parts.push(`M${start} ${row}h${run}v1h-${run}z`);
    }
  }
  return { size, path: parts.join('') };
}
