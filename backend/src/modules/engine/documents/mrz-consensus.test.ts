import { describe, expect, test } from 'bun:test';
import { parse } from 'mrz';
import {
  agreeingReadings,
  birthDateContradicted,
  birthDateWitnessed,
  combineReadings,
  fixedBandCrop,
  lineCombinations,
  passContested,
  visaBirthDateWitnessed,
} from './mrz-consensus';
import { settle } from './mrz-reading';
import { validateMrz } from './mrz-validation';

// The TD3 example of ICAO Doc 9303 part 4 with a real state code (the `mrz` package refuses UTO);
// the state codes are outside every check digit, so every check digit still passes.
const LINE1 = 'P<NLDERIKSSON<<ANNA<MARIA<<<<<<<<<<<<<<<<<<<';
const LINE2 = 'L898902C36NLD7408122F1204159ZE184226B<<<<<10';
const replaceAt = (text: string, index: number, char: string) => text.slice(0, index) + char + text.slice(index + 1);

describe('combineReadings', () => {
  test('the example passes as printed', () => expect(parse([LINE1, LINE2]).valid).toBe(true));

  test('a birth date one reading misread is taken from another reading that passes its check digit', () => {
    const misreadBirth = [LINE1, replaceAt(LINE2, 15, '3')];
    const misreadNumber = [LINE1, replaceAt(LINE2, 2, '3')];
    expect(parse(misreadBirth).valid).toBe(false);
    expect(parse(misreadNumber).valid).toBe(false);
    const combined = combineReadings('TD3', [misreadBirth, misreadNumber]);
    expect(combined).toEqual([LINE1, LINE2]);
  });

  test('a field no reading passes stays as the first reading has it (the composite then fails)', () => {
    const first = [LINE1, replaceAt(LINE2, 15, '3')];
    const second = [LINE1, replaceAt(LINE2, 15, '5')];
    expect(combineReadings('TD3', [first, second])).toBeNull();
  });

  test('a birth date read with a filler among its digits is taken from a reading that read the digit (decision 0086)', () => {
    // 74<812: the check digit 2 counts the filler as 0 and passes, confirming nothing.
    const unreadBirth = [LINE1, replaceAt(LINE2, 15, '<')];
    const misreadNumber = [LINE1, replaceAt(LINE2, 2, '3')];
    expect(combineReadings('TD3', [unreadBirth, misreadNumber])).toEqual([LINE1, LINE2]);
  });

  test('one reading alone is never combined', () => expect(combineReadings('TD3', [[LINE1, LINE2]])).toBeNull());

  test('agreement counts identical readings only', () => {
    const tampered = [LINE1, replaceAt(LINE2, 19, '1')];
    const readings = [
      { lines: tampered, crop: 'bottom band' },
      { lines: tampered, crop: 'wide band' },
      { lines: [LINE1, LINE2], crop: 'whole page' },
    ];
    expect(agreeingReadings(readings, tampered)).toBe(2);
  });

  test('two readings of one crop, thresholded two ways, are one witness, not two', () => {
    const misread = [LINE1, replaceAt(LINE2, 19, '1')];
    const sameCrop = [
      { lines: misread, crop: 'zone 1' },
      { lines: misread, crop: 'zone 1' },
    ];
    expect(agreeingReadings(sameCrop, misread)).toBe(1);
    expect(
      settle([
        { format: 'TD3', lines: misread, crop: 'zone 1' },
        { format: 'TD3', lines: misread, crop: 'zone 1' },
      ]),
    ).toMatchObject({ found: true, valid: false, agreeing: 1 });
  });
});

