/**
 * Repairs OCR output of a machine-readable zone before it is parsed: ICAO Doc 9303 TD3 passports
 * (part 4), TD1 and TD2 cards (parts 5 and 6), MRV-A and MRV-B visas (part 7). OCR of the OCR-B font confuses a few characters in known ways (docs/engine-notes.md "Documents"):
 * the filler `<` is read as K or L, O and 0 swap, I and 1 swap. Every position of an MRZ has a
 * character class (digits, letters, letters-or-digits, filler), so a letter in a digit field can only
 * be a misread digit and vice versa; where a field allows both (document numbers) the field's check
 * digit chooses among the candidates. A repaired line is still checked digit by digit by the `mrz`
 * package afterwards (mrz-reading.ts). Repair can turn a failing line into a passing one, but only
 * within those confusions: a letter in a digit field becomes its look-alike digit, and an
 * alphanumeric field (the document number, optional data) takes the one letter/digit look-alike or
 * K/L-as-filler variant its own check digit confirms; the composite check digit still covers the result.
 */

import { states } from 'mrz';

/**
 * MRVA and MRVB are the visas of Doc 9303 part 7: the TD3 and TD2 line lengths, document code V.
 * FRENCH_ID is the French national identity card issued from 1988 to 2021: two lines of 36 like TD2,
 * but its own fields and no expiry date (decision 0051).
 */
export type MrzFormat = 'TD1' | 'TD2' | 'TD3' | 'MRVA' | 'MRVB' | 'FRENCH_ID';

/** Character classes: D digit, A letter or filler (names, codes), N letter, digit or filler, C check digit, S sex (M, F or <). */
type CharClass = 'D' | 'A' | 'N' | 'C' | 'S';

export interface Field {
  line: number;
  start: number;
  end: number;
  cls: CharClass;
  /** Index of the check digit covering exactly this field, when it has one. */
  check?: number;
}

export const LINE_LENGTH: Record<MrzFormat, number> = { TD1: 30, TD2: 36, TD3: 44, MRVA: 44, MRVB: 36, FRENCH_ID: 36 };

/**
 * The second line of TD2, MRV-A and MRV-B (Doc 9303 parts 6 and 7): the same fields at the same
 * places as TD3's up to the expiry check digit, then optional data up to `optionalEnd` (a visa has no
 * composite check digit; TD2's composite is its last character).
 */
function shortSecondLine(length: number, composite: boolean): Field[] {
  const optionalEnd = composite ? length - 1 : length;
  return [
    { line: 1, start: 0, end: 9, cls: 'N', check: 9 },
    { line: 1, start: 9, end: 10, cls: 'C' },
    { line: 1, start: 10, end: 13, cls: 'A' },
    { line: 1, start: 13, end: 19, cls: 'D', check: 19 },
    { line: 1, start: 19, end: 20, cls: 'C' },
    { line: 1, start: 20, end: 21, cls: 'S' },
    { line: 1, start: 21, end: 27, cls: 'D', check: 27 },
    { line: 1, start: 27, end: 28, cls: 'C' },
    { line: 1, start: 28, end: optionalEnd, cls: 'N' },
    ...(composite ? [{ line: 1, start: optionalEnd, end: length, cls: 'C' as const }] : []),
  ];
}

/** First line of every two-line layout: document code, issuing state, name. */
function nameLine(length: number): Field[] {
  return [
    { line: 0, start: 0, end: 2, cls: 'A' },
    { line: 0, start: 2, end: 5, cls: 'A' },
    { line: 0, start: 5, end: length, cls: 'A' },
  ];
}

