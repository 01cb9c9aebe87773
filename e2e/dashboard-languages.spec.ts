/**
 * The dashboard in six languages (issue 23, Deliver 3): a browser that prefers German (its
 * Accept-Language and navigator.languages, both from the context's locale) gets the sign-in page and
 * the app in German, dates and numbers the German way, from the first render on; the account menu
 * switches to French in place, every screen follows, and the choice survives a reload. axe-core on
 * the switched screens. The strings are written out here, not read from the locale files, so a
 * wrong or missing translation fails.
 */
import { expect, test } from './support/fixtures';
import type { BrowserContext, Page } from '@playwright/test';
import { expectNoSeriousA11yViolations } from './support/axe';
import { DashboardServer } from './support/dashboard-server';

test.describe.configure({ mode: 'serial' });

const OWNER = { tenantName: 'Bäckerei Acme', email: 'owner@acme.test', password: 'ein sehr gutes Passwort' };
const TIME_ZONE = 'Europe/Berlin';
/** A monthly allowance big enough to need a group separator: 25.000 in German, 25 000 in French. */
const ALLOWANCE = 25_000;

let server: DashboardServer;
let context: BrowserContext;
let page: Page;
/** The sandbox pair setup made, as the keys screen lists it. */
let pair: { publishableKey: string; createdAt: string };

test.beforeAll(async ({ browser, playwright, target }) => {
  test.setTimeout(180_000);
  server = await DashboardServer.start(target);
  const api = await playwright.request.newContext({ baseURL: server.url, extraHTTPHeaders: { origin: server.url } });
  const link = new URL(await server.setupLink());
  const setup = await api.post('/dashboard/api/setup', {
    data: { token: new URLSearchParams(link.hash.slice(1)).get('token'), ...OWNER },
  });
  expect(setup.status(), await setup.text()).toBe(201);
  const { tenantId } = (await setup.json()) as { tenantId: string };
  const keys = await api.get(`/dashboard/api/tenants/${tenantId}/keys`);
  expect(keys.status(), await keys.text()).toBe(200);
  [pair] = ((await keys.json()) as { pairs: Array<{ publishableKey: string; createdAt: string }> }).pairs as [typeof pair];
  await api.dispose();
  server.cli('plan', 'set', '--tenant', tenantId, '--code', 'pro', '--monthly', String(ALLOWANCE));

  // The browser's language setting: Playwright's locale sets navigator.languages and Accept-Language alike.
  context = await browser.newContext({ locale: 'de-DE', timezoneId: TIME_ZONE, viewport: { width: 1280, height: 900 } });
  // When <dash-app> gets defined, which language is the document in? English here would be a flash of English.
  await context.addInitScript(() => {
    void customElements.whenDefined('dash-app').then(() => {
      (window as unknown as { langAtFirstRender: string }).langAtFirstRender = document.documentElement.lang;
    });
  });
  page = await context.newPage();
});

test.afterAll(async () => {
  await context?.close();
  await server?.stop();
});

const heading = () => page.getByRole('heading', { level: 1 });
const navigation = (name: string) => page.getByRole('navigation', { name });
/** How the dashboard must show a date and a number in `locale`, by the same Intl rules as the browser. */
const dateIn = (locale: string, iso: string) =>
  new Intl.DateTimeFormat(locale, { dateStyle: 'medium', timeStyle: 'short', timeZone: TIME_ZONE }).format(new Date(iso));
const numberIn = (locale: string, value: number) => new Intl.NumberFormat(locale).format(value);
const createdCell = () => page.getByRole('row').filter({ hasText: pair.publishableKey }).getByRole('cell').nth(4);

