import { describe, expect, test } from 'bun:test';
import { isHandoffCredentials, parseLaunchParams } from './launch-params';

describe('parseLaunchParams', () => {
  test('reads the credentials and display parameters', () => {
    const params = parseLaunchParams('?sessionId=ses_1&sessionToken=tok%2Babc&lang=de&skip_intro=true&auto_return=true');
    expect(params).toEqual({
      credentials: { sessionId: 'ses_1', sessionToken: 'tok+abc' },
      lang: 'de',
      skipIntro: true,
      autoReturn: true,
    });
  });

  const incomplete = [
    '',
    '?sessionId=ses_1',
    '?sessionToken=tok',
    '?handoffToken=hand',
    '?sessionId=&sessionToken=tok',
    '?sessionId=ses_1&sessionToken=%20',
    '?sessionId=ses_1&handoffToken=',
    '?sessionId=%20&handoffToken=hand',
    '?sessionId=ses_1&sessionToken=&handoffToken=%20',
  ];
  for (const search of incomplete) {
    test(`an incomplete link has no credentials: ${JSON.stringify(search)}`, () => {
      expect(parseLaunchParams(search).credentials).toBeNull();
    });
  }

  test('only the value "true" switches skip_intro and auto_return on', () => {
    for (const value of ['1', 'TRUE', 'yes', '']) {
      const params = parseLaunchParams(`?sessionId=s&sessionToken=t&skip_intro=${value}&auto_return=${value}`);
      expect(params.skipIntro).toBe(false);
      expect(params.autoReturn).toBe(false);
    }
  });

  test('display parameters that could override the session are not exposed (spec: verifyUrl rules)', () => {
    const params = parseLaunchParams(
      '?sessionId=s&sessionToken=t&returnUrl=https%3A%2F%2Fevil.example&merchantName=Evil&blocked=true&portalUrl=https%3A%2F%2Fevil.example',
    );
    expect(Object.keys(params).sort()).toEqual(['autoReturn', 'credentials', 'lang', 'skipIntro']);
  });
});

describe('credential choice (spec "QR handoff")', () => {
  // [query, expected credentials]: exactly one token is ever used.
  const cases: Array<[string, object | null]> = [
    ['?sessionId=ses_1&sessionToken=tok', { sessionId: 'ses_1', sessionToken: 'tok' }],
    ['?sessionId=ses_1&handoffToken=hand%2B1', { sessionId: 'ses_1', handoffToken: 'hand+1' }],
    // Both present: the desktop's sessionToken wins, the handoffToken is dropped.
    ['?sessionId=ses_1&handoffToken=hand&sessionToken=tok', { sessionId: 'ses_1', sessionToken: 'tok' }],
    // An empty sessionToken does not hide a usable handoffToken.
    ['?sessionId=ses_1&sessionToken=&handoffToken=hand', { sessionId: 'ses_1', handoffToken: 'hand' }],
    ['?sessionId=%20ses_1%20&handoffToken=%20hand%20', { sessionId: 'ses_1', handoffToken: 'hand' }],
  ];
  for (const [search, expected] of cases) {
    test(search, () => {
      const { credentials } = parseLaunchParams(search);
      expect(credentials).toStrictEqual(expected as never);
    });
  }

  test('isHandoffCredentials tells the phone from the desktop', () => {
    expect(isHandoffCredentials({ sessionId: 's', handoffToken: 'h' })).toBe(true);
    expect(isHandoffCredentials({ sessionId: 's', sessionToken: 't' })).toBe(false);
  });
});