/** Doc 9303 layouts (part 4 TD3, part 5 TD1, part 6 TD2, part 7 MRV-A and MRV-B). `S` is sex: M, F or <. */
export const LAYOUTS: Record<MrzFormat, Field[]> = {
  TD3: [
    { line: 0, start: 0, end: 2, cls: 'A' },
    { line: 0, start: 2, end: 5, cls: 'A' },
    { line: 0, start: 5, end: 44, cls: 'A' },
    { line: 1, start: 0, end: 9, cls: 'N', check: 9 },
    { line: 1, start: 9, end: 10, cls: 'C' },
    { line: 1, start: 10, end: 13, cls: 'A' },
    { line: 1, start: 13, end: 19, cls: 'D', check: 19 },
    { line: 1, start: 19, end: 20, cls: 'C' },
    { line: 1, start: 20, end: 21, cls: 'S' },
    { line: 1, start: 21, end: 27, cls: 'D', check: 27 },
    { line: 1, start: 27, end: 28, cls: 'C' },
    { line: 1, start: 28, end: 42, cls: 'N', check: 42 },
    { line: 1, start: 42, end: 44, cls: 'C' },
  ],
  TD1: [
    { line: 0, start: 0, end: 2, cls: 'A' },
    { line: 0, start: 2, end: 5, cls: 'A' },
    { line: 0, start: 5, end: 14, cls: 'N', check: 14 },
    { line: 0, start: 14, end: 15, cls: 'C' },
    { line: 0, start: 15, end: 30, cls: 'N' },
    { line: 1, start: 0, end: 6, cls: 'D', check: 6 },
    { line: 1, start: 6, end: 7, cls: 'C' },
    { line: 1, start: 7, end: 8, cls: 'S' },
    { line: 1, start: 8, end: 14, cls: 'D', check: 14 },
    { line: 1, start: 14, end: 15, cls: 'C' },
    { line: 1, start: 15, end: 18, cls: 'A' },
    { line: 1, start: 18, end: 29, cls: 'N' },
    { line: 1, start: 29, end: 30, cls: 'C' },
    { line: 2, start: 0, end: 30, cls: 'A' },
  ],
  TD2: [...nameLine(36), ...shortSecondLine(36, true)],
  MRVA: [...nameLine(44), ...shortSecondLine(44, false)],
  MRVB: [...nameLine(36), ...shortSecondLine(36, false)],
  // The French card's own layout (not Doc 9303): surname and an administrative code on the first line;
  // the card number (issue year and month, department, serial) with its check digit, given names,
  // birth date with its check digit, sex and a composite check digit over both lines on the second.
  FRENCH_ID: [
    { line: 0, start: 0, end: 2, cls: 'A' },
    { line: 0, start: 2, end: 5, cls: 'A' },
    { line: 0, start: 5, end: 30, cls: 'A' },
    { line: 0, start: 30, end: 36, cls: 'N' },
    { line: 1, start: 0, end: 12, cls: 'N', check: 12 },
    { line: 1, start: 12, end: 13, cls: 'C' },
    { line: 1, start: 13, end: 27, cls: 'A' },
    { line: 1, start: 27, end: 33, cls: 'D', check: 33 },
    { line: 1, start: 33, end: 34, cls: 'C' },
    { line: 1, start: 34, end: 35, cls: 'S' },
    { line: 1, start: 35, end: 36, cls: 'C' },
  ],
};

/** Letters OCR returns for digits (OCR-B shapes) and the reverse. */
export const AS_DIGIT: Readonly<Record<string, string>> = { O: '0', Q: '0', D: '0', U: '0', I: '1', L: '1', T: '1', Z: '2', S: '5', G: '6', B: '8', A: '4' };
const AS_LETTER: Record<string, string> = { '0': 'O', '1': 'I', '2': 'Z', '5': 'S', '6': 'G', '8': 'B', '4': 'A' };

/** Doc 9303 part 3 §4.9: weights 7, 3, 1 over digit values (A=10 … Z=35, < = 0). */
export function checkDigit(text: string): number {
  let sum = 0;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    const value = c >= 48 && c <= 57 ? c - 48 : c >= 65 && c <= 90 ? c - 55 : 0;
    sum += value * [7, 3, 1][i % 3]!;
  }
  return sum % 10;
}

/** Upper-cases, drops spaces and maps anything outside the MRZ alphabet to the filler. */
export function normaliseLine(raw: string): string {
  return raw
    .toUpperCase()
    .replace(/\s+/g, '')
    .replace(/[«‹]/g, '<')
    .replace(/[^A-Z0-9<]/g, '<');
}