test('a German browser gets the sign-in page and the overview in German, with German dates and numbers', async () => {
  const response = await page.goto(`${server.url}/dashboard/`);
  expect((await response!.request().allHeaders())['accept-language']).toMatch(/^de-DE\b/);
  expect(await page.evaluate(() => navigator.languages)).toEqual(['de-DE']);

  await expect(heading()).toHaveText('Anmelden');
  await expect(page.locator('html')).toHaveAttribute('lang', 'de');
  await expect(page).toHaveTitle('AgeVerify-Dashboard');
  expect(await page.evaluate(() => (window as unknown as { langAtFirstRender?: string }).langAtFirstRender)).toBe('de');
  await expectNoSeriousA11yViolations(page, 'sign-in (de)');

  // The dashboard's own words for a known refusal are German; the API's answer stays as it is.
  await page.getByLabel('E-Mail').fill(OWNER.email);
  await page.getByLabel('Passwort', { exact: true }).fill('falsches Passwort');
  await page.getByRole('button', { name: 'Anmelden' }).click();
  await expect(page.getByRole('alert')).toHaveText('Die E-Mail-Adresse oder das Passwort ist falsch.');

  await page.getByLabel('Passwort', { exact: true }).fill(OWNER.password);
  await page.getByRole('button', { name: 'Anmelden' }).click();
  await expect(heading()).toHaveText('Übersicht');
  await expect(page.getByTestId('overview-tenant')).toContainText(`Konto ${OWNER.tenantName}`);
  await expect(page.getByText('Live-Verifizierungen in diesem Monat')).toBeVisible();
  await expect(page.getByText(`0 von ${numberIn('de', ALLOWANCE)}`)).toBeVisible();
  expect(numberIn('de', ALLOWANCE)).toBe('25.000');
  await expect(page.getByRole('button', { name: `Konto: ${OWNER.email}` })).toBeVisible();
  await expect(page.getByText('Inhaber', { exact: true })).toBeVisible();
  await expectNoSeriousA11yViolations(page, 'overview (de)');

  await navigation('Dashboard').getByRole('link', { name: 'API-Schlüssel' }).click();
  await expect(heading()).toHaveText('API-Schlüssel');
  // 04.03.2025, 05:06: day, month, year with dots, 24-hour clock.
  expect(dateIn('de', pair.createdAt)).toMatch(/^\d\d\.\d\d\.\d{4}, \d\d:\d\d$/);
  await expect(createdCell()).toHaveText(dateIn('de', pair.createdAt));
});

