import { describe, expect, test } from 'bun:test';
import type { MrzFormat } from '../../backend/src/modules/engine/documents/mrz-recovery';
import { validateMrz } from '../../backend/src/modules/engine/documents/mrz-validation';
import { FIRST_SET, SECOND_SET, specimenRows } from './real-specimen-rows';

/**
 * The labels of both real specimen sets (real-specimens.ts) were transcribed by eye. A genuine
 * row is one the engine must read right, so its MRZ must pass every check digit and print the
 * birth date the row names; otherwise a typo in a label would count as the engine's misread.
 */
const FORMATS: Record<string, MrzFormat> = { TD1: 'TD1', TD2: 'TD2', TD3: 'TD3', 'MRV-A': 'MRVA', 'MRV-B': 'MRVB', FRENCH_ID: 'FRENCH_ID' };

for (const csv of [FIRST_SET, SECOND_SET] as const) {
  describe(`${csv}: genuine labels`, () => {
    const rows = specimenRows(csv);
    const genuine = rows.filter((row) => row.genuine === 'true');
    test('holds genuine documents, each named once', () => {
      expect(genuine.length).toBeGreaterThan(0);
      const files = rows.map((row) => row.file);
      expect(new Set(files).size).toBe(files.length);
    });
    for (const row of genuine) {
      test(`${row.file}: every check digit passes and the MRZ prints the labelled birth date`, () => {
        const format = FORMATS[row.layout!];
        expect(format).toBeDefined();
        const reading = validateMrz(format!, row.mrz!.split('/'));
        expect(reading.invalidFields).toEqual([]);
        expect(reading.valid).toBe(true);
        expect(reading.birthDate).toBe(row.birth_date!.slice(2).replaceAll('-', ''));
      });
    }
  });
}