describe('lineCombinations: each line from the reading that read it (issue 20)', () => {
  // Harder synthetic set seed 2, document 0036: glare over a TD1 card; one crop read the first line
  // right and the second wrong, another the second right and junk in the first line's optional data.
  const card = ['I<ESPFPD076XCC9<<<<<<<<<<<<<<<', '7410046M2804095ESP<<<<<<<<<<<4', 'KLEIN<<AOIFE<<<<<<<<<<<<<<<<<<'];
  const first = [card[0]!, '7141001OM2804095EOF<<<<<<<<<<8', 'YVIFE<<<<<<<<<<<<<<<<<<<<<<<<<'];
  const second = ['I<ESPFPD076XCC9<<<<<<<S88SS85<', card[1]!, card[2]!];

  test('the card passes as printed, and neither reading does', () => {
    expect(parse(card).valid).toBe(true);
    expect(parse(first).valid).toBe(false);
    expect(parse(second).valid).toBe(false);
  });

  test('the combination of the right lines is among them, the composite check digit spanning both', () => {
    expect(lineCombinations('TD1', [first, second])).toContainEqual(card);
    expect(
      settle([
        { format: 'TD1', lines: first, crop: 'zone 0' },
        { format: 'TD1', lines: second, crop: 'zone 1' },
      ]),
    ).toMatchObject({ found: true, format: 'TD1', valid: true, birthDate: '741004' });
  });

  test('lines no reading read right combine into nothing valid', () => {
    const wrongBirth = ['I<ESPFPD076XCC9<<<<<<<<<<<<<<<', '7410056M2804095ESP<<<<<<<<<<<4', card[2]!];
    expect(
      settle([
        { format: 'TD1', lines: first, crop: 'zone 0' },
        { format: 'TD1', lines: wrongBirth, crop: 'zone 1' },
      ]),
    ).toMatchObject({ found: true, valid: false });
  });

  test('one reading is never combined, and the lines most read come first', () => {
    expect(lineCombinations('TD1', [card])).toEqual([]);
    expect(lineCombinations('TD1', [first, second, second])[0]).toEqual(second);
  });

  // Held-out seed 226 (spent), `0047`: a TD2 card at an angle whose crops read its second line
  // fifteen ways, each but three once; the one right reading came tenth, behind the six lines kept
  // (decision 0108).
  test('among lines read as often, those whose check digits pass come first', () => {
    const name = 'I<ESPLINDQVIST<<MAI<<<<<<<<<<<<<<<<<';
    const right = 'LXBNX3N1J3ESP5309177F2712284<<<<<<<8';
    const wrong = [
      'EXPNX3N1J3ESP5309177F27<2284<<<<<<<8',
      'RXB4X3NIJ3ESP5309177F276284<<<<<<<8<',
      'EXBNX3NTJ3ESP5309177F272284<<<<<<<8<',
      'EXPNX3N1J3ESP5309177F2712284<<<<<<<8',
      'XPNX3N1J3ESPS309177F<712284<<<<<<<<<',
      'XPNX3N1J3ESPS309177F<712284<<<<<<<8<',
    ];
    const readings = [...wrong, right].map((line) => [name, line]);
    expect(parse([name, right]).valid).toBe(true);
    expect(lineCombinations('TD2', readings)[0]).toEqual([name, right]);
    expect(lineCombinations('TD2', [...readings, [name, wrong[0]!]])[0]).toEqual([name, wrong[0]!]);
    expect(settle(readings.map((lines, i) => ({ format: 'TD2', lines, crop: `zone ${i}` })))).toMatchObject({ valid: true, birthDate: '530917' });
  });
});

// Held-out seed 244 `0088` (spent): an altered MRV-A whose birth date check digit fails as printed.
// One reading of thirteen, all of one crop, lost the line's first character and read `86` as
// `B60`: its birth date field holds `6005018`, which passes the altered check digit, and its
// nationality `OLB`. Engines to 2026.12.21 took the date from it and verified the visa (decision 0109).
describe('combineReadings: a visa takes no field from a reading whose line names no state', () => {
  const name = 'V<POLGARCIA<<LUCIA<<<<<<<<<<<<<<<<<<<<<<<<<<';
  const printed = [name, 'XVZD8Y0SK2POL8605018M2910264<<<<<<<<<<<<<<<<'];
  const shifted = [name, 'VZD8Y0SK2POLB6005018M2910264<<<<<<<<<<<<<<<<'];

  test('the printed line fails its birth date check digit, and the shifted one passes it', () => {
    expect(validateMrz('MRVA', printed).invalidFields).toEqual(['birthDateCheckDigit']);
    expect(validateMrz('MRVA', shifted).invalidFields).toContain('nationality');
    expect(validateMrz('MRVA', shifted).invalidFields).not.toContain('birthDateCheckDigit');
  });

  test('no combination, and the visa is not accepted', () => {
    expect(combineReadings('MRVA', [printed, shifted])).toBeNull();
    const readings = [...Array.from({ length: 12 }, () => printed), shifted].map((lines) => ({ format: 'MRVA' as const, lines, crop: 'zone 0' }));
    expect(settle(readings)).toMatchObject({ found: true, valid: false, birthDate: '860501' });
  });

  test('a reading that names the state on its line still gives its birth date', () => {
    const misreadBirth = [name, 'XVZD8Y0SK2POL8605078M2910264<<<<<<<<<<<<<<<<'];
    const birthRight = [name, 'XVZD8Y0SK2POL8605010M2910254<<<<<<<<<<<<<<<<'];
    expect(combineReadings('MRVA', [misreadBirth, birthRight])?.[1]?.slice(13, 20)).toBe('8605010');
  });
});

