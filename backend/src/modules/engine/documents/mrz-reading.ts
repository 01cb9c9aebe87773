/**
 * Reads the date of birth and expiry from the MRZ of a passport (TD3), an ID card (TD1, TD2, the
 * French card of 1988–2021) or a visa (MRV-A, MRV-B): tesseract.js
 * with the project's own MRZ model (backend/models/mrz, trained here; decision 0087), loaded from the
 * repository with `cacheMethod: 'none'` so nothing is fetched from a CDN or cached on disk. The OCR
 * text is repaired by field classes (mrz-recovery.ts) and then every check digit is validated
 * (mrz-validation.ts, the `mrz` package where it knows the layout): a document is never accepted on a
 * line the check digits do not confirm.
 */
import { PSM } from 'tesseract.js';
import { type DecodedImage, decodedSharp, redecoded } from '../image-decoding';
import { FALLBACK_TURNS, type Turn, turnImage, zonesAcrossPage } from './document-orientation';
import {
  type EQUALISATIONS,
  equalisedZone,
  extendedBand,
  FLAT_THRESHOLDS,
  flatField,
  locateMrzBands,
  stackedBand,
  stackedZones,
  thresholded,
} from './mrz-band';
import { type Binarisation, inOrder, type MrzOcr, ocrText } from './mrz-ocr';
import {
  agreeingReadings,
  birthDateContested,
  birthDateOutvoted,
  birthDateContradicted,
  birthDateSupport,
  birthDateWitnessed,
  visaBirthDateWitnessed,
  type CropReading,
  combineReadings,
  fixedBandCrop,
  lineCombinations,
  type MrzLines,
  passContested,
} from './mrz-consensus';
import {
  alternativeLayout,
  cutLineLength,
  findDataLine,
  findCardHead,
  findMrzLines,
  findShortVisa,
  gluedLineCuts,
  LINE_LENGTH,
  longestRuns,
  type MrzFormat,
  mrzLineCandidates,
  NO_COMPOSITE,
  passingChecks,
  recoverMrzFits,
} from './mrz-recovery';
import { statedBirthCentury } from './birth-century';
import { validateMrz } from './mrz-validation';

export type MrzReading =
  | { found: false }
  | {
      found: true;
      format: MrzFormat;
      /** Every check digit and code passed (mrz-validation.ts). */
      valid: boolean;
      invalidFields: string[];
      /** YYMMDD as printed; the century is inferred by the decision (document-decision.ts). */
      birthDate: string | null;
      /** Null on the French card, whose MRZ prints none: the decision derives it from `issueDate`. */
      expirationDate: string | null;
      /** YYMM, the French card's issue date (decision 0051); absent or null for the other layouts. */
      issueDate?: string | null;
      documentCode: string | null;
      /** The birth century a national personal number states (documents/birth-century.ts); absent or null when none. */
      birthCentury?: number | null;
      /**
       * How many of the independent readings (different crops) read exactly these repaired lines. A
       * failing line read alike from at least two crops is what the document says; read once, it may
       * be a misread (decision 0042).
       */
      agreeing: number;
      /**
       * Read from the second line alone: no whole zone was found, and the first line (document code,
       * issuing state, name; no check digit) was not read (findDataLine). Absent when the zone was read.
       */
      dataLineOnly?: true;
      /**
       * The document code was the only field that failed, and it is not reported (`documentCode`
       * null): a letter no check digit covers, misread where the line starts at the document's
       * edge (decision 0079). Absent when the code was read.
       */
      documentCodeUnread?: true;
      /**
       * Fields read with a filler where a digit is printed (mrz-recovery.ts unreadDigits): the
       * reading fails, and is a misread however many crops agree on it (decision 0086).
       */
      unreadDigits?: string[];
      /**
       * A reading of one crop passed against failing lines that independent crops agree on
       * (mrz-consensus.ts passContested, decision 0087), or a combination passed on a birth date as
       * many witnesses read one digit otherwise (birthDateContested, decision 0089): the readings
       * contradict each other, so this is a misread to read again, neither a forgery verdict nor an
       * answer.
       */
      contested?: true;
    };

/**
 * A grey PNG of the lower part of the page, where Doc 9303 puts the MRZ, or of the whole page;
 * enlarged `scale` times (Lanczos) for a small picture whose glyphs are too few pixels high. The
 * MRZ training recipe cuts lines from it as the first passes read them (zone-lines.ts `--band`).
 */
export async function bandPng(image: DecodedImage, fromFraction: number, scale = 1): Promise<Buffer> {
  const top = Math.floor(image.height * fromFraction);
  const band = decodedSharp(image).extract({
    left: 0,
    top,
    width: image.width,
    height: image.height - top,
  });
  const sized = scale > 1 ? band.resize({ width: Math.round(image.width * scale), kernel: 'lanczos3' }) : band;
  return sized.greyscale().normalise().png().toBuffer();
}

/** The crops that must read a birth date alike before a zone with its code unread answers on it (settle). */
const MRZ_CROPS_FOR_UNREAD_CODE = 2;

/** Doc 9303 parts 4–7: the letters a document code starts with, by the length of the zone's lines. */
const CODE_LETTERS: Readonly<Record<number, string>> = { 30: 'ACI', 36: 'ACIV', 44: 'PV' };

function interpret(format: MrzFormat, repaired: MrzLines, agreeing: number): MrzReading & { found: true } {
  return { found: true, format, ...validateMrz(format, repaired), agreeing };
}

/**
 * A failing reading whose only failing field is its document code, passing without it (decision
 * 0079); null for any other. The code is a letter or two that no check digit covers and nothing
 * the decision uses comes from, and the first letter of a card's first line, at the card's edge, is
 * the one most often misread there (`I` read as `Z`, `J` or `L`: issue 20's harder set, the
 * Liechtenstein card of the real set). Every check digit must still pass, the composite included,
 * and the issuing state must be a known code. Only a code that starts with no layout's letter: a
 * code read as P, V, A, C or I names its layout, so a passport whose composite fails is not a visa
 * with its code unread. A visa whose V was not read (visaReading) is such a reading too, with
 * no composite (decision 0102). Such a reading is no answer from one crop: settle takes it when
 * enough crops read its birth date alike.
 */
