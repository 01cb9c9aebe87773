import { describe, expect, test } from 'bun:test';
import { parseLaunchParams } from './launch-params';

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

  const incomplete = ['', '?sessionId=ses_1', '?sessionToken=tok', '?sessionId=&sessionToken=tok', '?sessionId=ses_1&sessionToken=%20'];
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
