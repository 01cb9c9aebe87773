import { describe, expect, test } from 'bun:test';
import { statedBirthCentury } from './birth-century';
import { validateMrz } from './mrz-validation';

/** A TD1 card's three lines with `optional1` after the document number (check digits are not this module's concern). */
function td1(state: string, birth: string, optional1: string, optional2 = ''): string[] {
  return [
    `I<${state}AB1234567<`.concat(optional1).padEnd(30, '<').slice(0, 30),
    `${birth}0F3001011${state}`.concat(optional2).padEnd(29, '<').concat('0'),
    'SPECIMEN<<TEST'.padEnd(30, '<'),
  ];
}

/** A passport's lines with `personal` in its personal number field. */
function td3(state: string, birth: string, personal: string): string[] {
  return [`P<${state}SPECIMEN<<TEST`.padEnd(44, '<'), `AB12345670${state}${birth}0F3001011${personal.padEnd(14, '<')}00`];
}

describe('the birth century a national personal number states (issue 20 Deliver 4)', () => {
  test.each<[string, string[], number | null]>([
    // Estonia and Lithuania: G YYMMDD SSS C, G 3/4 the 1900s, 5/6 the 2000s, 1/2 the 1800s.
    ['Estonian code of a man born in 1912', td1('EST', '121212', '31212120000'), 1900],
    ['Estonian code of a woman born in 2012', td1('EST', '121212', '61212120000'), 2000],
    ['Lithuanian code of a man born in 1964', td1('LTU', '641123', '36411230000'), 1900],
    // Latvia: DDMMYY, century digit (1 the 1900s, 2 the 2000s), four digits.
    ['Latvian code of 1912', td1('LVA', '121203', '031212<10000'), 1900],
    ['Latvian code of 2012 without the separator', td1('LVA', '121203', '03121220000'), 2000],
    // Bulgaria: the month plus 40 in the 2000s.
    ['Bulgarian EGN of 1912', td1('BGR', '121203', '1212030000'), 1900],
    ['Bulgarian EGN of 2012', td1('BGR', '121203', '1252030000'), 2000],
    // Romania: S 1/2 the 1900s, 5/6 the 2000s.
    ['Romanian CNP of 1912', td1('ROU', '121203', '1121203000000'), 1900],
    ['Romanian CNP of 2012', td1('ROU', '121203', '6121203000000'), 2000],
    // Czech and Slovak birth numbers: nine digits before 1954, ten from then; a woman's month + 50.
    ['Czech birth number of nine digits: 1911', td3('CZE', '110101', '110101111'), 1900],
    ['Czech birth number of ten digits: 2011', td3('CZE', '110101', '1101011111'), 2000],
    ['Slovak birth number of a woman born in 1960 (month + 50)', td3('SVK', '600315', '6053151234'), 1900],
    ['nine digits with a year from 1954 on is no birth number', td3('CZE', '600315', '600315123'), null],
    // Iceland: DDMMYY, three digits, the century (9 the 1900s, 0 the 2000s).
    ['Icelandic kennitala of 1912', td3('ISL', '121203', '031212<1239'), 1900],
    ['Icelandic kennitala of 2012', td3('ISL', '121203', '0312121230'), 2000],
    // Only a number whose date part is the birth date counts.
    ['a number of another date', td1('EST', '121212', '31212130000'), null],
    ['a state without such a rule', td1('DEU', '121212', '31212120000'), null],
    ['no optional data', td1('EST', '121212', ''), null],
    ['a number inside a longer run of digits', td1('EST', '121212', '9931212120000'), null],
  ])('%s', (_, lines, century) =>
    expect(statedBirthCentury(lines.length === 2 ? 'TD3' : 'TD1', lines, lines[1]!.slice(lines.length === 2 ? 13 : 0, lines.length === 2 ? 19 : 6))).toBe(
      century,
    ),
  );

  test('the number in the second line of a card counts too', () =>
    expect(statedBirthCentury('TD1', td1('EST', '121212', '', '51212120000'), '121212')).toBe(2000));

  test('a malformed birth date or a missing line states nothing (and throws nothing)', () => {
    expect(statedBirthCentury('TD1', td1('EST', '121212', '31212120000'), '12121X')).toBeNull();
    expect(statedBirthCentury('TD1', td1('EST', '121212', '31212120000'), null)).toBeNull();
    expect(statedBirthCentury('TD1', td1('EST', '121212', '', '51212120000').slice(0, 1), '121212')).toBeNull();
    expect(statedBirthCentury('TD3', [], '121212')).toBeNull();
  });

  test('a visa states no century', () => expect(statedBirthCentury('MRVA', td3('ISL', '121203', '031212<1239'), '121203')).toBeNull());

  // The real specimens of scripts/documents/real-specimens.csv (rows 017 and 107), every check digit valid.
  test.each<[string, string[]]>([
    ['the Czech specimen passport (born 1911)', ['P<CZESPECIMEN<<VZOR<<<<<<<<<<<<<<<<<<<<<<<<<', '99003853<1CZE1101018M1207046110101111<<<<<94']],
    ['the Icelandic specimen passport of 2021 (born 1912)', ['PAISLAEVARSDOTTIR<<THURIDUR<OESP<<<<<<<<<<<<', 'A3536444<7ISL1212123<3103108121212<1239<<<68']],
  ])('%s states the 1900s once its check digits pass', (_, lines) => {
    expect(validateMrz('TD3', lines)).toMatchObject({ valid: true, birthCentury: 1900 });
    const tampered = [lines[0]!, `${lines[1]!.slice(0, 43)}${(Number(lines[1]![43]) + 1) % 10}`];
    expect(validateMrz('TD3', tampered)).toMatchObject({ valid: false, birthCentury: null });
  });
});