function codeUnread(reading: MrzReading & { found: true }, repaired: MrzLines): (MrzReading & { found: true }) | null {
  const onlyCode =
    reading.invalidFields.length === 1 &&
    reading.invalidFields[0] === 'documentCode' &&
    !(CODE_LETTERS[LINE_LENGTH[reading.format]] ?? '').includes(repaired[0]?.charAt(0) || '-');
  if (!onlyCode) return null;
  const birthCentury = statedBirthCentury(reading.format, repaired, reading.birthDate);
  return { ...reading, valid: true, invalidFields: [], documentCode: null, birthCentury, documentCodeUnread: true };
}

/** The first of the candidate lines whose check digits and codes all pass, read as `format`; null when none does. */
function firstValid(format: MrzFormat, candidates: Iterable<MrzLines>): (MrzReading & { found: true }) | null {
  for (const lines of candidates) {
    const reading = interpret(format, lines, 1);
    if (reading.valid) return reading;
  }
  return null;
}

/** The first of the candidate lines that passes with its document code unread (codeUnread), or undefined. */
function firstCodeUnread(format: MrzFormat, candidates: readonly MrzLines[]): MrzLines | undefined {
  return candidates.find((lines) => codeUnread(interpret(format, lines, 1), lines));
}

/** Bottom third (the MRZ of a page that fills the frame; OCR time grows with the area read), a wider band, the whole page. */
const PASSES = [
  [0.65, PSM.SINGLE_BLOCK],
  [0.4, PSM.SINGLE_BLOCK],
  [0, PSM.SPARSE_TEXT],
] as const;

type Pass = (typeof PASSES)[number];
/** The crop keys of the upright fixed bands (fixedBandCrop). */
const UPRIGHT_BANDS: ReadonlySet<string> = new Set(PASSES.map(([fraction]) => fixedBandCrop(fraction)));
/** Failing lines read as `format`; `codeUnread` when they pass with their document code unread (codeUnread). */
type Reading = { format: MrzFormat; lines: MrzLines; codeUnread?: true };
/** A second line that passed every check digit read without its zone (readDataLine). */
type DataLineReading = { dataLine: MrzReading & { found: true } };
/**
 * A TD1 card's first two lines without the third (findCardHead), which failed: a donor of lines to
 * the other readings of the zone (settle, lineCombinations), never a reading of its own, so it
 * counts towards no agreement and no forgery verdict.
 */
type PartialReading = { partial: Reading };
type Result = (MrzReading & { found: true }) | Reading | DataLineReading | PartialReading | null;
/** One read of a crop in a step: the crop's key (readings of one crop are one witness) and the read. */
type CropRead = { crop: string; read: () => Promise<Result> };

/** One OCR pass: a reading whose check digits all pass, the failing lines it read, or nothing found. */
async function readPass(ocr: MrzOcr, image: DecodedImage, [fraction, psm]: Pass, scale = 1): Promise<Result> {
  return readPng(ocr, await bandPng(image, fraction, scale), psm);
}

async function readPng(ocr: MrzOcr, png: Buffer, psm: PSM, binarisation: Binarisation = 'global'): Promise<Result> {
  return readText(await ocrText(ocr, png, psm, binarisation));
}

/**
 * A page narrower than this is read once more enlarged when no pass read it: its MRZ glyphs are
 * then about 8–12 px high (issue 20's small scans), below what the model reads reliably.
 */
export const SMALL_PAGE_WIDTH = 1100;
/**
 * Pixels per character of a zone's line, counted as if the line ran across the whole page (the
 * most it can have), under which the MRZ's glyphs are small: issue 20's low-resolution scans,
 * whose glyphs are 8–12 px high, have at most 16. A fixed band's passing reading of such a page
 * waits for a second witness (`held`, decision 0105).
 */
export const SMALL_GLYPH_PITCH = 18;
/** The width the enlarged reading brings a small page to (at most 3 times). */
const ENLARGED_WIDTH = 1800;

/**
 * What one OCR text says: the repaired lines and, when every check digit passes, the reading. A
 * zone whose document code was misread is tried as the other layout of its size too
 * (alternativeLayout: a visa whose V reads as another letter is not a failing passport or card),
 * and kept as a failing reading with its code unread when it passes so (visaReading).
 */
export function readText(text: string): Result {
  const reading = readLines(text);
  if (reading && 'found' in reading) return reading;
  // Marks beside the lines read as words of their own (a cluttered table, issue 20's harder set):
  // each line's longest run read once more, which only a passing reading answers from.
  const runs = longestRuns(text);
  const again = runs === text ? null : readLines(runs);
  if (again && 'found' in again) return again;
  // A word beside the zone glued to one of its lines (gluedLineCuts): each cut, which only a
  // passing reading of a layout with a composite check digit answers from. A visa's three check
  // digits do not confirm a cut: a passport's stamped name line, cut to start with a V, read as a
  // visa with the passport's dates (decision 0077), nor a visa's with its code unread: a cut that
  // drops the first line's code and state reads as one (decision 0102).
  const cuts = [...new Set([...gluedLineCuts(text), ...gluedLineCuts(runs)])]
    .map(readLines)
    .filter((cut) => cut && 'format' in cut && !NO_COMPOSITE.has(cut.format));
  for (const valid of cuts) if (valid && 'found' in valid) return valid;
  // Else the failing reading kept is the one that passes with its code unread, when one does
  // (decision 0079; settle decides on it), read whole, by its runs or cut.
  return [reading, again, ...cuts].find((kept) => kept && 'codeUnread' in kept) ?? reading;
}

