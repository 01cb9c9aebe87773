/**
 * CSV downloads of the dashboard (the sessions export, the audit trail export): RFC 4180 with CRLF
 * line ends, and every cell safe to open in a spreadsheet.
 */
import { stringify } from 'csv-stringify/sync';

/**
 * A spreadsheet opens a cell that starts with = + - @ (or a tab or carriage return) as a formula;
 * values such as externalUserId or a key's label are other people's input, so such a value is
 * written with a leading ' (OWASP, "CSV injection").
 */
export function csvCell(value: string | number | boolean | null): string {
  if (value === null) return '';
  const text = String(value);
  return /^[=+\-@\t\r]/.test(text) ? `'${text}` : text;
}

/** The header row, then one row per record, every cell through csvCell. */
export function csvDocument(columns: readonly string[], rows: ReadonlyArray<ReadonlyArray<string | number | boolean | null>>): string {
  return stringify([[...columns], ...rows.map((row) => row.map(csvCell))], { record_delimiter: 'windows' });
}