/** The MRZ line length nearest to `length`; the shorter on a tie. */
function nearestLength(length: number): number {
  return [30, 36, 44].reduce((best, candidate) => (Math.abs(length - candidate) < Math.abs(length - best) ? candidate : best));
}

/**
 * A line read as one of `length`: within three characters of it, and nearer to it than to another
 * layout's (a line of 33 is a TD1 line read long rather than a TD2 line read short).
 */
function fitsLength(line: string, length: number): boolean {
  return Math.abs(line.length - length) <= 3 && nearestLength(line.length) === length;
}

/**
 * Picks the MRZ lines out of OCR text: the last runs that look like MRZ lines, in page order. Two
 * lines of about 44 characters are a passport (TD3), or a visa (MRV-A) when the document code is V;
 * three of about 30 an ID card (TD1); two of about 36 a TD2 card, a visa (MRV-B) or the French
 * national identity card of 1988–2021. TD1 is tried
 * before the 36-character layouts because it needs three lines, which a two-line band does not give.
 */
/**
 * A line with no filler is still an MRZ line when it carries the digits of a birth and an expiry
 * date with their check digits: a visa or card whose optional data fills the second line has none
 * (the US visa specimens of issue 20's real set). Other text on a page is rarely that long in digits.
 */
const FULL_LINE_MIN_DIGITS = 14;

function digitCount(line: string): number {
  return line.match(/\d/g)?.length ?? 0;
}

/** The lines of OCR text that may be MRZ lines: long, and holding a filler or the digits of a second line. */
export function mrzLineCandidates(ocrText: string): string[] {
  return ocrText
    .split('\n')
    .map(normaliseLine)
    .filter((line) => line.length >= 25 && (line.includes('<') || digitCount(line) >= FULL_LINE_MIN_DIGITS));
}

/** Characters other than fillers a line cut short holds at least (cutLineLength). */
const CUT_LINE_MIN_NON_FILLERS = 3;

/**
 * The longest line of OCR text that looks like part of an MRZ line cut short (10 to 43 characters,
 * holding a filler or six digits) in a text that holds no whole zone (findMrzLines): what a crop
 * that misses one end of the zone reads. 0 when none. Lines of 27–43 count since engine 2026.11.19:
 * glare across one end of a visa's zone left lines of 27 of its 36, too long to count before and
 * too short for any layout. A line of fillers and at most two other characters does not count
 * (engine 2026.11.28): the project's own MRZ model reads clutter below a zone as a run of fillers
 * (decision 0081), which would measure the cut as longer than the lines read.
 */
export function cutLineLength(ocrText: string): number {
  if (findMrzLines(ocrText)) return 0;
  const cut = ocrText
    .split('\n')
    .map(normaliseLine)
    .filter(
      (line) =>
        line.length >= 10 &&
        line.length < LINE_LENGTH.TD3 &&
        line.replaceAll('<', '').length >= CUT_LINE_MIN_NON_FILLERS &&
        (line.includes('<') || digitCount(line) >= 6),
    );
  return Math.max(0, ...cut.map((line) => line.length));
}

/**
 * Each line's longest run without a space: a crop carried on past the zone reads marks beside the
 * lines as words of their own (extendedBand), which would otherwise join the line.
 */
export function longestRuns(ocrText: string): string {
  return ocrText
    .split('\n')
    .map((line) => line.split(/\s+/).reduce((a, b) => (b.length > a.length ? b : a), ''))
    .join('\n');
}

/**
 * At most this many characters glued to one end of a line: a word printed beside the zone, read
 * with no space before the line (a card on a cluttered table, issue 20's harder set: a receipt's
 * TICKET read as TICKE in front of a passport's second line).
 */
const MAX_GLUED = 8;

/**
 * The text once per way of cutting one of its lines, too long by 4 to MAX_GLUED characters for a
 * layout's line (fitsLength allows 3), back to that length, the glued characters dropped from its
 * start, its end or both. Only a passing reading may answer from a cut: the cut is a guess that the
 * check digits confirm or not.
 */