describe('combineReadings on the two-line layouts of issue 20', () => {
  // Doc 9303 part 6 (TD2) and part 7 (MRV-B) specimens, NLD for UTO as above.
  const TD2: [string, string] = ['I<NLDERIKSSON<<ANNA<MARIA<<<<<<<<<<<', 'D231458907NLD7408122F1204159<<<<<<<6'];
  const MRVB: [string, string] = ['VNNLDERIKSSON<<ANNA<MARIA<<<<<<<<<<<', 'L8988901C4XXX4009078F9612109<<<<<<<<'];
  test.each([
    ['TD2', TD2],
    ['MRVB', MRVB],
  ] as const)('%s: a birth date and an expiry misread in turn combine into the printed lines', (format, lines) => {
    const misreadBirth = [lines[0], replaceAt(lines[1], 14, '3')];
    const misreadExpiry = [lines[0], replaceAt(lines[1], 22, '7')];
    expect(combineReadings(format, [misreadBirth, misreadExpiry])).toEqual([...lines]);
    // One witness against one on the birth date, a digit apart: the check digit alone would decide
    // (engine 2026.12.3, decision 0089). A second crop that read it as printed decides it.
    expect(
      settle([
        { format, lines: misreadBirth },
        { format, lines: misreadExpiry },
      ]),
    ).toMatchObject({ found: true, valid: false, contested: true });
    expect(
      settle([
        { format, lines: misreadBirth, crop: 'band 0.4' },
        { format, lines: misreadExpiry, crop: 'zone 0' },
        { format, lines: misreadExpiry, crop: 'zone 1' },
      ]),
    ).toMatchObject({ found: true, format, valid: true });
  });

  test.each([
    ['TD2', TD2],
    ['MRVB', MRVB],
  ] as const)('%s: a birth-date check digit read otherwise by as many witnesses contests the combination', (format, lines) => {
    // Held-out seed 103 `0111` (decision 0092): the page's check digit was altered; the bands
    // misread it as the true one and failed elsewhere, the zone read it as printed.
    const misreadExpiry = [lines[0], replaceAt(lines[1], 22, '7')];
    const checkDigitOtherwise = [lines[0], replaceAt(lines[1], 19, '5')];
    expect(combineReadings(format, [misreadExpiry, checkDigitOtherwise])).toEqual([...lines]);
    expect(
      settle([
        { format, lines: misreadExpiry, crop: 'band 0.4' },
        { format, lines: checkDigitOtherwise, crop: 'zone 0' },
      ]),
    ).toMatchObject({ found: true, valid: false, contested: true });
    expect(
      settle([
        { format, lines: misreadExpiry, crop: 'band 0.4' },
        { format, lines: misreadExpiry, crop: 'zone 1' },
        { format, lines: checkDigitOtherwise, crop: 'zone 0' },
      ]),
    ).toMatchObject({ found: true, format, valid: true });
  });
});

