import { describe, expect, test } from 'bun:test';
import { en } from './en';
import { de } from './de';
import { es } from './es';
import { fr } from './fr';
import { pt } from './pt';
import { it as itLocale } from './it';

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

/** i18next's `{{name}}` and `{{name, format}}` placeholders, by name, sorted. */
const placeholders = (text: string) => [...text.matchAll(/\{\{\s*(\w+)\s*(?:,[^}]*)?\}\}/g)].map((match) => match[1]).sort();

/** Strings that are the same in every language: an example URL of the server's log. */
const SAME_IN_EVERY_LANGUAGE = new Set(['setup.logExample']);

const LOCALES = { de, es, fr, pt, it: itLocale } as Record<string, object>;
const reference = flatten(en);

// The type system already makes every locale carry every English key (each is typed `Translation`);
// this catches what types cannot: a key too many (an old or misspelt one), an empty string, a dropped,
// added or misspelt {{placeholder}}, and an English string left untranslated.
describe.each(Object.entries(LOCALES))('dashboard locale %s', (_, locale) => {
  const strings = flatten(locale);
  test('has exactly the English keys', () => expect([...strings.keys()].sort()).toEqual([...reference.keys()].sort()));
  test('every string is there and has the English placeholders', () => {
    const wrong = [...reference]
      .filter(([key, english]) => {
        const text = strings.get(key) ?? '';
        return text.trim() === '' || placeholders(text).join() !== placeholders(english).join();
      })
      .map(([key]) => `${key}: ${JSON.stringify(strings.get(key))}`);
    expect(wrong).toEqual([]);
  });
  test('is translated, not copied', () => {
    // Short words such as "Webhooks", "Sandbox" or "Team" are legitimately the same in several languages.
    const words = (text: string) => text.replace(/\{\{[^}]*\}\}/g, '').trim();
    const copied = [...reference].filter(([key, english]) => !SAME_IN_EVERY_LANGUAGE.has(key) && strings.get(key) === english && words(english).length > 12);
    expect(copied).toEqual([]);
  });
});

test('the placeholder reader finds names with and without a format', () => {
  expect(placeholders('{{b}} of {{a}}, {{ c, number }}')).toEqual(['a', 'b', 'c']);
});