export function gluedLineCuts(ocrText: string): string[] {
  const lines = ocrText.split('\n').map(normaliseLine);
  const cuts: string[] = [];
  for (const [i, line] of lines.entries()) {
    if (!line.includes('<') && digitCount(line) < FULL_LINE_MIN_DIGITS) continue;
    for (const length of [LINE_LENGTH.TD3, LINE_LENGTH.TD2, LINE_LENGTH.TD1]) {
      const extra = line.length - length;
      if (extra <= 3 || extra > MAX_GLUED) continue;
      for (let start = 0; start <= extra; start++) cuts.push(lines.with(i, line.slice(start, start + length)).join('\n'));
    }
  }
  return cuts;
}

export function findMrzLines(ocrText: string): { format: MrzFormat; lines: string[] } | null {
  const candidates = mrzLineCandidates(ocrText);
  for (const [length, count] of [
    [44, 2],
    [30, 3],
    [36, 2],
  ] as const) {
    const fitting = candidates.filter((line) => fitsLength(line, length));
    if (fitting.length < count) continue;
    const lines = fitting.slice(-count);
    // Doc 9303 part 7: a visa's document code starts with V (a passport's with P, a card's with A, C or I).
    const visa = lines[0]!.startsWith('V');
    if (length === 44) return { format: visa ? 'MRVA' : 'TD3', lines };
    if (length === 30) return { format: 'TD1', lines };
    // The French card (decision 0051) starts with ID and its issuing state, FRA.
    return { format: visa ? 'MRVB' : lines[0]!.startsWith('IDFRA') ? 'FRENCH_ID' : 'TD2', lines };
  }
  return null;
}

/**
 * The second line of a passport (TD3) or a TD2 card when no whole zone was found: a stamp, glare or a
 * thumb across the first line (issue 20's real set: a Qatari specimen stamped across its name line).
 * That first line holds the document code, the issuing state and the name, none of them under a
 * check digit; the dates, the nationality and every check digit, the composite included, are in the
 * second. The last line of about 44 or 36 characters with the digits of both dates and their check
 * digits. Only the two layouts whose second line carries a composite check digit qualify: a visa's
 * second line has none, and a TD1 card spreads its data over two lines.
 */
export function findDataLine(ocrText: string): { format: 'TD3' | 'TD2'; line: string } | null {
  const lines = ocrText
    .split('\n')
    .map(normaliseLine)
    .filter((line) => digitCount(line) >= FULL_LINE_MIN_DIGITS);
  for (const line of lines.reverse()) {
    const length = nearestLength(line.length);
    if (Math.abs(line.length - length) > 3) continue;
    if (length === 44) return { format: 'TD3', line };
    if (length === 36) return { format: 'TD2', line };
  }
  return null;
}

/**
 * The first two lines of a TD1 card without its third (the name, under no check digit): two lines of
 * about 30, the first starting with a card's document code (A, C or I), in a text that holds no
 * whole zone. They carry every check digit of the card, the composite included (Doc 9303 part 5).
 * Null when none.
 */
export function findCardHead(ocrText: string): string[] | null {
  const fitting = mrzLineCandidates(ocrText).filter((line) => fitsLength(line, LINE_LENGTH.TD1));
  if (fitting.length !== 2 || !/^[ACI][A-Z<]/.test(fitting[0]!)) return null;
  return fitting;
}

/**
 * A visa's zone read short (issue 20's harder set: glare or the page's far edge across the end of
 * both lines, often with marks beside them read as words): two lines of 25 to 43 characters, once
 * each line is its longest run without a space (longestRuns), the second at least 28 long. A visa's
 * second line holds every field under a check digit in its first 28 characters, whether it is an
 * MRV-A or an MRV-B (Doc 9303 part 7), and has no composite check digit that the cut could have
 * taken away; what was cut is fillers or optional data. A line longer than an MRV-B's is an MRV-A's,
 * else the zone is taken as an MRV-B (which of the two changes no field). Not for a zone whose first
 * line starts with the code of a layout with a composite check digit (P, I, A, C): a passport or
 * card read short is never read as a visa. Nor for one whose code was lost (a first line starting
 * with a filler): a passport whose P was lost looks so too, and read short it has no composite left
 * to tell the two apart, so its birth date would pass on its own check digit, which a misread can
 * make pass on an altered zone (decision 0096). Null when none.
 */