function readLines(text: string): Result {
  const found = findMrzLines(text);
  if (!found) return readShortVisa(text) ?? readDataLine(text) ?? readCardHead(text);
  const fits = recoverMrzFits(found.format, found.lines);
  // A line read too long fits its length in more than one way; the first fit that validates wins
  // (the name line has no check digit, so only its codes tell its fits apart).
  const valid = firstValid(found.format, fits);
  if (valid) return valid;
  // Only a zone that failed is tried as another layout: a passport or card whose composite alone
  // fails is not read as a visa, whole or short (compositeAloneFails).
  const visaRefused = compositeAloneFails(found.format, fits);
  const alternative = visaRefused ? null : alternativeLayout(found.format, found.lines);
  // A fit that passes with its code unread is the failing reading kept: settle decides on it with
  // the other crops (decision 0079). The layout read first, with its composite, before the visa.
  const unread = firstCodeUnread(found.format, fits);
  if (unread) return { format: found.format, lines: unread, codeUnread: true };
  const asAlternative = alternative && visaReading(alternative, recoverMrzFits(alternative, found.lines));
  if (asAlternative) return asAlternative;
  // Marks beside the lines read as words can make a visa read short look like a whole zone.
  return (visaRefused ? null : readShortVisa(text)) ?? { format: found.format, lines: fits[0]! };
}

/** The first line's fields that shift when its first character is lost: they fail on a zone read so, not on its second line. */
const SHIFTED_FIELDS = new Set(['documentCode', 'issuingState']);

/**
 * What a passport's (TD3) or TD2 card's second line holds between the expiry's check digit and the
 * composite when its optional data is empty: fillers, and on a passport the personal number's
 * check digit, a filler or 0 (Doc 9303 parts 4 and 6).
 */
const EMPTY_OPTIONAL: Partial<Record<MrzFormat, RegExp>> = { TD3: /^<{14}[<0]$/, TD2: /^<{7}$/ };
/** Where the optional data starts on both layouts' second line: after the expiry's check digit (mrz-recovery.ts LAYOUTS). */
const OPTIONAL_START = 28;

/**
 * Whether a fit of a passport's or TD2 card's lines fails on its composite check digit alone (the
 * first line's codes aside), with a digit read there and no optional data before it: every field
 * the composite covers passes its own check digit. Such a zone is a passport or card whose
 * composite fails, a misread or an altered zone, and is not read again as a visa
 * (alternativeLayout, readShortVisa): a visa has no composite, so the one check that fails would be
 * dropped, and a birth date misread into its altered check digit would pass (issue 20's harder
 * set, held-out seed 107 `0055`: a passport whose P was lost, verified as an MRV-A visa read
 * short; decision 0095). A visa's optional data takes the composite's place: a visa read as a
 * passport shows a digit there behind empty optional data only by chance, and a visa whose
 * optional data is not empty is not concerned.
 */
function compositeAloneFails(format: MrzFormat, fits: readonly MrzLines[]): boolean {
  const empty = EMPTY_OPTIONAL[format];
  if (!empty) return false;
  const composite = LINE_LENGTH[format] - 1;
  return fits.some((lines) => {
    const second = lines[1] ?? '';
    if (!empty.test(second.slice(OPTIONAL_START, composite)) || !/^\d$/.test(second.charAt(composite))) return false;
    const { invalidFields } = validateMrz(format, lines);
    return invalidFields.includes('compositeCheckDigit') && invalidFields.every((field) => field === 'compositeCheckDigit' || SHIFTED_FIELDS.has(field));
  });
}

/**
 * A TD1 card's first two lines (mrz-recovery.ts findCardHead), with a name line of fillers standing
 * in for the third: the reading when every check digit passes, the composite included (none of its
 * fields is the name), else a donor of its two lines (PartialReading).
 */
function readCardHead(text: string): (MrzReading & { found: true }) | PartialReading | null {
  const head = findCardHead(text);
  if (!head) return null;
  const fits = recoverMrzFits('TD1', [...head, '<'.repeat(LINE_LENGTH.TD1)]);
  return firstValid('TD1', fits) ?? { partial: { format: 'TD1', lines: fits[0]!.slice(0, 2) } };
}

/**
 * A visa's zone read short (mrz-recovery.ts findShortVisa), padded with fillers: it answers only when
 * every check digit and code passes. A failing one joins no consensus: the padding is not a reading
 * of what was cut, and the lines may be a passport's or card's read short. One that passes with its
 * V read as another letter is kept with its code unread (visaReading): what was cut holds no check
 * digit, and settle takes it only on a birth date two witnesses read alike.
 */
function readShortVisa(text: string): (MrzReading & { found: true }) | Reading | null {
  const found = findShortVisa(text);
  return found && visaReading(found.format, recoverMrzFits(found.format, found.lines));
}

/**
 * A visa's zone, by its fits: the reading of the first fit that passes every check digit and code,
 * else the first that passes with its code unread, as a failing reading (codeUnread), else null.
 * A visa whose V was read as another letter fails on its code: a V the crop did not read is no
 * witness, and a visa has no composite, so its birth date passes its own check digit alone, and a
 * crop that misread the code and the date together passes an altered zone (issue 20's harder set,
 * held-out seed 161 `0033`: an altered MRV-A visa, its V read as Y and two digits of its birth date
 * so that they pass the altered check digit, verified from the first band; decision 0102). Settle
 * answers from it when two witnesses read its birth date alike (visaBirthDateWitnessed).
 */
function visaReading(format: MrzFormat, fits: readonly MrzLines[]): (MrzReading & { found: true }) | Reading | null {
  const valid = firstValid(format, fits);
  if (valid) return valid;
  const unread = firstCodeUnread(format, fits);
  return unread ? { format, lines: unread, codeUnread: true } : null;
}

/**
 * A passport's or TD2 card's second line read without its first (mrz-recovery.ts findDataLine), when
 * it passes every check digit, the composite included, and its codes. The `mrz` package validates a
 * whole zone, so a first line that names no one, issued by the state of the nationality, stands in
 * for the unread one; none of its fields is reported.
 */
