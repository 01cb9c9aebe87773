/**
 * One Portuguese: European Portuguese (pt-PT) in every Portuguese string of the verify UI
 * (issue 23; docs/decisions/0060-verify-ui-languages.md). The words and forms below are Brazilian
 * and read as such in Portugal; each has the pt-PT word the locales use instead.
 */
import { describe, expect, test } from 'bun:test';
import { errorsPt } from './errors-pt';
import { livePt } from './live-pt';
import { pt } from './pt';

function strings(tree: object, prefix = ''): Array<[string, string]> {
  return Object.entries(tree).flatMap(([key, value]) =>
    typeof value === 'string' ? [[`${prefix}${key}`, value] as [string, string]] : strings(value as object, `${prefix}${key}.`),
  );
}

const PORTUGUESE = [...strings(pt), ...strings(livePt, 'live:'), ...strings(errorsPt, 'errors:')];

/** A whole word, any case; \b would not do: it knows only ASCII letters, and "você" ends in ê. */
const word = (source: string) => new RegExp(`(?<!\\p{L})(?:${source})(?!\\p{L})`, 'iu');

/** Brazilian word or form → what pt-PT says. */
const BRAZILIAN_WORDS: Array<[string, string]> = [
  ['vocês?', 'the third person without a pronoun (pode, tem)'],
  ['celular(?:es)?', 'telemóvel'],
  ['telas?', 'ecrã'],
  ['câmeras?', 'câmara'],
  ['usuári[oa]s?', 'utilizador'],
  ['arquivos?', 'ficheiro'],
  ['baixar', 'transferir'],
  ['faturamento', 'faturação'],
  ['contato', 'contacto'],
  ['registro', 'registo'],
  ['escaneie', 'leia'],
  ['links?', 'ligação'],
  ['solicitaç(?:ão|ões)', 'pedido'],
  ['conectar', 'ligar / contactar'],
  ['conexão', 'ligação'],
  ['deu errado', 'ocorreu um erro'],
  ['não pode mais', 'já não pode'],
  ['carteira de (?:motorista|identidade)', 'carta de condução / cartão de identidade'],
];

// Brazilian Portuguese says "carregando"; European Portuguese "a carregar".
const GERUND = /(?<!\p{L})\p{L}+(?:ando|endo|indo)(?!\p{L})/giu;
const NOT_GERUNDS = new Set(['quando']);

// European Portuguese puts the article before a possessive: "a sua idade", not "sua idade".
const POSSESSIVE = /(?:(\p{L}+)\s+)?(?<!\p{L})(seu|sua|seus|suas)(?!\p{L})/giu;
const ARTICLES = new Set(['o', 'a', 'os', 'as', 'do', 'da', 'dos', 'das', 'no', 'na', 'nos', 'nas', 'ao', 'à', 'aos', 'às', 'pelo', 'pela', 'pelos', 'pelas']);

describe('the Portuguese strings are European Portuguese', () => {
  test('they exist (the test reads the real locales)', () => expect(PORTUGUESE.length).toBeGreaterThan(100));

  for (const [source, instead] of BRAZILIAN_WORDS) {
    test(`no "${source}" (pt-PT: ${instead})`, () => {
      expect(PORTUGUESE.filter(([, text]) => word(source).test(text)).map(([key]) => key)).toEqual([]);
    });
  }

  test('no gerund for an action in progress ("a carregar", not "carregando")', () => {
    const found = PORTUGUESE.flatMap(([key, text]) =>
      [...text.matchAll(GERUND)]
        .map((match) => match[0])
        .filter((word) => !NOT_GERUNDS.has(word.toLowerCase()))
        .map((word) => `${key}: ${word}`),
    );
    expect(found).toEqual([]);
  });

  test('a possessive has its article ("a sua idade", not "sua idade")', () => {
    const found = PORTUGUESE.flatMap(([key, text]) =>
      [...text.matchAll(POSSESSIVE)].filter((match) => !ARTICLES.has((match[1] ?? '').toLowerCase())).map((match) => `${key}: ${match[0].trim()}`),
    );
    expect(found).toEqual([]);
  });

  test('the checks above catch the Brazilian strings the locales had before (issue 23)', () => {
    const before = ['Carregando', 'sua verificação', 'Sem câmera aqui?', 'o celular', 'Você pode concluir', 'Escaneie este código QR', 'Copiar link'];
    const flagged = (text: string) =>
      BRAZILIAN_WORDS.some(([source]) => word(source).test(text)) ||
      [...text.matchAll(GERUND)].some((match) => !NOT_GERUNDS.has(match[0].toLowerCase())) ||
      [...text.matchAll(POSSESSIVE)].some((match) => !ARTICLES.has((match[1] ?? '').toLowerCase()));
    expect(before.filter((text) => !flagged(text))).toEqual([]);
    expect(['A carregar', 'a sua verificação', 'a câmara', 'o telemóvel', 'Pode concluir', 'Copiar ligação'].filter(flagged)).toEqual([]);
  });
});