export function findShortVisa(ocrText: string): { format: 'MRVA' | 'MRVB'; lines: string[] } | null {
  const lines = longestRuns(ocrText)
    .split('\n')
    .map(normaliseLine)
    .filter((line) => line.length >= 25 && line.length < LINE_LENGTH.TD3 && line.includes('<'));
  for (let i = lines.length - 1; i >= 1; i--) {
    const [first, second] = [lines[i - 1]!, lines[i]!];
    if (second.length < 28 || 'PIAC<'.includes(first.charAt(0))) continue;
    return { format: Math.max(first.length, second.length) > LINE_LENGTH.MRVB ? 'MRVA' : 'MRVB', lines: [first, second] };
  }
  return null;
}

/**
 * The other layout a two-line MRZ may be when its first character is misread (issue 20): a 2 × 44
 * zone is a passport (document code P) or an MRV-A visa (V), a 2 × 36 zone a TD2 card (A, C or I) or
 * an MRV-B visa. When the first character is none of the codes of the layout it was taken for, the
 * visa is the other candidate, and the check digits decide, the V unread: such a visa answers only
 * on what two witnesses read (mrz-reading.ts visaReading, decision 0102). Null when the code fits
 * its layout.
 */
export function alternativeLayout(format: MrzFormat, lines: readonly string[]): MrzFormat | null {
  const code = normaliseLine(lines[0] ?? '').charAt(0);
  if (format === 'TD3' && code !== 'P') return 'MRVA';
  if (format === 'TD2' && !'ACI'.includes(code)) return 'MRVB';
  return null;
}

/** A filler read as K or L: inside a run of fillers, or in the trailing run of a filler-padded field. */
function repairFillers(segment: string): string {
  // The trailing run after the last letter of a name, such as `<<KK<L<<`, is padding: a name part
  // never ends a field after a filler with only K and L in it. (A name such as MIKKEL keeps its K/L:
  // the run must start with a filler.)
  let text = segment.replace(/<[<KL]*$/, (run) => '<'.repeat(run.length));
  // A lone K or L between fillers is a filler too (no name part is one K long between separators).
  text = text.replace(/<[KL](?=<)/g, '<<');
  return text;
}

/**
 * A name ends at its first run of three fillers: Doc 9303 part 3 §4.6 separates name parts by one
 * filler and the primary from the secondary identifier by two, so a run of three or more is the
 * padding to the end of the field, and whatever OCR read inside it is noise (issue 20's harder set:
 * a 7 read in the padding of a passport's name line; a digit no look-alike maps to a letter).
 */
function padName(segment: string): string {
  return segment.replace(/(?<=[A-Z])<<<.*$/, (padding) => '<'.repeat(padding.length));
}

function toClass(segment: string, cls: CharClass): string {
  switch (cls) {
    case 'D':
    case 'C':
      return [...segment].map((c) => AS_DIGIT[c] ?? (c === '<' && cls === 'C' ? '<' : c)).join('');
    case 'A':
      return repairFillers(padName([...segment].map((c) => AS_LETTER[c] ?? c).join('')));
    case 'S':
      return segment === 'M' || segment === 'F' ? segment : segment === 'H' || segment === 'N' ? 'M' : segment === 'E' || segment === 'P' ? 'F' : '<';
    case 'N':
      return repairFillers(segment);
  }
}

/**
 * What a character of an alphanumeric field may have been printed as (resolveByCheckDigit): a letter
 * and its look-alike digit, B and P (decision 0108), and K or L for a filler.
 */
const SWAPS: Readonly<Record<string, string>> = {
  O: '0',
  '0': 'O',
  I: '1',
  '1': 'I',
  Z: '2',
  '2': 'Z',
  A: '4',
  '4': 'A',
  S: '5',
  '5': 'S',
  B: '8P',
  '8': 'B',
  P: 'B',
  K: '<',
  L: '<',
};

