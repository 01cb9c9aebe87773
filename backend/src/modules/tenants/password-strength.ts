/**
 * The password rule (issue 22, finding 6): length alone let `aaaaaaaaaa` and `1111111111` through.
 * A password must also be hard to guess, as zxcvbn-ts estimates it with its common-password and
 * English dictionaries and the account's own words (email, names). Score 3 of 4 is zxcvbn's
 * "safely unguessable: moderate protection from an offline slow-hash scenario" (our hashes are
 * argon2id). Its feedback becomes the message, so the user learns what to change.
 */
import { ZxcvbnFactory } from '@zxcvbn-ts/core';
import * as common from '@zxcvbn-ts/language-common';
import * as english from '@zxcvbn-ts/language-en';

export const MIN_PASSWORD_SCORE = 3;

const estimator = new ZxcvbnFactory({
  translations: english.translations,
  graphs: common.adjacencyGraphs,
  dictionary: { ...common.dictionary, ...english.dictionary },
});

/** What to change, or null when the password is strong enough. `context`: the account's own words. */
export function passwordWeakness(password: string, context: string[] = []): string | null {
  const words = context.flatMap((value) => value.toLowerCase().split(/[^a-z0-9]+/)).filter((word) => word.length >= 3);
  const result = estimator.check(password, words);
  if (result.score >= MIN_PASSWORD_SCORE) return null;
  const advice = [result.feedback.warning, ...result.feedback.suggestions].filter(Boolean).join(' ');
  return `${advice ? `${advice} ` : ''}A few unrelated words, or a longer mix of letters, digits and signs, make a strong password.`;
}