describe('settle: what several failing readings amount to', () => {
  test('readings that disagree on a failing line report one agreeing reading (a misread)', () => {
    const reading = settle([
      { format: 'TD3', lines: [LINE1, replaceAt(LINE2, 15, '3')] },
      { format: 'TD3', lines: [LINE1, replaceAt(LINE2, 15, '5')] },
    ]);
    expect(reading).toMatchObject({ found: true, valid: false, agreeing: 1 });
  });

  test('readings that agree on a tampered check digit report that agreement', () => {
    const tampered = [LINE1, replaceAt(LINE2, 19, '1')];
    const reading = settle([
      { format: 'TD3', lines: tampered },
      { format: 'TD3', lines: [LINE1, replaceAt(LINE2, 15, '5')] },
      { format: 'TD3', lines: tampered },
    ]);
    expect(reading).toMatchObject({ found: true, valid: false, agreeing: 2, invalidFields: expect.arrayContaining(['birthDateCheckDigit']) });
  });

  test('failing readings whose fields pass in turn combine into a valid reading, the birth date read right by more witnesses', () => {
    const reading = settle([
      { format: 'TD3', lines: [LINE1, replaceAt(LINE2, 15, '3')] },
      { format: 'TD3', lines: [LINE1, replaceAt(LINE2, 2, '3')] },
      { format: 'TD3', lines: [LINE1, replaceAt(LINE2, 4, '3')] },
    ]);
    expect(reading).toMatchObject({ found: true, valid: true, birthDate: '740812', expirationDate: '120415' });
  });

  // A card's front and back on one page: text beside the zone read as three lines of a TD1 first.
  const noise = { format: 'TD1' as const, lines: ['<<8<6<4A0L06CP<<470600000000', 'I429A000ZEZ7E0BBD<<AZBR195E5<1', 'ETT7EAT7LD<2F43<<<4<2<5<J<<<<'] };

  test('readings of another layout first: each layout is combined on its own, and the one that passes answers', () => {
    const reading = settle([
      noise,
      { format: 'TD3', lines: [LINE1, replaceAt(LINE2, 15, '3')] },
      { format: 'TD3', lines: [LINE1, replaceAt(LINE2, 2, '3')] },
      { format: 'TD3', lines: [LINE1, replaceAt(LINE2, 4, '3')] },
    ]);
    expect(reading).toMatchObject({ found: true, format: 'TD3', valid: true, birthDate: '740812' });
  });

  test('none passes: the layout whose readings pass more check digits is reported, with its agreement', () => {
    const tampered = [LINE1, replaceAt(LINE2, 19, '1')];
    const reading = settle([noise, { format: 'TD3', lines: tampered, crop: 'band 0.4' }, { format: 'TD3', lines: tampered, crop: 'zone 0' }]);
    expect(reading).toMatchObject({ found: true, format: 'TD3', valid: false, agreeing: 2, invalidFields: expect.arrayContaining(['birthDateCheckDigit']) });
  });

  test('no reading found no MRZ', () => expect(settle([])).toEqual({ found: false }));
});

describe('birthDateContradicted: a passing reading from the enlarged page against the first read (decision 0086)', () => {
  // Held-out seed 53: an altered TD1 card printed 530522; its zone read the 5 as 9, the enlarged
  // page read it as 0, and 030522 passes the altered check digit and the composite.
  const card = (birth: string) => ({
    format: 'TD1' as const,
    lines: ['I<PRTRKFA5C7S71'.padEnd(30, '<'), `${birth}2F2811224PRT<<<<<<<<<<<4`, 'SILVA<<DAAN'.padEnd(30, '<')],
    crop: 'zone 0',
  });
  test('a crop read it one digit otherwise, none as it is: contradicted', () => expect(birthDateContradicted('TD1', [card('930522')], '030522')).toBe(true));
  test('a crop read it as it is: not contradicted, whatever the others read', () =>
    expect(birthDateContradicted('TD1', [card('930522'), { ...card('030522'), crop: 'band 0.4' }], '030522')).toBe(false));
  test('a reading two digits or more away is a misaligned line or noise, not a contradiction', () =>
    expect(birthDateContradicted('TD1', [card('109308')], '930809')).toBe(false));
  test('readings of another layout do not count', () => expect(birthDateContradicted('TD3', [card('930522')], '030522')).toBe(false));
  test('no reading: nothing contradicts it', () => expect(birthDateContradicted('TD1', [], '030522')).toBe(false));
  // Held-out seed 153: an altered card every crop read as printed; the enlarged page misread its check digit back (decision 0101).
  test('a crop read the same six digits with another check digit, none with the one that passes: contradicted', () =>
    expect(birthDateContradicted('TD1', [card('540721')], '540721')).toBe(true));
  test('the same six digits with the passing check digit read by one crop: not contradicted', () =>
    expect(birthDateContradicted('TD1', [card('540721'), { ...card('030522'), crop: 'band 0.4' }], '030522')).toBe(false));
});

describe('visaBirthDateWitnessed: a visa whose V was not read needs two witnesses of its birth date (decision 0102)', () => {
  // Held-out seed 161: an altered MRV-A visa whose bands read `Y…` and `5908064`, whose zone read the V and `6906064`.
  const visa = (code: string, birth: string) => [`${code}<CANPEETERS<<JOAO`.padEnd(44, '<'), `K808BJAN34CAN${birth}M2707026`.padEnd(44, '<')];
  const unread = (crop: string, birth = '5908064') => ({ lines: visa('Y', birth), crop, codeUnread: true as const });
  const read = (crop: string, birth: string) => ({ lines: visa('V', birth), crop });
  test('read only by the fixed bands, with the V unread: one witness, not enough', () =>
    expect(visaBirthDateWitnessed('MRVA', [unread('band 0.65'), unread('band 0.4'), read('zone 0', '6906064')], visa('V', '5908064'))).toBe(false));
  test('read by a band and a zone, both with the V unread: two witnesses', () =>
    expect(visaBirthDateWitnessed('MRVA', [unread('band 0.65'), unread('zone 0')], visa('Y', '5908064'))).toBe(true));
  test('read by one crop that read the V: witnessed, as any visa read with its code', () =>
    expect(visaBirthDateWitnessed('MRVA', [unread('band 0.65', '6906067'), read('zone 0', '5908064')], visa('V', '5908064'))).toBe(true));
  test('no reading of the V unread: nothing changes', () =>
    expect(visaBirthDateWitnessed('MRVA', [read('zone 0', '6906064')], visa('V', '5908064'))).toBe(true));
});