/**
 * Candidates of an alphanumeric field: every swap of a letter and its look-alike digit (O/0, I/1,
 * Z/2, A/4, S/5, B/8: AS_DIGIT and AS_LETTER's pairs in OCR-B at small sizes, but G/6, whose values
 * 16 and 6 no check digit tells apart) or of B and P (SWAPS), the first with the fewest changes
 * that satisfies the check digit wins. A swap that keeps the field's own check digit passing keeps
 * the composite as it was: the field starts the composite's string (the document number), or
 * starts it at a multiple of three (a passport's personal number), so its characters weigh the same
 * in both sums. A swap cannot make a failing composite or birth date pass (decisions 0080, 0108).
 */
function resolveByCheckDigit(segment: string, expected: string): string {
  if (!/^\d$/.test(expected)) return segment;
  // K/L right before the trailing fillers are fillers when that satisfies the check digit (a field
  // ending in `KK<<<` is far likelier padding than data, even when the raw text also happens to pass).
  const padded = segment.replace(/[KL]+(?=<*$)(?=.*<$)/, (run) => '<'.repeat(run.length));
  if (padded !== segment && checkDigit(padded) === Number(expected)) return padded;
  if (checkDigit(segment) === Number(expected)) return segment;
  const ambiguous = [...segment].map((c, i) => (SWAPS[c] ? i : -1)).filter((i) => i >= 0);
  if (ambiguous.length > 8) return segment;
  // Every choice of each ambiguous character (itself or one of its swaps), fewest changes first:
  // one misread character is likelier than two. Within a count, choices go in the order of numbers
  // whose lowest digit is the first character's choice: a swap near the start is tried first.
  const radices = ambiguous.map((position) => SWAPS[segment[position]!]!.length + 1);
  const total = radices.reduce((product, radix) => product * radix, 1);
  const choices = Array.from({ length: total - 1 }, (_, index) => {
    let rest = index + 1;
    const choice = radices.map((radix) => {
      const digit = rest % radix;
      rest = Math.floor(rest / radix);
      return digit;
    });
    return { choice, changes: choice.filter((digit) => digit > 0).length };
  }).sort((a, b) => a.changes - b.changes);
  for (const { choice } of choices) {
    const chars = [...segment];
    ambiguous.forEach((position, k) => {
      if (choice[k]) chars[position] = SWAPS[segment[position]!]![choice[k]! - 1]!;
    });
    const candidate = chars.join('');
    // A filler may only pad the end of the field.
    if (/<[^<]/.test(candidate)) continue;
    if (checkDigit(candidate) === Number(expected)) return candidate;
  }
  return segment;
}

/**
 * Fillers a line may have lost inside its runs (fittings): up to two spread over any runs, or
 * three inside one run (glare or shade across a long run of fillers hides part of it; issue 20's
 * harder set). Three is as short as a line of a zone may be read (findMrzLines); a line shorter
 * still is only padded.
 */
const MAX_FILLERS_DROPPED = 3;
const MAX_FILLERS_SPREAD = 2;
/** The fits of one line are multiplied by the other lines' (recoverMrzFits): a bound keeps it cheap. */
const MAX_FITS_PER_LINE = 24;

/**
 * The ways a line may fit its length: missing characters are fillers, at the end or inside a run of
 * fillers, behind up to two marks read in front of the line; extra characters are dropped at the
 * end, at the start (a mark at the page's edge read as a character, as on a small scan of issue 20's
 * real set), or some at each end (marks on both sides of a zone on a cluttered table: issue 20's
 * harder set), the end first.
 */
