/**
 * The rows of a real specimen set's CSV (real-specimens.csv, real-specimens-second.csv beside this
 * file), by column name: what real-specimens.ts builds a set from and its test checks the labels of.
 */
import { join } from 'node:path';
import { readLabelsCsv } from '../../backend/src/cli/labels-csv';

export const FIRST_SET = 'real-specimens.csv';
export const SECOND_SET = 'real-specimens-second.csv';

export function specimenRows(csv: typeof FIRST_SET | typeof SECOND_SET): Record<string, string>[] {
  return readLabelsCsv(join(import.meta.dir, csv), ['file', 'source_repo', 'source_commit', 'source_path', 'genuine', 'mrz']);
}
