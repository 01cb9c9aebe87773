/**
 * A printed security background for MRZ training images (decision 0081): real data pages print the
 * MRZ over guilloche lines, microprint and dot screens, and a recogniser that has only seen plain
 * paper reads such a background as `<` filler. Returns an SVG fragment drawn behind the text, in a
 * tone between the paper's and the ink's. `em` is the MRZ font size, so the pattern keeps its size
 * relative to the glyphs whether it is drawn behind one line or a whole page.
 */
export type PatternKind = 'waves' | 'guilloche' | 'microprint' | 'dots';
export const PATTERN_KINDS: readonly PatternKind[] = ['waves', 'guilloche', 'microprint', 'dots'];

export function securityPattern(kind: PatternKind, area: { width: number; height: number; em: number }, paper: number, random: () => number): string {
  const between = (a: number, b: number) => a + random() * (b - a);
  const int = (a: number, b: number) => Math.floor(between(a, b + 1));
  const { width, height, em } = area;
  // Fainter than the ink (0–70 on the lines, black on the page), darker than the paper.
  const tone = () => {
    const v = Math.max(80, paper - int(20, 110));
    return `rgb(${v},${Math.max(0, v + int(-15, 15))},${Math.max(0, v + int(-15, 15))})`;
  };
  const wave = (y: number, amp: number, period: number, phase: number, stroke: number, opacity: number) => {
    let d = `M0 ${y.toFixed(1)}`;
    const step = Math.max(2, em / 8);
    for (let x = step; x <= width + step; x += step) d += ` L${x.toFixed(1)} ${(y + amp * Math.sin(((x + phase) / period) * 2 * Math.PI)).toFixed(1)}`;
    return `<path d="${d}" stroke="${tone()}" stroke-width="${stroke.toFixed(2)}" fill="none" opacity="${opacity.toFixed(2)}"/>`;
  };
  if (kind === 'waves')
    return Array.from({ length: int(2, 6) }, () =>
      wave(between(0, height), between(0.05, 0.35) * em, between(0.7, 3.3) * em, between(0, em), between(0.03, 0.08) * em, between(0.3, 0.8)),
    ).join('');
  if (kind === 'guilloche') {
    // Families of fine interleaved sine lines, as engraved rosettes look across a narrow strip.
    const lines: string[] = [];
    for (let f = int(1, 3); f > 0; f--) {
      const amp = between(0.1, 0.6) * em;
      const period = between(0.8, 4) * em;
      const gap = between(0.12, 0.4) * em;
      const stroke = between(0.025, 0.07) * em;
      const opacity = between(0.35, 0.9);
      const shift = between(0, period);
      for (let y = -amp; y < height + amp; y += gap) lines.push(wave(y, amp, period, shift + y * between(0.5, 2), stroke, opacity));
    }
    return lines.join('');
  }
  if (kind === 'microprint') {
    const size = between(0.2, 0.4) * em;
    const rows: string[] = [];
    const letters = 'ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789';
    const text = Array.from({ length: Math.ceil(width / (size * 0.6)) + 2 }, () => letters[int(0, letters.length - 1)]).join('');
    for (let y = size * between(0.5, 1.5); y < height + size; y += size * between(1.1, 1.8))
      rows.push(
        `<text x="${(-between(0, size * 3)).toFixed(1)}" y="${y.toFixed(1)}" font-family="DejaVu Sans" font-size="${size.toFixed(1)}" fill="${tone()}" opacity="${between(0.4, 0.9).toFixed(2)}">${text}</text>`,
      );
    return rows.join('');
  }
  const pitch = between(0.12, 0.35) * em;
  const r = pitch * between(0.15, 0.4);
  const id = `d${int(0, 1e6)}`;
  return `<defs><pattern id="${id}" width="${pitch.toFixed(2)}" height="${pitch.toFixed(2)}" patternUnits="userSpaceOnUse" patternTransform="rotate(${int(0, 60)})"><circle cx="${(pitch / 2).toFixed(2)}" cy="${(pitch / 2).toFixed(2)}" r="${r.toFixed(2)}" fill="${tone()}"/></pattern></defs><rect width="${width}" height="${height}" fill="url(#${id})" opacity="${between(0.4, 0.9).toFixed(2)}"/>`;
}