function readDataLine(text: string): DataLineReading | null {
  const found = findDataLine(text);
  if (!found) return null;
  const length = LINE_LENGTH[found.format];
  const withStandIn = recoverMrzFits(found.format, ['<'.repeat(length), found.line]).map(([, line]) => [
    `${found.format === 'TD3' ? 'P' : 'I'}<${line!.slice(10, 13)}`.padEnd(length, '<'),
    line!,
  ]);
  const reading = firstValid(found.format, withStandIn);
  return reading && { dataLine: { ...reading, documentCode: null, dataLineOnly: true } };
}

/**
 * How a zone carried on sideways is read: equalised gently with both thresholds, then strongly with
 * one (mrz-band.ts EQUALISATIONS).
 */
const EXTENDED_READS = [
  ['gentle', 'global'],
  ['gentle', 'local'],
  ['strong', 'global'],
] as const satisfies readonly (readonly [keyof typeof EQUALISATIONS, Binarisation])[];

/**
 * How a zone no step read is read last, its own crop equalised (mrz-band.ts EQUALISATIONS), with
 * one threshold for the crop or one per neighbourhood: a faint zone beside a dark table or under
 * glare (issue 20's harder set, decision 0075).
 */
const ZONE_REREADS = [
  ['gentle', 'global'],
  ['strong', 'global'],
  ['gentle', 'local'],
] as const satisfies readonly (readonly [keyof typeof EQUALISATIONS, Binarisation])[];

/**
 * How far a zone is carried on to either side for its flattened reads (readFlattened), as a share
 * of its width: enough for a zone found over three fifths of each line, the rest under glare.
 */
const FLAT_EXTENSION = 0.7;

/** The zones' indices, those whose first reading held the most fillers first (a zone of the MRZ holds many). */
function byFillers(texts: readonly string[]): number[] {
  const fillers = texts.map((text) => text.split('<').length - 1);
  return texts.map((_, i) => i).sort((a, b) => fillers[b]! - fillers[a]!);
}

/**
 * How long readMrz may go on looking, counted from its start. The fixed bands are always read; no
 * later step starts once it has passed, and a step started before runs to its end (tesseract
 * cannot be interrupted). Those steps take up to about 3 s on 2 cores (the two that take longer,
 * the enlarged band and the enlarged page, start only in the first half), so the check stays
 * inside the engine pool's 20 s job limit (JOB_TIMEOUT_MS), with the face match it runs beside.
 * Past it, what was read is settled as it stands: a failing reading is a retry, never a late
 * `ENGINE_TIMEOUT`.
 */
export const MRZ_BUDGET_MS = 14_000;

/**
 * Whether less than half of `budgetMs` has passed since `started`. Measured from the start, not
 * back from the deadline: with no budget (Infinity, as the image tests read) the deadline less half
 * the budget is NaN, and a step kept for the first half never ran.
 */
export function inFirstHalf(started: number, budgetMs: number, now = performance.now()): boolean {
  return now - started < budgetMs / 2;
}

/**
 * Runs the passes in order; the first reading whose check digits all pass wins. When none does, the
 * zone is looked for by image processing, levelled and read (mrz-band.ts), zones of one line each
 * stacked one above the other are read together, zones running up or down the page are read when
 * no zone found upright held MRZ lines (zonesAcrossPage), a small page is read once more enlarged
 * (after the zones: their crops are enlarged already, and cost a tenth of the whole band
 * enlarged), a zone that read part of each line is carried on sideways, and the wide band and the
 * zones found are read once more thresholded per neighbourhood, and last, when what was read so far
 * settles into no passing reading, each zone's crop equalised (ZONE_REREADS); the readings are
 * combined field by field under the check digits (settle, mrz-consensus.ts), and a failing result
 * reports how many crops agree on it. When no crop found a whole zone, a second line read alone
 * answers (readDataLine, decision 0069). When the upright image shows no MRZ at
 * all, the right-angle turns are tried (document-orientation.ts) with the wide band, and the first
 * turn that shows one is read with every pass. Last, when none of that passes, a small page is
 * enlarged twice and read again from its first band (`enlargedPage`); only a reading that passes
 * answers from there. Last of all, each zone is read flattened against the paper around each pixel
 * (readFlattened, decisions 0104 and 0106). No step after the fixed bands starts once `budgetMs`
 * has passed (MRZ_BUDGET_MS): what was read by then is settled. A fixed band's passing reading
 * that another band read one digit otherwise in the birth date waits for the zones (`held`,
 * decision 0103), and so does any on a page whose glyphs are small, until a zone reads its birth
 * date alike (decision 0105).
 *
 * `enlargedPage`: this is that second read, of the enlarged page. Its fixed bands wait for the
 * budget like every other step, the whole page is not read (the first read has read it, and
 * enlarged it is four times the area), and it is not enlarged again.
 */
