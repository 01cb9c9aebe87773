/**
 * The century of the holder's birth, as the document itself states it (issue 20 Deliver 4): the MRZ
 * prints the birth year in two digits, but several states print in the optional data a national
 * personal number whose digits also encode the century. Each rule below is that state's own
 * numbering law; it answers only when the number's date part is the MRZ's birth date, so a number
 * of another kind in the field (a document number, a tax code) is never taken for one. The MRZ's
 * check digits cover the optional data (its own check digit on a passport, the composite on a
 * card), so a reading that passed them has read the number right. Only the century leaves this
 * module: the personal number itself is never reported (images and their data stay in memory).
 *
 * The decision takes the century only where it is consistent with the other dates (document-decision.ts
 * mrzBirthDate): a birth date is still never in the future, nor on or after the expiry.
 */
import type { MrzFormat } from './mrz-recovery';

/** A birth date as the MRZ prints it, split. */
interface Yymmdd {
  yy: string;
  mm: string;
  dd: string;
}

/** A national rule: the century of the number in `field` whose date part is `birth`, or null. */
type Rule = (field: string, birth: Yymmdd) => number | null;

/**
 * A code that opens with one digit for sex and century, then YYMMDD and `tail` more digits: the
 * century of the number in `field` whose date part is the birth date, by `centuries`.
 */
function leadingDigitCode(centuries: Readonly<Record<string, number>>, tail: number): Rule {
  return (field, { yy, mm, dd }) => {
    const match = new RegExp(`(?:^|\\D)([1-6])${yy}${mm}${dd}\\d{${tail}}(?!\\d)`).exec(field);
    return match ? centuries[match[1]!]! : null;
  };
}

/** Estonia's isikukood and Lithuania's asmens kodas: G YYMMDD SSS C; G 1, 2: 1800s; 3, 4: 1900s; 5, 6: 2000s. */
const balticCode = leadingDigitCode({ '1': 1800, '2': 1800, '3': 1900, '4': 1900, '5': 2000, '6': 2000 }, 4);

/** Romania's CNP: S YYMMDD JJ NNN C; S 1, 2: 1900s; 3, 4: 1800s; 5, 6: 2000s (7–9 are residents and foreigners, no century). */
const romanianCode = leadingDigitCode({ '1': 1900, '2': 1900, '3': 1800, '4': 1800, '5': 2000, '6': 2000 }, 6);

/**
 * The Czech and Slovak birth number (rodné číslo): YYMMDD and three digits for people born before
 * 1954, four from 1954 on. A woman's month has 50 added, and from 2004 either may have 20 more.
 */
const birthNumber: Rule = (field, { yy, mm, dd }) => {
  const month = Number(mm);
  const months = [month, month + 50, month + 20, month + 70].map((m) => String(m).padStart(2, '0')).join('|');
  const match = new RegExp(`(?:^|\\D)${yy}(?:${months})${dd}(\\d{3,4})(?!\\d)`).exec(field);
  if (!match) return null;
  const year = Number(yy);
  if (match[1]!.length === 3) return year < 54 ? 1900 : null;
  return year >= 54 ? 1900 : 2000;
};

const ICELANDIC_CENTURY: Record<string, number> = { '8': 1800, '9': 1900, '0': 2000 };

/** Iceland's kennitala: DDMMYY, two digits, a check digit and the century (8: 1800s, 9: 1900s, 0: 2000s). */
const kennitala: Rule = (field, { yy, mm, dd }) => {
  const match = new RegExp(`(?:^|\\D)${dd}${mm}${yy}<?\\d{3}([890])(?!\\d)`).exec(field);
  return match ? ICELANDIC_CENTURY[match[1]!]! : null;
};

const LATVIAN_CENTURY: Record<string, number> = { '0': 1800, '1': 1900, '2': 2000 };

/** Latvia's personas kods of before 2017: DDMMYY, the century (0: 1800s, 1: 1900s, 2: 2000s) and four digits. */
const latvianCode: Rule = (field, { yy, mm, dd }) => {
  const match = new RegExp(`(?:^|\\D)${dd}${mm}${yy}<?([012])\\d{4}(?!\\d)`).exec(field);
  return match ? LATVIAN_CENTURY[match[1]!]! : null;
};

/** Bulgaria's EGN: YY, the month (plus 20 for the 1800s, plus 40 for the 2000s), DD and four digits. */
const bulgarianCode: Rule = (field, { yy, mm, dd }) => {
  const month = Number(mm);
  for (const [offset, century] of [
    [0, 1900],
    [20, 1800],
    [40, 2000],
  ] as const) {
    const pattern = new RegExp(`(?:^|\\D)${yy}${String(month + offset).padStart(2, '0')}${dd}\\d{4}(?!\\d)`);
    if (pattern.test(field)) return century;
  }
  return null;
};

/** The rule of each issuing state whose personal number in the MRZ states the birth century. */
const RULES: Readonly<Record<string, Rule>> = {
  BGR: bulgarianCode,
  CZE: birthNumber,
  EST: balticCode,
  ISL: kennitala,
  LTU: balticCode,
  LVA: latvianCode,
  ROU: romanianCode,
  SVK: birthNumber,
};

/** Where each layout prints its optional data (0-based line, start, end; Doc 9303 parts 4–6). */
const OPTIONAL_DATA: Partial<Record<MrzFormat, readonly (readonly [number, number, number])[]>> = {
  TD1: [
    [0, 15, 30],
    [1, 18, 29],
  ],
  TD2: [[1, 28, 35]],
  TD3: [[1, 28, 42]],
};

/** Where each layout prints the issuing state. */
const ISSUING_STATE: readonly [number, number, number] = [0, 2, 5];

/**
 * The birth century (1800, 1900 or 2000) that the national personal number in the optional data of
 * `lines` states for the birth date `birthYymmdd`, or null when the issuing state has no such rule
 * or no such number is printed.
 */
export function statedBirthCentury(format: MrzFormat, lines: readonly string[], birthYymmdd: string | null): number | null {
  const fields = OPTIONAL_DATA[format];
  if (!fields || !birthYymmdd || !/^\d{6}$/.test(birthYymmdd)) return null;
  const [line, start, end] = ISSUING_STATE;
  const rule = RULES[lines[line]?.slice(start, end) ?? ''];
  if (!rule) return null;
  const birth = { yy: birthYymmdd.slice(0, 2), mm: birthYymmdd.slice(2, 4), dd: birthYymmdd.slice(4, 6) };
  for (const [index, from, to] of fields) {
    const century = rule(lines[index]?.slice(from, to) ?? '', birth);
    if (century !== null) return century;
  }
  return null;
}
