import { describe, expect, test } from 'bun:test';
import { en } from './en';
import { de } from './de';
import { es } from './es';
import { fr } from './fr';
import { pt } from './pt';
import { it as itLocale } from './it';
import { liveEn } from './live-en';
import { liveDe } from './live-de';
import { liveEs } from './live-es';
import { liveFr } from './live-fr';
import { livePt } from './live-pt';
import { liveIt } from './live-it';
import { errorsEn } from './errors-en';
import { errorsDe } from './errors-de';
import { errorsEs } from './errors-es';
import { errorsFr } from './errors-fr';
import { errorsPt } from './errors-pt';
import { errorsIt } from './errors-it';

/** Flattens nested strings to `a.b` keys. */
function flatten(tree: object, prefix = ''): Map<string, string> {
  const out = new Map<string, string>();
  for (const [key, value] of Object.entries(tree)) {
    const path = prefix ? `${prefix}.${key}` : key;
    if (typeof value === 'string') out.set(path, value);
    else for (const [k, v] of flatten(value as object, path)) out.set(k, v);
  }
  return out;
}

const variables = (text: string) => [...text.matchAll(/\{\{(\w+)\}\}/g)].map((match) => match[1]).sort();

// The first screens' strings (xx.ts), the live check's (live-xx.ts, loaded with the capture chunk)
// and the explanations of API refusals (errors-xx.ts, loaded when one is shown).
const SETS = [
  { name: 'core', reference: en as object, translations: { de, es, fr, pt, it: itLocale } as Record<string, object> },
  { name: 'live', reference: liveEn as object, translations: { de: liveDe, es: liveEs, fr: liveFr, pt: livePt, it: liveIt } as Record<string, object> },
  {
    name: 'errors',
    reference: errorsEn as object,
    translations: { de: errorsDe, es: errorsEs, fr: errorsFr, pt: errorsPt, it: errorsIt } as Record<string, object>,
  },
];

// The type system already makes every locale carry every key; this catches what types cannot:
// an empty string, a dropped or misspelt {{variable}}, and an English string left untranslated.
for (const set of SETS) {
  const reference = flatten(set.reference);
  describe.each(Object.entries(set.translations))(`${set.name} locale %s`, (_, locale) => {
    const strings = flatten(locale);
    test('has exactly the English keys', () => expect([...strings.keys()].sort()).toEqual([...reference.keys()].sort()));
    for (const [key, english] of reference) {
      test(key, () => {
        const text = strings.get(key) ?? '';
        expect(text.trim().length).toBeGreaterThan(0);
        expect(variables(text)).toEqual(variables(english));
      });
    }
    test('is translated, not copied', () => {
      // Short words such as "Sandbox" or German "Details" are legitimately the same in several languages.
      const wordsOf = (text: string) => text.replace(/\{\{\w+\}\}/g, '').trim();
      const copied = [...reference].filter(([key, english]) => strings.get(key) === english && wordsOf(english).length > 12);
      expect(copied).toEqual([]);
    });
  });
}

test('the lazily loaded strings do not repeat a key of the first screens or of each other (they merge into one tree)', () => {
  const core = flatten(en);
  const live = flatten(liveEn);
  const errors = flatten(errorsEn);
  expect([...live.keys()].filter((key) => core.has(key))).toEqual([]);
  expect([...errors.keys()].filter((key) => core.has(key) || live.has(key))).toEqual([]);
});