function fittings(line: string, length: number): string[] {
  if (line.length > length) {
    const extra = line.length - length;
    const fromStart = [0, extra, ...Array.from({ length: Math.max(0, extra - 1) }, (_, i) => i + 1)];
    return fromStart.map((start) => line.slice(start, start + length));
  }
  const missing = length - line.length;
  const padded = line + '<'.repeat(missing);
  if (missing === 0) return [padded];
  // A line read short may still have a mark or two in front of it (a zone cut at one end on a
  // cluttered table, issue 20's harder set): tried last, padded at the end.
  const marked = [1, 2].map((marks) => line.slice(marks).padEnd(length, '<'));
  if (missing > MAX_FILLERS_DROPPED) return [padded, ...marked];
  // OCR reads a long run of fillers one or two short as readily as it drops the end of a line: the
  // missing fillers may belong inside any run of them (issue 20's real set, a German card whose
  // composite check digit followed a run read one short).
  const runs = [...line.matchAll(/<+/g)].map((run) => run.index!);
  const inside =
    missing > MAX_FILLERS_SPREAD
      ? runs.map((at) => Array<number>(missing).fill(at))
      : runs.flatMap((at) => (missing === 1 ? [[at]] : runs.filter((other) => other >= at).map((other) => [at, other])));
  const fits = inside.map((positions) => positions.reduceRight((text, at) => `${text.slice(0, at)}<${text.slice(at)}`, line));
  return [...[padded, ...new Set(fits.filter((fit) => fit !== padded))].slice(0, MAX_FITS_PER_LINE), ...marked];
}

/** How many of the layout's field check digits the lines satisfy. */
export function passingChecks(format: MrzFormat, lines: readonly string[]): number {
  return LAYOUTS[format].filter((field) => {
    const line = lines[field.line];
    if (!line || field.check === undefined) return false;
    const expected = line[field.check]!;
    return /\d/.test(expected) && checkDigit(line.slice(field.start, field.end)) === Number(expected);
  }).length;
}

/**
 * Repairs the lines of one MRZ by the field classes of its format; see the file comment. A line read
 * too long is tried both ways it may fit: every fit, repaired, the ones whose fields pass more check
 * digits first (the end dropped first on a tie). The first is the likeliest; a line with no check
 * digit (the name line) is told apart only by validating the whole zone (mrz-reading.ts readText).
 */
export function recoverMrzFits(format: MrzFormat, rawLines: readonly string[]): string[][] {
  const length = LINE_LENGTH[format];
  let candidates: string[][] = [[]];
  for (const line of rawLines) {
    const fits = fittings(normaliseLine(line), length);
    candidates = candidates.flatMap((lines) => fits.map((fit) => [...lines, fit]));
  }
  const repaired = candidates.map((lines) => ({ lines: repairFields(format, lines), passing: 0 }));
  for (const fit of repaired) fit.passing = passingChecks(format, fit.lines);
  // Array.prototype.sort is stable: on a tie the fits keep their order, the end dropped first.
  return repaired.sort((a, b) => b.passing - a.passing).map((fit) => fit.lines);
}

/** The likeliest repair of one MRZ (recoverMrzFits). */
export function recoverMrz(format: MrzFormat, rawLines: readonly string[]): string[] {
  return recoverMrzFits(format, rawLines)[0]!;
}

/** A state code as the `mrz` package reads it: trailing fillers dropped (Germany is `D<<`). */
export function knownState(code: string): boolean {
  return Object.hasOwn(states, code.replace(/<+$/, '').replaceAll('<', ' '));
}

/** Letters OCR-B glyphs a few pixels high are read as in place of each other. */
const LOOK_ALIKE_LETTERS: Record<string, string> = {
  M: 'NHW',
  N: 'MH',
  H: 'NM',
  W: 'M',
  O: 'DQ',
  D: 'O',
  Q: 'O',
  E: 'FBC',
  F: 'EP',
  P: 'F',
  B: 'E',
  C: 'GE',
  G: 'C',
  U: 'V',
  V: 'U',
  I: 'LT',
  L: 'I',
  T: 'I',
};

/**
 * A state code (issuing state, nationality) that names no state, when exactly one look-alike letter
 * in one place makes it a state's (issue 20's harder set: NLD read as MLD); as read otherwise. No
 * check digit covers a state code, and the age decision reads none; a code that stays unknown keeps
 * the document from being accepted (decision 0061).
 */
function repairStateCode(code: string): string {
  if (knownState(code)) return code;
  const candidates = new Set<string>();
  [...code].forEach((letter, i) => {
    for (const other of LOOK_ALIKE_LETTERS[letter] ?? '') {
      const candidate = code.slice(0, i) + other + code.slice(i + 1);
      if (knownState(candidate)) candidates.add(candidate);
    }
  });
  return candidates.size === 1 ? [...candidates][0]! : code;
}

