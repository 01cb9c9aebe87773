import { afterAll, expect, test } from 'bun:test';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { readLabelsCsv } from './labels-csv';

const dir = mkdtempSync(join(tmpdir(), 'labels-csv-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
const write = (name: string, text: string) => {
  writeFileSync(join(dir, name), text);
  return join(dir, name);
};

test('rows come back by column name, trimmed, blank and CRLF lines tolerated', () => {
  const path = write('a.csv', 'file, genuine ,mrz\r\n001.jpg,true, P<UTO \r\n\r\n002.png,false,\r\n');
  expect(readLabelsCsv(path, ['file', 'genuine'])).toEqual([
    { file: '001.jpg', genuine: 'true', mrz: 'P<UTO' },
    { file: '002.png', genuine: 'false', mrz: '' },
  ]);
});

test('a missing column is named in the error, so a renamed header never reads as empty labels', () => {
  const path = write('b.csv', 'file,birth\n001.jpg,1990-01-01\n');
  expect(() => readLabelsCsv(path, ['file', 'birth_date'])).toThrow(`${path}: expected a column "birth_date" in the header, got "file,birth"`);
});
