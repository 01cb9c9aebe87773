import { expect, test } from 'bun:test';
import { addLiveTranslations, changeLanguage, currentLanguage, i18n, initI18n } from './i18n';
import { de } from './locales/de';
import { fr } from './locales/fr';
import { it as itLocale } from './locales/it';
import { liveDe } from './locales/live-de';
import { liveFr } from './locales/live-fr';
import { pt } from './locales/pt';

/** Stands in for `document`: i18n labels <html lang> and the title. */
const page = () => ({ documentElement: { lang: '' }, title: '' }) as unknown as Document & { documentElement: { lang: string } };

test('initI18n labels the page in the chosen language', () => {
  const doc = page();
  initI18n('pt', doc);
  expect(doc.documentElement.lang).toBe('pt');
  expect(doc.title).toBe(pt.app.title);
  expect(i18n.t('intro.heading')).toBe(pt.intro.heading);
});

test('changeLanguage switches every string, <html lang> and the title, without anything else (issue 23)', async () => {
  const doc = page();
  initI18n('de', doc);
  expect(i18n.t('intro.start')).toBe(de.intro.start);
  expect(await changeLanguage('fr', doc)).toBe(true);
  expect(currentLanguage()).toBe('fr');
  expect(doc.documentElement.lang).toBe('fr');
  expect(doc.title).toBe(fr.app.title);
  expect(i18n.t('intro.start')).toBe(fr.intro.start);
});

test("after the capture chunk asked for the live strings, a change loads the new language's live strings first", async () => {
  const doc = page();
  initI18n('de', doc);
  await addLiveTranslations();
  expect(i18n.t('camera.allow')).toBe(liveDe.camera.allow);
  let languageAtChange = '';
  const onChange = () => {
    // Elements render again on this event: the live strings must already be there.
    languageAtChange = i18n.t('camera.allow');
  };
  i18n.on('languageChanged', onChange);
  try {
    await changeLanguage('fr', doc);
  } finally {
    i18n.off('languageChanged', onChange);
  }
  expect(languageAtChange).toBe(liveFr.camera.allow);
  expect(i18n.t('stepUp.body')).toBe(liveFr.stepUp.body);
});

test('of two quick changes the later one wins, whatever order their strings arrive in', async () => {
  const doc = page();
  initI18n('en', doc);
  await addLiveTranslations();
  const first = changeLanguage('es', doc);
  const second = changeLanguage('it', doc);
  expect(await first).toBe(false);
  expect(await second).toBe(true);
  expect(currentLanguage()).toBe('it');
  expect(doc.documentElement.lang).toBe('it');
  expect(i18n.t('app.language')).toBe(itLocale.app.language);
});