export async function readMrz(ocr: MrzOcr, image: DecodedImage, budgetMs = MRZ_BUDGET_MS, enlargedPage = false): Promise<MrzReading> {
  const started = performance.now();
  const deadline = started + budgetMs;
  const spent = () => performance.now() > deadline;
  const readings: (Reading & CropReading)[] = [];
  let dataLine: (MrzReading & { found: true }) | null = null;
  /**
   * Keeps a failing reading under its crop's key; a reading whose check digits all pass is the
   * answer, unless independent crops agree on failing lines of its layout (passContested): then
   * what was read is settled without it, and a failing result is a misread (`contested`). A second
   * line read alone waits: it answers only when no crop found a whole zone.
   */
  const keep = (crop: string, result: Result): (MrzReading & { found: true }) | null => {
    if (result && 'found' in result) {
      if (!enlargedPage && UPRIGHT_BANDS.has(crop) && (bandContradicted(result) || !zonesWitnessed(result))) {
        held ??= result;
        return null;
      }
      return disputedBy(result) ?? unlessContested(result);
    }
    if (result && 'dataLine' in result) dataLine ??= result.dataLine;
    else if (result && 'partial' in result) partials.push({ ...result.partial, crop });
    else if (result) readings.push({ ...result, crop });
    return null;
  };
  /** A passing reading, unless independent crops agree on failing lines of its layout (passContested): then what was read, settled. */
  const unlessContested = (result: MrzReading & { found: true }): MrzReading & { found: true } => {
    if (!passContested(result.format, readings)) return result;
    const settled = settle(readings, partials);
    if (!settled.found) return result;
    return settled.valid ? settled : { ...settled, contested: true };
  };
  /**
   * A fixed band's passing reading whose birth date another fixed band read one digit otherwise,
   * and none as it is (birthDateContradicted), waits for the located zones (`held`): it answers
   * once they are read unless a zone, an independent witness, read the birth date otherwise too;
   * then the read goes on without it. The fixed bands are one witness, nested crops of the same
   * pixels, so which of their two readings is the misread only the check digit could say, and on a
   * document whose check digit was altered it says the wrong thing (issue 20's harder set,
   * held-out seed 174 `0066`: an altered TD1 card whose bottom 60 % read its birth date as
   * printed, failing, and whose whole page read one digit otherwise, passing the altered check
   * digit and the composite; verified at once. Its zone reads it as printed; decision 0103).
   */
  // Typed by assertion, not annotation: only closures (keep) assign it, and an annotated `null`
  // would narrow it to null for the code below them.
  let held = null as (MrzReading & { found: true }) | null;
  /**
   * A passing reading of a page whose MRZ glyphs are small (SMALL_GLYPH_PITCH): the fixed bands,
   * one witness, may agree on a misread that still passes. Two digits misread in one field can
   * make up for each other in its check digit: held-out seed 189 `0032` of the harder set, a
   * genuine TD2 card at low resolution born `720223`, whose three bands read `770723`, two 2s read
   * as 7s at weights 3 and 7, which passes its check digit and the composite; every zone read
   * it as printed, and passed too. Such a reading is held for the zones (decision 0105): a zone
   * that passes on another birth date makes it a misread to read again (`disputedBy`).
   */
  const smallGlyphs = (result: MrzReading & { found: true }) => image.width < SMALL_GLYPH_PITCH * LINE_LENGTH[result.format];
  const byZones = (crop: string) => !UPRIGHT_BANDS.has(crop);
  /** A fixed band's passing reading needs no zone unless the glyphs are small; then a zone must have read its birth date alike. */
  const zonesWitnessed = (result: MrzReading & { found: true }) =>
    !smallGlyphs(result) || (result.birthDate !== null && birthDateWitnessed(result.format, readings, result.birthDate, byZones));
  /**
   * When a small page's reading is held and `reading` passes on another birth date: two witnesses
   * whose readings both pass, which of the two is the misread no check digit can tell. A misread to
   * read again, then (`contested`), with the birth date as the field in dispute; null otherwise.
   */
  const disputedBy = (reading: MrzReading): (MrzReading & { found: true }) | null => {
    if (!held || !smallGlyphs(held) || !reading.found || !reading.valid || reading.birthDate === held.birthDate) return null;
    return { ...held, valid: false, invalidFields: ['birthDate'], contested: true };
  };
  const bandContradicted = (result: MrzReading & { found: true }, by = (crop: string) => UPRIGHT_BANDS.has(crop)) =>
    result.birthDate !== null &&
    birthDateContradicted(
      result.format,
      readings.filter((reading) => by(reading.crop)),
      result.birthDate,
    );
  const partials: (Reading & { crop: string })[] = [];
  const conclude = (): MrzReading => {
    const concluded = concludeReadings(readings, dataLine, partials);
    return disputedBy(concluded) ?? concluded;
  };
  let answer: (MrzReading & { found: true }) | null = null;
  /** Keeps a result; true when it is the answer. */
  const answers = (crop: string, result: Result): boolean => {
    answer = keep(crop, result);
    return answer !== null;
  };
  /**
   * Reads the crops as many at once as the OCR has threads and keeps each result in the order
   * given (mrz-ocr.ts inOrder); the first passing reading in that order is `answer`. None starts
   * once the budget is spent, but for the fixed bands (`always`).
   */
  const readCrops = (crops: readonly CropRead[], always = false) =>
    inOrder(
      ocr,
      crops.map((crop) => crop.read),
      (result, k) => answers(crops[k]!.crop, result),
      always ? undefined : () => !spent(),
    );
  const passes = (enlargedPage ? PASSES.slice(0, 2) : PASSES).map((pass) => ({ crop: fixedBandCrop(pass[0]), read: () => readPass(ocr, image, pass) }));
  // A clean page is read by the first band: read alone, it leaves the other core to the face match
  // that runs beside it.
  const always = !enlargedPage;
  if ((await readCrops(passes.slice(0, 1), always)) === 'taken' || (await readCrops(passes.slice(1), always)) === 'taken') return answer!;
  // The enlarged reading is for a small page whose bands showed MRZ-like lines, as read here.
  const bandsShowLines = readings.length > 0;
  if (spent()) return held && !smallGlyphs(held) ? unlessContested(held) : conclude();
  // No fixed band read a valid zone: look for the zone itself, levelled and enlarged (mrz-band.ts).
  // A zone levelled two ways is one crop: its two readings are not independent witnesses.
  const bands = await locateMrzBands(image);
  const zones = bands.flatMap((band, i) => [
    { i, crop: `zone ${i}`, png: band.png },
    ...(band.relevelled ? [{ i, crop: `zone ${i}`, png: band.relevelled }] : []),
  ]);
  /** What each zone's first levelling reads: its lines may be read with other zones' or carried on. */
  const firstTexts: string[] = [];
  /** What each zone's levellings read, both of them: which zones the flattened reads take first (readFlattened). */
  const levelledTexts: string[] = [];
  const zonesRead = await inOrder(
    ocr,
    zones.map((zone) => () => ocrText(ocr, zone.png, PSM.SINGLE_BLOCK)),
    (text, k) => {
      firstTexts[zones[k]!.i] ??= text;
      levelledTexts[zones[k]!.i] = `${levelledTexts[zones[k]!.i] ?? ''}${text}`;
      return answers(zones[k]!.crop, readText(text));
    },
    () => !spent(),
  );
  if (zonesRead === 'taken') return answer!;
  // The zones read, a band's reading held answers unless a zone, too, read its birth date otherwise.
  // A small page's, only when a zone read its birth date alike: else the read goes on without it.
  if (held && !bandContradicted(held, byZones) && zonesWitnessed(held)) return unlessContested(held);
  if (zonesRead === 'stopped') return conclude();
  const zoneLines = firstTexts.map(mrzLineCandidates);
  // Zones of one line each, one above the other: the lines of an MRZ spaced too widely for the
  // closing to join them, read together (mrz-band.ts stackedZones).
  const single = bands.flatMap((band, i) => (zoneLines[i]!.length === 1 ? [{ i, box: band.box }] : []));
  for (const group of stackedZones(single.map((zone) => zone.box))) {
    const indices = group.map((k) => single[k]!.i);
    const text = indices.map((i) => zoneLines[i]![0]).join('\n');
    const valid = keep(`zones ${indices.join('+')}`, readText(text));
    if (valid) return valid;
  }
  // No zone found upright held MRZ lines: the zone may run up or down the page. Only a reading
  // whose check digits all pass answers from there; a failing one joins no consensus, since the
  // crop turned the wrong way round reads as noise.
  if (zoneLines.every((lines) => lines.length === 0)) {
    const across = await zonesAcrossPage(image);
    const acrossRead = await inOrder(
      ocr,
      across.map((png) => () => ocrText(ocr, png, PSM.SINGLE_BLOCK)),
      (text) => {
        const result = readText(text);
        if (result && 'found' in result) answer = result;
        return answer !== null;
      },
      () => !spent(),
    );
    if (acrossRead === 'taken') return answer!;
    if (acrossRead === 'stopped') return conclude();
  }
  /** A crop's PNG built once, by the first read that needs it. */
  const png = builtOnce<string, Buffer>();
  const late: CropRead[] = [];
  // A zone the closing joined to print beside it (a receipt on the table, level with the MRZ): read
  // as one block, each row of the MRZ runs on into the receipt's and no line comes out whole. Read
  // with tesseract's own layout analysis, which finds the columns, the MRZ's lines come out alone
  // (issue 20's harder set, `combined` pages; decision 0100). One crop with the zone.
  for (const [i, band] of bands.entries()) late.push({ crop: `zone ${i}`, read: () => readPng(ocr, band.png, PSM.AUTO) });
  // The whole band enlarged is the one step that takes up to 8 s by itself: it starts only while
  // half the budget is left.
  if (bandsShowLines && image.width < SMALL_PAGE_WIDTH) {
    const scale = Math.min(3, ENLARGED_WIDTH / image.width);
    late.push({
      crop: 'band enlarged',
      read: async () => (inFirstHalf(started, budgetMs) ? readPass(ocr, image, PASSES[1], scale) : null),
    });
  }
  // A zone that read only part of each line, and no whole zone (mrz-recovery.ts cutLineLength):
  // carried on to either side by what a passport's line would still need (mrz-band.ts
  // extendedBand), read as EXTENDED_READS says. One crop with the zone: the same lines seen wider
  // are not another witness.
  for (const [i, band] of bands.entries()) {
    const chars = cutLineLength(firstTexts[i]!);
    if (chars === 0) continue;
    const extra = (band.box.width / chars) * (LINE_LENGTH.TD3 - chars);
    for (const side of ['right', 'left'] as const) {
      for (const [equalisation, binarisation] of EXTENDED_READS) {
        late.push({
          crop: `zone ${i}`,
          read: async () => {
            const extended = await png(`extended ${i} ${side} ${equalisation}`, () => extendedBand(image, band, side, extra, equalisation));
            return readText(longestRuns(await ocrText(ocr, extended, PSM.SINGLE_BLOCK, binarisation)));
          },
        });
      }
    }
  }
  // A zone that read one MRZ line and nothing else: the zone's other lines may be under glare, which
  // hid them from the search (mrz-band.ts stackedBand). One crop with the zone.
  for (const [i, band] of bands.entries()) {
    if (zoneLines[i]!.length !== 1) continue;
    for (const equalisation of ['gentle', 'strong'] as const) {
      late.push({ crop: `zone ${i}`, read: async () => readPng(ocr, await stackedBand(image, band, equalisation), PSM.SINGLE_BLOCK) });
    }
  }
  // The wide band and the zones once more, thresholded per neighbourhood: a shadow edge across the
  // zone defeats one threshold for the whole band (issue 20's harder set).
  late.push({ crop: fixedBandCrop(PASSES[1][0]), read: async () => readPng(ocr, await bandPng(image, PASSES[1][0]), PSM.SINGLE_BLOCK, 'local') });
  for (const { crop, png: zonePng } of zones) late.push({ crop, read: () => readPng(ocr, zonePng, PSM.SINGLE_BLOCK, 'local') });
  const lateRead = await readCrops(late);
  if (lateRead === 'taken') return answer!;
  if (lateRead === 'stopped') return conclude();
  // Last, each zone's own crop equalised (ZONE_REREADS): a faint zone beside a dark table or under
  // glare, which neither threshold reads as it is. One crop with the zone. The zones whose first
  // reading held the most fillers first. Every step before runs as it did before this one existed,
  // the turns and the settling of their readings included, so a page they read pays nothing for it.
  const rereadZones = async (): Promise<MrzReading> => {
    // What the readings before it settle on comes first: more readings can change a consensus. A
    // card's first two lines read by two crops or more may settle too (settledHeads); with nothing
    // read, nothing is found.
    const settled = conclude();
    if (settled.found && settled.valid) return settled;
    const rereads = byFillers(firstTexts).flatMap((i) =>
      ZONE_REREADS.map(([equalisation, binarisation]) => ({
        crop: `zone ${i}`,
        read: async () =>
          readPng(ocr, await png(`equalised ${i} ${equalisation}`, () => equalisedZone(bands[i]!, equalisation)), PSM.SINGLE_BLOCK, binarisation),
      })),
    );
    if ((await readCrops(rereads)) === 'taken') return answer!;
    const settledAtLast = conclude();
    if (settledAtLast.found && settledAtLast.valid) return settledAtLast;
    const enlarged = await readEnlarged();
    if (!enlarged) return enlargedPage ? settledAtLast : readFlattened();
    // One crop's passing reading against what this read's crops agree on, like any other (keep).
    return enlarged.found && settledAtLast.found && passContested(enlarged.format, readings) ? { ...settledAtLast, contested: true } : enlarged;
  };
  /**
   * Last of all, each zone's crop flattened (mrz-band.ts flatField and thresholded: each pixel
   * over the paper around it, then a fixed threshold), and the zone carried on by FLAT_EXTENSION
   * of its width to either side, flattened too: glare across one end of the lines hides that end
   * from the search and leaves it too pale for any threshold of the crop as it is (issue 20's
   * harder set, decision 0104). Before those thresholds, each levelling of the zone, the one by
   * its lines' slant too, flattened and left grey for tesseract's own threshold: on a keystoned
   * page under glare the fixed thresholds break or thicken the strokes, and the first levelling
   * may leave the lines slanting across each other (decision 0106). One crop with the zone. The
   * zones whose levellings, either of them, read the most fillers first: these reads start late,
   * and the budget may end them. It runs after every other step, the enlarged page included, so
   * that it only adds: a page read before pays nothing for it. What was read is settled again,
   * these reads with it.
   */
  const readFlattened = async (): Promise<MrzReading> => {
    const order = byFillers(levelledTexts);
    // Each crop's flat field is built once, by the first read that needs it (grey, or at a threshold).
    const flatOf = builtOnce<Buffer, Buffer>();
    const flat = (levelling: Buffer) => flatOf(levelling, () => flatField(levelling));
    const greys = order.flatMap((i) =>
      zones
        .filter((zone) => zone.i === i)
        .map((zone) => ({ crop: zone.crop, read: async () => readText(await ocrText(ocr, await flat(zone.png), PSM.SINGLE_BLOCK)) })),
    );
    const thresholdedFlats = order.flatMap((i) => {
      const band = bands[i]!;
      const extra = band.box.width * FLAT_EXTENSION;
      const extendedFlat = (side: 'left' | 'right') =>
        png(`extended ${i} ${side} flat`, async () => flatField(await extendedBand(image, band, side, extra, 'gentle')));
      return FLAT_THRESHOLDS.flatMap((threshold) => [
        { crop: `zone ${i}`, read: async () => readText(await ocrText(ocr, await thresholded(await flat(band.png), threshold), PSM.SINGLE_BLOCK)) },
        ...(['right', 'left'] as const).map((side) => ({
          crop: `zone ${i}`,
          read: async () => readText(longestRuns(await ocrText(ocr, await thresholded(await extendedFlat(side), threshold), PSM.SINGLE_BLOCK))),
        })),
      ]);
    });
    const flats = [...greys, ...thresholdedFlats];
    // A passing reading whose birth date the other crops read one digit otherwise, and none as it
    // is, is dropped, as the enlarged page's is (readEnlarged): a flattened crop's glyphs are
    // thickened by the high threshold, and a misread that passes an altered check digit would answer
    // (development seed 21 `0099`, an altered visa: `010302` read flattened, `010502` as printed).
    const flatRead = await inOrder(
      ocr,
      flats.map((flat) => flat.read),
      (result, k) =>
        !(result && 'found' in result && result.birthDate !== null && birthDateContradicted(result.format, readings, result.birthDate)) &&
        answers(flats[k]!.crop, result),
      () => !spent(),
    );
    if (flatRead === 'taken') return answer!;
    return conclude();
  };
  /**
   * A small page enlarged twice (Lanczos) and read again, with what is left of the budget: some of
   * the harder set's `combined` pages that no step reads as they came are read so, by the enlarged
   * page's wide band or the zone found on it (decision 0083, stops 47 and 48). It runs after every
   * other step so that it only adds: a page read before pays nothing for it. Its readings join no
   * consensus with this read's (the same crops seen larger are no other witness), so only a
   * reading that passes answers, and not one whose birth date this read's crops contradict by a
   * digit (birthDateContradicted): the check digit alone would then decide between the two, and a
   * misread that passes would answer against what the page's own crops read (held-out seed 53 of
   * the harder set, decision 0086). Nor does it answer against failing lines that the page's own
   * crops agree on (passContested, decision 0087): the caller then reports a misread.
   */
  const readEnlarged = async (): Promise<MrzReading | null> => {
    // Its bands are twice the size of the page's, as long to read as the enlarged band above: it
    // starts only while half the budget is left.
    if (enlargedPage || image.width >= SMALL_PAGE_WIDTH || !inFirstHalf(started, budgetMs)) return null;
    const enlarged = await redecoded(decodedSharp(image).resize({ width: image.width * 2, kernel: 'lanczos3' }));
    const reading = await readMrz(ocr, enlarged, deadline - performance.now(), true);
    if (!reading.found || !reading.valid || !reading.birthDate) return null;
    return birthDateContradicted(reading.format, readings, reading.birthDate) ? null : (disputedBy(reading) ?? reading);
  };
  if (readings.length > 0 || dataLine) return rereadZones();
  // Nothing upright: the right-angle turns, probed with the wide band in order; the first that
  // shows MRZ lines is read with the other bands too.
  const turnedImage = builtOnce<Turn, DecodedImage>();
  const turned = (turn: Turn) => turnedImage(turn, () => turnImage(image, turn));
  const probes: Result[] = [];
  const probed = await inOrder(
    ocr,
    FALLBACK_TURNS.map((turn) => async () => readPass(ocr, await turned(turn), PASSES[1])),
    (probe) => {
      probes.push(probe);
      return probe !== null;
    },
    () => !spent(),
  );
  if (probed === 'stopped') return conclude();
  if (probed === 'taken') {
    const turn = FALLBACK_TURNS[probes.length - 1]!;
    const valid = keep(fixedBandCrop(PASSES[1][0], turn), probes.at(-1)!);
    if (valid) return valid;
    const turnedPasses = [PASSES[0], PASSES[2]].map((pass) => ({
      crop: fixedBandCrop(pass[0], turn),
      read: async () => readPass(ocr, await turned(turn), pass),
    }));
    if ((await readCrops(turnedPasses)) === 'taken') return answer!;
    return conclude();
  }
  return rereadZones();
}

