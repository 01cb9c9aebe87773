/** The password rule (issue 22, finding 6), table first: what is refused, what passes, and why. */
import { describe, expect, test } from 'bun:test';
import { checkNewAccount } from './accounts';
import { passwordWeakness } from './password-strength';

describe('password strength', () => {
  test.each([
    ['aaaaaaaaaa', /Repeated characters/],
    ['1111111111', /Repeated characters/],
    ['password123', /commonly used password/],
    ['qwertyuiop', /frequently used password/],
    ['abcdefghij', /.+/],
  ])('%p is refused with advice', (password, advice) => {
    const weakness = passwordWeakness(password);
    expect(weakness).toMatch(advice);
    expect(weakness).toContain('A few unrelated words');
  });

  test.each(['correct horse battery', 'a brand new password', 'Tr0ub4dor&3x-v2', 'bolt owner password'])('%p passes', (password) => {
    expect(passwordWeakness(password)).toBeNull();
  });

  test("the account's own words do not make a password strong", () => {
    expect(passwordWeakness('acmeshop2026!')).toBeNull();
    expect(passwordWeakness('acmeshop2026!', ['owner@acmeshop.example', 'Acme Shop 2026'])).not.toBeNull();
  });

  test('every new account goes through the rule, with a message that says what to do', () => {
    expect(() => checkNewAccount('owner@example.com', 'aaaaaaaaaa')).toThrow(/^password is too easy to guess\. Repeated characters/);
    expect(() => checkNewAccount('owner@example.com', 'short')).toThrow('owner password must be at least 10 characters');
    expect(() => checkNewAccount('owner@example.com', 'correct horse battery')).not.toThrow();
  });
});
