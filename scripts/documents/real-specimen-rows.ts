/**
 * The rows of a real specimen set's CSV (real-specimens.csv, real-specimens-second.csv beside this
 * file), by column name: what real-specimens.ts builds a set from and its test checks the labels of.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';

export const FIRST_SET = 'real-specimens.csv';
export const SECOND_SET = 'real-specimens-second.csv';

export function specimenRows(csv: typeof FIRST_SET | typeof SECOND_SET): Record<string, string>[] {
  const [header, ...lines] = readFileSync(join(import.meta.dir, csv), 'utf8')
    .trim()
    .split('\n');
  const names = header!.split(',');
  return lines.map((line) => Object.fromEntries(line.split(',').map((value, i) => [names[i]!, value])));
}
