/**
 * Validates repaired MRZ lines (mrz-recovery.ts) field by field. The `mrz` package validates every
 * layout it knows: TD1, TD2, TD3 and the French national identity card (its check digits, dates, sex,
 * state codes and document codes). It does not know the visas of Doc 9303 part 7 (MRV-A, MRV-B): it
 * refuses their document code V, so they are validated here with the same rules (the check digits of
 * Doc 9303 part 3 §4.9, the `mrz` package's list of state codes) over the fields a visa has. A visa
 * has no composite check digit: the document number, birth date and expiry date each have their own.
 */
import { parse } from 'mrz';
import { statedBirthCentury } from './birth-century';
import { checkDigit, knownState, LAYOUTS, type MrzFormat, unreadDigits } from './mrz-recovery';

export interface MrzValidation {
  /** Every check digit and code passed. */
  valid: boolean;
  invalidFields: string[];
  /** YYMMDD as printed. */
  birthDate: string | null;
  /** YYMMDD as printed; null on the French card, which prints no expiry in its MRZ (decision 0051). */
  expirationDate: string | null;
  /** YYMM, the French card's issue date (its validity runs from it); null for every other layout. */
  issueDate: string | null;
  documentCode: string | null;
  /**
   * The birth century a national personal number in the optional data states (birth-century.ts),
   * when every check digit passed; null otherwise. Only the century: never the number itself.
   */
  birthCentury: number | null;
  /**
   * Fields read with a filler where Doc 9303 prints a digit (mrz-recovery.ts unreadDigits): a misread
   * to read again, never a forgery verdict. Absent when there are none.
   */
  unreadDigits?: string[];
}

/** The `mrz` package's name for each layout it parses. */
const PACKAGE_FORMAT: Partial<Record<MrzFormat, string>> = { TD1: 'TD1', TD2: 'TD2', TD3: 'TD3', FRENCH_ID: 'FRENCH_NATIONAL_ID' };

const UNPARSEABLE: MrzValidation = {
  valid: false,
  invalidFields: ['format'],
  birthDate: null,
  expirationDate: null,
  issueDate: null,
  documentCode: null,
  birthCentury: null,
};

export function validateMrz(format: MrzFormat, lines: readonly string[]): MrzValidation {
  const validation = format === 'MRVA' || format === 'MRVB' ? validateVisa(format, lines) : validateZone(format, lines);
  const unread = unreadDigits(format, lines);
  if (unread.length === 0) return validation;
  // A date read with a filler fails as a date: the package may still report it, or take its check
  // digit for passing (it counts the filler as 0).
  const failing = unread.filter((name) => !name.endsWith('CheckDigit'));
  return {
    ...validation,
    valid: false,
    invalidFields: [...new Set([...validation.invalidFields, ...failing])],
    birthDate: failing.includes('birthDate') ? null : validation.birthDate,
    expirationDate: failing.includes('expirationDate') ? null : validation.expirationDate,
    birthCentury: null,
    unreadDigits: unread,
  };
}

function validateZone(format: Exclude<MrzFormat, 'MRVA' | 'MRVB'>, lines: readonly string[]): MrzValidation {
  try {
    const result = parse([...lines], { autocorrect: false });
    // The package picks the layout from the text itself; one that differs from the layout the lines
    // were repaired for is not the document we read.
    if (result.format !== PACKAGE_FORMAT[format]) return UNPARSEABLE;
    return {
      valid: result.valid,
      invalidFields: result.details.filter((d) => !d.valid).map((d) => d.field ?? d.label),
      birthDate: result.fields.birthDate ?? null,
      expirationDate: result.fields.expirationDate ?? null,
      issueDate: format === 'FRENCH_ID' ? (result.fields.issueDate ?? null) : null,
      documentCode: result.fields.documentCode ?? null,
      birthCentury: result.valid ? statedBirthCentury(format, lines, result.fields.birthDate ?? null) : null,
    };
  } catch {
    return UNPARSEABLE;
  }
}

/** A YYMMDD that exists on some calendar (month 1–12, day 1–31, as the `mrz` package checks dates). */
function plausibleDate(text: string): boolean {
  if (!/^\d{6}$/.test(text)) return false;
  const month = Number(text.slice(2, 4));
  const day = Number(text.slice(4, 6));
  return month >= 1 && month <= 12 && day >= 1 && day <= 31;
}

/** Doc 9303 part 7 (MRV-A, MRV-B): see the file comment. */
function validateVisa(format: 'MRVA' | 'MRVB', lines: readonly string[]): MrzValidation {
  const [first, second] = lines;
  const length = format === 'MRVA' ? 44 : 36;
  if (lines.length !== 2 || first?.length !== length || second?.length !== length) return UNPARSEABLE;
  const invalid: string[] = [];
  const code = first.slice(0, 2);
  // The first character is V; the second is the issuing state's choice of visa type, or a filler.
  if (!/^V[A-Z<]$/.test(code)) invalid.push('documentCode');
  if (!knownState(first.slice(2, 5))) invalid.push('issuingState');
  if (!knownState(second.slice(10, 13))) invalid.push('nationality');
  const names: Record<number, string> = { 9: 'documentNumberCheckDigit', 19: 'birthDateCheckDigit', 27: 'expirationDateCheckDigit' };
  for (const field of LAYOUTS[format]) {
    if (field.check === undefined) continue;
    const digit = second[field.check]!;
    if (!/^\d$/.test(digit) || checkDigit(second.slice(field.start, field.end)) !== Number(digit)) invalid.push(names[field.check]!);
  }
  const birth = second.slice(13, 19);
  const expiry = second.slice(21, 27);
  if (!plausibleDate(birth)) invalid.push('birthDate');
  if (!plausibleDate(expiry)) invalid.push('expirationDate');
  if (!/^[MF<]$/.test(second[20]!)) invalid.push('sex');
  const valid = invalid.length === 0;
  return {
    valid,
    invalidFields: invalid,
    // As the `mrz` package does, a field that is not well formed is not reported (its check digit is a field of its own).
    birthDate: invalid.includes('birthDate') ? null : birth,
    expirationDate: invalid.includes('expirationDate') ? null : expiry,
    issueDate: null,
    documentCode: invalid.includes('documentCode') ? null : code.replace(/<$/, ''),
    // A visa has no optional data of the holder's own state.
    birthCentury: null,
  };
}
