import { describe, expect, test } from 'bun:test';
import { base32Decode, hotp, secretOfUri, totpCode, wrongTotpCode } from './totp';

// RFC 6238 appendix B (SHA-1 key "12345678901234567890"), cut to 6 digits as the apps show them.
const RFC_KEY_BASE32 = 'GEZDGNBVGY3TQOJQGEZDGNBVGY3TQOJQ';

describe('test TOTP (RFC 6238)', () => {
  test('base32 decodes the RFC key', () => expect(base32Decode(RFC_KEY_BASE32).toString()).toBe('12345678901234567890'));
  test.each([
    [59_000, '287082'],
    [1_111_111_109_000, '081804'],
    [1_111_111_111_000, '050471'],
    [1_234_567_890_000, '005924'],
    [2_000_000_000_000, '279037'],
    [20_000_000_000_000, '353130'],
  ])('at %p ms the code is %s', (at, code) => expect(totpCode(RFC_KEY_BASE32, at)).toBe(code));
  test('HOTP of RFC 4226 appendix D', () => expect([0, 1, 9].map((c) => hotp(Buffer.from('12345678901234567890'), c))).toEqual(['755224', '287082', '520489']));
  test('the secret of an otpauth URI', () =>
    expect(secretOfUri('otpauth://totp/AgeVerify:a%40b.test?secret=ABCDEF&issuer=AgeVerify&digits=6&period=30')).toBe('ABCDEF'));
  test('a wrong code is none of the nearby steps', () => {
    const wrong = wrongTotpCode(RFC_KEY_BASE32, 1_111_111_109_000);
    expect([-2, -1, 0, 1, 2].map((step) => totpCode(RFC_KEY_BASE32, 1_111_111_109_000, step))).not.toContain(wrong);
  });
});
