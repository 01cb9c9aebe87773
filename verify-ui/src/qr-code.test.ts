import { describe, expect, test } from 'bun:test';
import qrcode from 'qrcode-generator';
import { encodeQr } from './qr-code';

const LINK =
  'https://verify.example.com/verify?sessionId=ses_01J9Z8Y7X6W5V4T3S2R1Q0P9N8&handoffToken=hand_0123456789abcdefghijklmnopqrstuvwxyz.ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789';

/** Paints the path back into a module matrix, to compare with what the encoder says is dark. */
function paint(path: string, size: number): boolean[][] {
  const grid = Array.from({ length: size }, () => Array<boolean>(size).fill(false));
  for (const match of path.matchAll(/M(\d+) (\d+)h(\d+)v1h-(\d+)z/g)) {
    const [x, y, run, back] = match.slice(1).map(Number) as [number, number, number, number];
    expect(back).toBe(run);
    for (let col = x; col < x + run; col += 1) grid[y]![col] = true;
  }
  return grid;
}

describe('encodeQr', () => {
  test('the path draws exactly the dark modules of the symbol', () => {
    const { size, path } = encodeQr(LINK);
    const reference = qrcode(0, 'M');
    reference.addData(LINK, 'Byte');
    reference.make();
    expect(size).toBe(reference.getModuleCount());
    const grid = paint(path, size);
    for (let row = 0; row < size; row += 1) {
      for (let col = 0; col < size; col += 1) expect(grid[row]![col]).toBe(reference.isDark(row, col));
    }
  });

  test('is a valid QR symbol size with the three finder patterns', () => {
    const { size, path } = encodeQr(LINK);
    expect((size - 17) % 4).toBe(0);
    // Row 0: the top-left and top-right finder patterns are runs of 7 dark modules.
    expect(path.startsWith('M0 0h7v1h-7z')).toBe(true);
    expect(path).toContain(`M${size - 7} 0h7v1h-7z`);
    expect(path).toContain(`M0 ${size - 1}h7v1h-7z`);
  });

  test('only path commands, nothing that could be markup', () => {
    expect(encodeQr(LINK).path).toMatch(/^(M\d+ \d+h\d+v1h-\d+z)+$/);
  });

  test('the same text gives the same code; longer text a larger one', () => {
    expect(encodeQr(LINK)).toEqual(encodeQr(LINK));
    expect(encodeQr(`${LINK}${'x'.repeat(200)}`).size).toBeGreaterThan(encodeQr(LINK).size);
  });

  test('text beyond the largest QR version throws', () => {
    expect(() => encodeQr('x'.repeat(5000))).toThrow();
  });
});