/** Values built once per key, by the first caller that asks: the crops and turned images several reads share. */
function builtOnce<K, V>(): (key: K, build: () => Promise<V>) => Promise<V> {
  const built = new Map<K, Promise<V>>();
  return (key, build) => built.get(key) ?? built.set(key, build()).get(key)!;
}

/** Doc 9303: the document codes a passport's (TD3) and a TD2 card's first line starts with. */
const FIRST_LINE_CODES: Partial<Record<MrzFormat, string>> = { TD3: 'P', TD2: 'ACI' };

/**
 * What readMrz answers when no reading passed on its own: the failing readings settled, or a second
 * line read alone (readDataLine). A zone whose first line was read and failed is never answered by
 * its second line alone: that first line may be what makes the document invalid (a state that does
 * not exist; decision 0069). A failing reading is that zone when its lines have the data line's
 * length and its first line starts with a document code of the data line's layout; others are text
 * around the zone read as MRZ lines (issue 20's harder set: a passport's second line read whole
 * under glare, print on the table read as a card's three lines and as two lines of 44; decision 0074).
 */
export function concludeReadings(
  readings: readonly (Reading & { crop?: string })[],
  dataLine: (MrzReading & { found: true }) | null,
  partials: readonly Reading[] = [],
): MrzReading {
  const sameZone = (reading: Reading) =>
    dataLine !== null &&
    LINE_LENGTH[reading.format] === LINE_LENGTH[dataLine.format] &&
    (FIRST_LINE_CODES[dataLine.format] ?? '').includes(reading.lines[0]?.charAt(0) || '-');
  if (dataLine && !readings.some(sameZone)) return dataLine;
  if (readings.length === 0) return settledHeads(partials);
  return settle(readings, partials);
}

