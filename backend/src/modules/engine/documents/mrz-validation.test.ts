import { describe, expect, test } from 'bun:test';
import { mrzLines, randomIdentity, seededRandom, type SyntheticFormat } from '../../../../../scripts/documents/synthetic-documents';
import { findMrzLines, recoverMrz, type MrzFormat } from './mrz-recovery';
import { validateMrz } from './mrz-validation';

// Doc 9303 specimens (part 6 TD2, part 7 MRV-A and MRV-B) with a real state code in place of UTO,
// which the `mrz` package refuses (state codes are outside every check digit), and the French card's
// specimen as the `mrz` package's own tests use it. Every check digit in them is the specimen's own.
const SPECIMENS: Record<Exclude<MrzFormat, 'TD1' | 'TD3'>, string[]> = {
  TD2: ['I<NLDERIKSSON<<ANNA<MARIA<<<<<<<<<<<', 'D231458907NLD7408122F1204159<<<<<<<6'],
  MRVA: ['VNNLDERIKSSON<<ANNA<MARIA<<<<<<<<<<<<<<<<<<<', 'L8988901C4XXX4009078F96121096ZE184226B<<<<<<'],
  MRVB: ['VNNLDERIKSSON<<ANNA<MARIA<<<<<<<<<<<', 'L8988901C4XXX4009078F9612109<<<<<<<<'],
  FRENCH_ID: ['IDFRADOUEL<<<<<<<<<<<<<<<<<<<<932013', '0506932020438CHRISTIANE<<NI2906209F3'],
};
const replaceAt = (text: string, index: number, char: string) => text.slice(0, index) + char + text.slice(index + 1);
const generated = (format: SyntheticFormat, seed: number) => mrzLines(randomIdentity(seededRandom(seed), format, new Date('2026-11-25T00:00:00Z')));

/** Position of the birth date's first digit and of its check digit, per layout. */
const BIRTH: Record<keyof typeof SPECIMENS, [number, number]> = { TD2: [13, 19], MRVA: [13, 19], MRVB: [13, 19], FRENCH_ID: [27, 33] };

describe.each(Object.entries(SPECIMENS) as [keyof typeof SPECIMENS, string[]][])('%s', (format, specimen) => {
  const cases: [string, string[]][] = [
    ['specimen', specimen],
    ...(format === 'FRENCH_ID' ? [] : [1, 2, 3].map((seed): [string, string[]] => [`generated #${seed}`, generated(format, seed)])),
  ];

  test.each(cases)('%s: found as %s, every check digit valid', (_, lines) => {
    expect(findMrzLines(`SPECIMEN\n${lines.join('\n')}\n`)).toEqual({ format, lines });
    expect(recoverMrz(format, lines)).toEqual(lines);
    expect(validateMrz(format, lines)).toMatchObject({ valid: true, invalidFields: [], birthDate: lines[1]!.slice(BIRTH[format][0], BIRTH[format][0] + 6) });
  });

  test.each(cases)('%s: one misread character (O for 0 in the birth date) is recovered', (_, lines) => {
    const [birth] = BIRTH[format];
    // The first digit of the year that is a 0, 1 or other digit with a letter look-alike.
    const index = [...lines[1]!.slice(birth, birth + 6)].findIndex((c) => '012568'.includes(c));
    const digit = lines[1]![birth + index]!;
    const letter = { '0': 'O', '1': 'I', '2': 'Z', '5': 'S', '6': 'G', '8': 'B' }[digit]!;
    const misread = [lines[0]!, replaceAt(lines[1]!, birth + index, letter)];
    expect(validateMrz(format, misread).valid).toBe(false);
    const repaired = recoverMrz(format, misread);
    expect(repaired).toEqual(lines);
    expect(validateMrz(format, repaired).valid).toBe(true);
  });

  test.each(cases)('%s: a tampered birth-date check digit stays invalid', (_, lines) => {
    const [, check] = BIRTH[format];
    const tampered = [lines[0]!, replaceAt(lines[1]!, check, String((Number(lines[1]![check]) + 1) % 10))];
    const repaired = recoverMrz(format, tampered);
    expect(repaired).toEqual(tampered);
    expect(validateMrz(format, repaired)).toMatchObject({ valid: false, invalidFields: expect.arrayContaining(['birthDateCheckDigit']) });
  });
});

describe('visas (validated here, not by the `mrz` package)', () => {
  const [first, second] = SPECIMENS.MRVA as [string, string];
  test('the specimen reads its dates and document code', () =>
    expect(validateMrz('MRVA', [first, second])).toEqual({
      valid: true,
      invalidFields: [],
      birthDate: '400907',
      expirationDate: '961210',
      issueDate: null,
      documentCode: 'VN',
      birthCentury: null,
    }));
  test.each<[string, string[], string]>([
    ['document number check digit', [first, replaceAt(second, 9, '5')], 'documentNumberCheckDigit'],
    ['expiry check digit', [first, replaceAt(second, 27, '0')], 'expirationDateCheckDigit'],
    ['a passport code is not a visa', [replaceAt(first, 0, 'P'), second], 'documentCode'],
    ['unknown issuing state', [replaceAt(first, 2, 'Q'), second], 'issuingState'],
    ['unknown nationality', [first, replaceAt(second, 10, 'Q')], 'nationality'],
    ['sex', [first, replaceAt(second, 20, 'X')], 'sex'],
    ['a 13th month (its check digit right)', [first, `${second.slice(0, 13)}4013077${second.slice(20)}`], 'birthDate'],
  ])('%s fails', (_, lines, field) => {
    const result = validateMrz('MRVA', lines);
    expect(result.valid).toBe(false);
    expect(result.invalidFields).toContain(field);
  });
  test('lines of the wrong length are not a visa', () =>
    expect(validateMrz('MRVB', SPECIMENS.MRVA!)).toMatchObject({ valid: false, invalidFields: ['format'] }));
});

describe('a layout the text does not have', () => {
  test('TD2 lines with digits where the name ends are the French card to the `mrz` package, so not a valid TD2', () => {
    const lines = [replaceAt(SPECIMENS.TD2![0]!, 31, '4'), SPECIMENS.TD2![1]!];
    expect(validateMrz('TD2', lines)).toMatchObject({ valid: false, invalidFields: ['format'] });
  });
});