/** The three-letter fields of every layout are its state codes (issuing state, nationality). */
export function isStateCode(field: Field): boolean {
  return field.cls === 'A' && field.end - field.start === 3;
}

function repairFields(format: MrzFormat, fitted: readonly string[]): string[] {
  const lines = fitted.map((line) => [...line]);
  const layout = LAYOUTS[format];
  for (const field of layout) {
    const chars = lines[field.line];
    if (!chars) continue;
    let repaired = toClass(chars.slice(field.start, field.end).join(''), field.cls);
    if (isStateCode(field)) repaired = repairStateCode(repaired);
    chars.splice(field.start, field.end - field.start, ...repaired);
  }
  // A visa's V is not written in where another character was read (alternativeLayout): the zone
  // then fails on its document code, a code unread that two witnesses must confirm (decision 0102).
  // Then each alphanumeric field that has its own check digit: its look-alikes, by that digit
  // (repaired above). A date's filler stays a filler (unreadDigits).
  for (const field of layout) {
    if (field.check === undefined || field.cls !== 'N') continue;
    const chars = lines[field.line]!;
    const read = chars.slice(field.start, field.end).join('');
    chars.splice(field.start, field.end - field.start, ...resolveByCheckDigit(read, chars[field.check]!));
  }
  return lines.map((chars) => chars.join(''));
}

/** The date fields of a layout, by what the validation calls them: the first is the birth date. */
const DATE_NAMES = ['birthDate', 'expirationDate'] as const;

/** Where a layout prints the birth date (YYMMDD): its first date field, its check digit after it. */
export function birthDateField(format: MrzFormat): Field & { check: number } {
  return LAYOUTS[format].find((field) => field.cls === 'D') as Field & { check: number };
}

/**
 * Doc 9303 part 7: a visa's zone has no composite check digit. Every other layout ends its second
 * line with one.
 */
export const NO_COMPOSITE: ReadonlySet<MrzFormat> = new Set(['MRVA', 'MRVB']);

/**
 * The fields of `lines` read with a filler where Doc 9303 prints a digit: a date with a filler
 * among its digits, or a date's check digit (its date holding digits) or the composite read as
 * one. Each is a digit the OCR did not read: a faint digit under glare or shade is read as `<`, and
 * a line read short is padded with fillers to its length (fittings), so crops that agree on one
 * agree on what they did not see.
 * The check digit counts a filler as 0, so a date read so passes its check digit when the digit is
 * a 0 and confirms no other: on a genuine document it passes only for a 0, but on one whose check
 * digit is wrong it passes one time in ten for whatever was printed (issue 20's harder set,
 * development seed 22: `580215` with an altered check digit, read `5802<5`, verified 1958-02-05
 * under engine 2026.11.29, which took such a filler for a 0). A reading with an unread digit is
 * neither an answer nor a forgery verdict (decision 0086); another crop that read the digit supplies
 * it (mrz-consensus.ts).
 */
export function unreadDigits(format: MrzFormat, lines: readonly string[]): string[] {
  const dates = LAYOUTS[format].filter((field) => field.cls === 'D');
  const unread = dates.flatMap((field, i) => {
    const name = DATE_NAMES[i]!;
    // A date of fillers alone, with a filler for its check digit, is printed so (a document with no
    // expiry, such as the Russian internal passport of the real set): no digit was lost there.
    if (!/\d/.test(lines[field.line]?.slice(field.start, field.end) ?? '')) return [];
    const checkRead = lines[field.line]?.charAt(field.check!);
    return [...(dateUnread(lines, field) ? [name] : []), ...(checkRead === '<' ? [`${name}CheckDigit`] : [])];
  });
  if (!NO_COMPOSITE.has(format) && lines[1]?.charAt(LINE_LENGTH[format] - 1) === '<') unread.push('compositeCheckDigit');
  return unread;
}

/** Whether this date field of `lines` holds a filler among its digits (unreadDigits). */
export function dateUnread(lines: readonly string[], field: Pick<Field, 'line' | 'start' | 'end'>): boolean {
  const date = lines[field.line]?.slice(field.start, field.end) ?? '';
  return date.includes('<') && /\d/.test(date);
}