describe('passContested: a reading that passes against failing lines that crops agree on', () => {
  const tampered = [LINE1, replaceAt(LINE2, 9, '1')];
  const by = (lines: string[], ...crops: string[]) => crops.map((crop) => ({ format: 'TD3' as const, lines, crop }));

  test('the page and a levelled zone agree on lines whose check digit fails: contested', () =>
    expect(passContested('TD3', by(tampered, 'band 0.65', 'zone 0'))).toBe(true));
  test('two zones agree: contested', () => expect(passContested('TD3', by(tampered, 'zone 0', 'zone 1'))).toBe(true));
  test('one crop alone is not enough', () => expect(passContested('TD3', by(tampered, 'zone 0'))).toBe(false));
  test('the fixed bands of the page, upright or turned, are one witness', () => {
    expect(passContested('TD3', by(tampered, 'band 0.65', 'band 0.4', 'band 0'))).toBe(false);
    expect(passContested('TD3', by(tampered, 'turn 90 band 0.65', 'turn 90 band 0.4', 'turn 90 band 0'))).toBe(false);
    expect(passContested('TD3', by(tampered, ...[0.65, 0.4, 0].map((fraction) => fixedBandCrop(fraction, 270))))).toBe(false);
    expect(passContested('TD3', by(tampered, 'band 0.65', 'band enlarged'))).toBe(true);
  });
  test('readings of one crop count once', () => expect(passContested('TD3', by(tampered, 'zone 0', 'zone 0', 'zone 0'))).toBe(false));
  test('crops that read the lines differently do not add up', () =>
    expect(passContested('TD3', [...by(tampered, 'band 0.65'), ...by([LINE1, replaceAt(LINE2, 9, '2')], 'zone 0')])).toBe(false));
  test('readings of another layout do not count', () => expect(passContested('TD1', by(tampered, 'band 0.65', 'zone 0'))).toBe(false));
  test('a failing letter code with every check digit passing is no contest', () => {
    const stateMisread = [LINE1, replaceAt(LINE2, 10, 'X')];
    expect(passContested('TD3', by(stateMisread, 'band 0.65', 'zone 0'))).toBe(false);
  });
  test('a filler read where a digit is printed is a digit unread, whatever its check digit says (decision 0086)', () => {
    const unreadBirth = [LINE1, replaceAt(replaceAt(LINE2, 15, '<'), 19, '9')];
    expect(passContested('TD3', by(unreadBirth, 'band 0.65', 'zone 0'))).toBe(false);
  });
});

describe("birthDateWitnessed: a second witness for a small page's passing reading (decision 0105)", () => {
  // Held-out seed 189 `0032`: a TD2 card born 720223 whose fixed bands read 770723, which passes.
  const card = (birth: string, check: string, crop: string) => ({
    format: 'TD2' as const,
    lines: ['I<GBRROSSI<<LUKAS'.padEnd(36, '<'), `GXAYGL1J57GBR${birth}${check}F2806088<<<<<<<8`],
    crop,
  });
  const byZones = (crop: string) => !crop.startsWith('band');
  test('a zone read the date and its check digit as it is, the rest of its lines failing: witnessed', () =>
    expect(birthDateWitnessed('TD2', [card('720223', '8', 'zone 0')], '720223', byZones)).toBe(true));
  test('only a fixed band read it so: the same witness, not a second one', () =>
    expect(birthDateWitnessed('TD2', [card('770723', '8', 'band 0.4')], '770723', byZones)).toBe(false));
  test('a zone read another date, or the date with another check digit: not witnessed', () => {
    expect(birthDateWitnessed('TD2', [card('720223', '8', 'zone 0')], '770723', byZones)).toBe(false);
    expect(birthDateWitnessed('TD2', [card('770723', '3', 'zone 0')], '770723', byZones)).toBe(false);
  });
});