test('the account menu switches to French in place; every screen follows and the choice survives a reload', async () => {
  // A page that reloads loses this mark.
  await page.evaluate(() => ((window as unknown as { notReloaded: boolean }).notReloaded = true));
  await page.getByRole('button', { name: `Konto: ${OWNER.email}` }).click();
  const languages = page.getByRole('group', { name: 'Sprache' });
  await expect(languages.getByRole('button')).toHaveText(['English', 'Deutsch', 'Español', 'Français', 'Português', 'Italiano']);
  await expect(languages.getByRole('button', { name: 'Deutsch' })).toHaveAttribute('aria-pressed', 'true');
  await expect(languages.getByRole('button', { name: 'Français' })).toHaveAttribute('lang', 'fr');
  await expectNoSeriousA11yViolations(page, 'account menu with the language switch (de)');

  // By keyboard: the switch is a button like any other, and focus stays on it afterwards. (Not
  // inside `languages`: the group's own name turns French too.)
  const french = page.getByRole('button', { name: 'Français' });
  await french.focus();
  await page.keyboard.press('Enter');

  await expect(heading()).toHaveText('Clés d’API');
  await expect(page.locator('html')).toHaveAttribute('lang', 'fr');
  await expect(page).toHaveTitle('Tableau de bord AgeVerify');
  await expect(french).toHaveAttribute('aria-pressed', 'true');
  await expect(french).toBeFocused();
  await expect(page.getByRole('group', { name: 'Langue' })).toBeVisible();
  await expect(page.getByRole('button', { name: `Compte : ${OWNER.email}` })).toBeVisible();
  await expect(navigation('Tableau de bord').getByRole('link', { name: 'Vue d’ensemble' })).toBeVisible();
  await expect(page.getByRole('columnheader', { name: 'Clé publiable' })).toBeVisible();
  await expect(createdCell()).toHaveText(dateIn('fr', pair.createdAt));
  expect(dateIn('fr', pair.createdAt)).toMatch(/^\d{1,2} [a-zéû]+\.? \d{4}, \d\d:\d\d$/);
  expect(await page.evaluate(() => (window as unknown as { notReloaded?: boolean }).notReloaded)).toBe(true);
  await expectNoSeriousA11yViolations(page, 'account menu and API keys (fr)');

  // Escape closes the menu; every screen is French now.
  await page.keyboard.press('Escape');
  const screens: Array<[link: string, title: string]> = [
    ['Vue d’ensemble', 'Vue d’ensemble'],
    ['Domaines autorisés', 'Domaines autorisés'],
    ['Webhooks', 'Webhooks'],
    ['Sessions', 'Sessions'],
    ['Équipe', 'Équipe'],
    ['E-mails', 'E-mails'],
  ];
  for (const [link, title] of screens) {
    await navigation('Tableau de bord').getByRole('link', { name: link, exact: true }).click();
    await expect(heading()).toHaveText(title);
    await expectNoSeriousA11yViolations(page, `${title} (fr)`);
  }
  await navigation('Tableau de bord').getByRole('link', { name: 'Vue d’ensemble' }).click();
  await expect(page.getByText(`0 sur ${numberIn('fr', ALLOWANCE)}`)).toBeVisible();
  expect(numberIn('fr', ALLOWANCE)).toBe('25\u202f000');
  await expect(page.getByText('Propriétaire', { exact: true })).toBeVisible();
  expect(await page.evaluate(() => (window as unknown as { notReloaded?: boolean }).notReloaded)).toBe(true);

  // The choice is this browser's: a reload, and the sign-in page after signing out, stay French.
  await page.reload();
  await expect(heading()).toHaveText('Vue d’ensemble');
  await expect(page.locator('html')).toHaveAttribute('lang', 'fr');
  expect(await page.evaluate(() => (window as unknown as { langAtFirstRender?: string }).langAtFirstRender)).toBe('fr');
  await page.getByRole('button', { name: `Compte : ${OWNER.email}` }).click();
  await page.getByRole('button', { name: 'Se déconnecter' }).click();
  await expect(heading()).toHaveText('Connexion');
  await expect(page.getByLabel('Mot de passe', { exact: true })).toBeVisible();
  await expectNoSeriousA11yViolations(page, 'sign-in (fr)');
});

test('switching back to the browser language and to Portuguese (pt-PT) works the same way', async () => {
  await page.getByLabel('E-mail').fill(OWNER.email);
  await page.getByLabel('Mot de passe', { exact: true }).fill(OWNER.password);
  await page.getByRole('button', { name: 'Se connecter' }).click();
  await expect(heading()).toHaveText('Vue d’ensemble');
  await page.getByRole('button', { name: `Compte : ${OWNER.email}` }).click();
  await page.getByRole('group', { name: 'Langue' }).getByRole('button', { name: 'Português' }).click();
  await expect(heading()).toHaveText('Visão geral');
  await expect(page.locator('html')).toHaveAttribute('lang', 'pt-PT');
  await expect(page.getByRole('button', { name: 'Terminar sessão' })).toBeVisible();
  await expect(page.getByText(`0 de ${numberIn('pt-PT', ALLOWANCE)}`)).toBeVisible();
  await expectNoSeriousA11yViolations(page, 'overview with the menu open (pt-PT)');
  await page.getByRole('group', { name: 'Idioma' }).getByRole('button', { name: 'Deutsch' }).click();
  await expect(heading()).toHaveText('Übersicht');
  await expect(page.locator('html')).toHaveAttribute('lang', 'de');
});
