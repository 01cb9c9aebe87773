/**
 * The rows of a labels CSV by column name: the evaluation sets' `labels.csv` (`bun run accuracy`),
 * the real specimen sets and the real turn sequences. Plain comma-separated values with a header,
 * no quoting: none of these files needs it, and a quoted comma fails the column check of the caller
 * rather than shifting a label silently.
 */
import { readFileSync } from 'node:fs';

export function readLabelsCsv(path: string, required: readonly string[] = []): Record<string, string>[] {
  const [header = '', ...lines] = readFileSync(path, 'utf8').trim().split(/\r?\n/);
  const names = header.split(',').map((n) => n.trim());
  for (const needed of required) if (!names.includes(needed)) throw new Error(`${path}: expected a column "${needed}" in the header, got "${header}"`);
  return lines.filter(Boolean).map((line) => Object.fromEntries(line.split(',').map((v, i) => [names[i]!, v.trim()])));
}