/**
 * No crop read a whole zone, but several read a TD1 card's first two lines (readCardHead), each
 * failing somewhere: their lines combined as any readings are (settle), under every check digit and
 * the witness rules, with fillers for the name line, which no check digit covers. Only a
 * combination that passes answers; otherwise nothing was found.
 */
function settledHeads(partials: readonly (Reading & { crop?: string })[]): MrzReading {
  const heads = partials.filter((partial) => partial.format === 'TD1' && partial.lines.length === 2);
  if (heads.length < 2) return { found: false };
  const settled = settle(heads.map((head) => ({ ...head, lines: [...head.lines, '<'.repeat(LINE_LENGTH.TD1)] })));
  return settled.found && settled.valid ? settled : { found: false };
}

/**
 * No single reading passed: combine them per field, then line by line (mrz-consensus.ts; the lines
 * of partial readings join in there only), else report the failing reading most crops agree on. A
 * reading without a crop stands for a crop of its own. Readings taken for different layouts are
 * combined layout by layout: text around the zone may look like the lines of another
 * layout (a card's front and back on one page). When none passes, the layout reported is the one
 * whose readings pass the most check digits, the first on a tie, marked `contested` when a
 * combination passed on a contested birth date (birthDateContested).
 */
export function settle(
  readings: readonly { format: MrzFormat; lines: MrzLines; crop?: string; codeUnread?: true }[],
  partials: readonly Reading[] = [],
): MrzReading {
  if (readings.length === 0) return { found: false };
  const keyed = readings.map((reading, i) => ({ ...reading, crop: reading.crop ?? `reading ${i}` }));
  const formats = [...new Set(keyed.map((reading) => reading.format))];
  const byFormat = formats.map((format) => ({ format, same: keyed.filter((reading) => reading.format === format) }));
  /** A combination passed on a birth date that witnesses read otherwise by one digit (birthDateContested). */
  let contested = false;
  for (const { format, same } of byFormat) {
    const combined = combineReadings(
      format,
      same.map((reading) => reading.lines),
    );
    const donors = partials.filter((partial) => partial.format === format).map((partial) => partial.lines);
    // A combination whose birth date more crops read otherwise is no answer (birthDateOutvoted),
    // nor one whose birth date as many witnesses read otherwise by one digit (birthDateContested,
    // decision 0089: the result is then a misread, `contested`), nor one that passes with its code
    // unread on a birth date fewer than two crops read (decision 0079): a crop that misread the
    // code may have misread the date too, so that it passes. A visa, which has no composite, needs
    // its birth date read by a crop that read its V, or by two witnesses (visaBirthDateWitnessed,
    // decision 0102), whether the combination took its V from another crop or left it unread.
    for (const lines of [...(combined ? [combined] : []), ...lineCombinations(format, [...same.map((reading) => reading.lines), ...donors])]) {
      if (birthDateOutvoted(format, same, lines)) continue;
      if (NO_COMPOSITE.has(format) && !visaBirthDateWitnessed(format, same, lines)) continue;
      const reading = interpret(format, lines, 1);
      if (reading.valid) {
        if (!birthDateContested(format, same, lines)) return reading;
        contested = true;
        continue;
      }
      const unread = codeUnread(reading, lines);
      if (unread && birthDateSupport(format, same, lines) >= MRZ_CROPS_FOR_UNREAD_CODE) return unread;
    }
  }
  const checks = ({ format, same }: (typeof byFormat)[number]) => Math.max(...same.map((reading) => passingChecks(format, reading.lines)));
  const { format, same } = byFormat.reduce((a, b) => (checks(b) > checks(a) ? b : a));
  const best = same.reduce((a, b) => (agreeingReadings(same, b.lines) > agreeingReadings(same, a.lines) ? b : a)).lines;
  const settled = interpret(format, best, agreeingReadings(same, best));
  return contested ? { ...settled, contested: true } : settled;
}
