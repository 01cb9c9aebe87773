/**
 * The dashboard's traffic charts in Chromium (issue 23, Deliver 2), against a backend of its own:
 * a known set of sessions (sandbox: verified, validated, failed, cancelled, expired, pending; live:
 * one L1 session that steps up to a passport) and webhook deliveries (delivered, and not delivered
 * while the endpoint was disabled). The overview's counters and the charts' table views must show
 * the API's figures, and those the known set; the webhook pages likewise. Chart.js, loaded on
 * demand, must draw under the dashboard's CSP (no inline scripts or styles) without one violation,
 * and axe must find nothing serious or critical.
 */
import type { APIRequestContext, BrowserContext, Locator, Page } from '@playwright/test';
import type { SessionTrafficResponse, WebhookTrafficResponse } from '@ageverify/protocol';
import { DashboardKeysPage } from './pages/dashboard-keys-page';
import { DashboardPage } from './pages/dashboard-page';
import { DashboardWebhooksPage } from './pages/dashboard-webhooks-page';
import { VerifyPage } from './pages/verify-page';
import { expectNoSeriousA11yViolations } from './support/axe';
import { DashboardServer } from './support/dashboard-server';
import { engineAvailable } from './support/engine';
import { fakeCameraLaunchOptions, findFixtureImage } from './support/fake-camera';
import { captureSelfie, useLivenessCamera } from './support/liveness-camera';
import { expect, test } from './support/fixtures';

test.describe.configure({ mode: 'serial' });
// The live session's L1 check takes its selfie from Chromium's fake camera.
test.use({ launchOptions: fakeCameraLaunchOptions('astronaut') });

const OWNER = { tenantName: 'Chart Shop', name: 'Cleo Owner', email: 'cleo@charts.test', password: 'correct horse battery' };
const HOOK_PATH = '/hooks/charts';
const PASSPORT = findFixtureImage('passport');
const STATUSES = ['VERIFIED', 'FAILED', 'CANCELLED', 'EXPIRED', 'PENDING'] as const;

let server: DashboardServer;
let context: BrowserContext;
let page: Page;
let dashboard: DashboardPage;
let tenantId = '';
let endpointUrl = '';
const keys: { sandbox?: { secretKey: string }; live?: { secretKey: string } } = {};
/** Whether the live L1 → passport session was made (it needs the verification engine). */
let steppedUp = false;
/** The known set's one cancelled session. */
let cancelledSessionId = '';
/** Every console error of the dashboard's page (CSP violations are also counted in the page itself). */
const consoleErrors: string[] = [];
/** The path of every script the dashboard's page fetched. */
const scriptsLoaded: string[] = [];

test.beforeAll(async ({ browser, target }) => {
  test.setTimeout(180_000);
  server = await DashboardServer.start(target);
  context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
  // Injected by Playwright before the page's scripts, so the page's CSP does not govern it.
  await context.addInitScript(() => {
    const seen: string[] = [];
    (window as unknown as { __cspViolations: string[] }).__cspViolations = seen;
    document.addEventListener(
      'securitypolicyviolation',
      (event) => seen.push(`${event.violatedDirective} ${event.blockedURI} ${event.sourceFile}:${event.lineNumber}`),
      true,
    );
  });
  page = await context.newPage();
  page.on('console', (message) => {
    if (message.type() === 'error') consoleErrors.push(message.text());
  });
  page.on('request', (request) => {
    if (request.resourceType() === 'script') scriptsLoaded.push(new URL(request.url()).pathname);
  });
  dashboard = new DashboardPage(page, server.url);
  keys.sandbox = await dashboard.completeSetup(await server.setupLink(), OWNER);
  tenantId = (await dashboard.api('GET', '/me')).body.tenants[0].tenantId;
  await dashboard.open('API keys');
  keys.live = await new DashboardKeysPage(page).create('live');
  await dashboard.open('Webhooks');
  endpointUrl = server.receiver.url(HOOK_PATH);
  await new DashboardWebhooksPage(page).create(endpointUrl, [
    'session.started',
    'verification.completed',
    'verification.failed',
    'verification.cancelled',
    'session.timeout',
  ]);
});

test.afterAll(async () => {
  await context?.close();
  await server?.stop();
});

interface Created {
  sessionId: string;
  sessionToken: string;
  verifyUrl: string;
}

async function createSession(request: APIRequestContext, secretKey: string, body: Record<string, unknown> = {}): Promise<Created> {
  const response = await request.post(`${server.url}/api/v1/sessions/create`, {
    headers: { authorization: `Bearer ${secretKey}` },
    data: { returnUrl: `${server.url}/done`, ...body },
  });
  expect(response.status(), await response.text()).toBe(201);
  return (await response.json()) as Created;
}

async function verifyApi(request: APIRequestContext, path: 'session' | 'simulate', session: Created, extra: Record<string, unknown> = {}) {
  const response = await request.post(`${server.url}/api/v1/verify/${path}`, {
    data: { sessionId: session.sessionId, sessionToken: session.sessionToken, ...extra },
  });
  expect(response.status(), await response.text()).toBe(200);
}

async function sessionStats(query = ''): Promise<SessionTrafficResponse> {
  const answer = await dashboard.api('GET', `/tenants/${tenantId}/stats/sessions${query}`);
  expect(answer.status).toBe(200);
  return answer.body as SessionTrafficResponse;
}

async function webhookStats(query = ''): Promise<WebhookTrafficResponse> {
  const answer = await dashboard.api('GET', `/tenants/${tenantId}/stats/webhooks${query}`);
  expect(answer.status).toBe(200);
  return answer.body as WebhookTrafficResponse;
}

/** A UTC day as the dashboard writes it in English ("May 18"), for finding its row in a table. */
const dayLabel = (day: string) => new Intl.DateTimeFormat('en', { day: 'numeric', month: 'short', timeZone: 'UTC' }).format(new Date(`${day}T00:00:00Z`));

/** The table view's body rows: the header cell, then the value cells, as text. */
async function tableRows(chart: Locator): Promise<string[][]> {
  return chart.locator('tbody tr').evaluateAll((rows) => rows.map((row) => [...row.children].map((cell) => cell.textContent?.trim() ?? '')));
}

/** Opens the table view with the keyboard: Tab stops on the toggle, Enter presses it. */
async function showTable(chart: Locator): Promise<void> {
  const toggle = chart.getByRole('button', { name: 'Show as table' });
  await toggle.focus();
  await page.keyboard.press('Enter');
  await expect(toggle).toHaveAttribute('aria-pressed', 'true');
  await expect(chart.getByRole('table')).toBeVisible();
}

/** Whether Chart.js painted the chart's canvas: it has a size and pixels that are not blank. */
async function expectDrawn(chart: Locator): Promise<void> {
  const canvas = chart.getByTestId('chart-canvas');
  await expect(canvas).toHaveAttribute('role', 'img');
  await expect
    .poll(
      () =>
        canvas.evaluate((element: HTMLCanvasElement) => {
          if (element.width === 0 || element.height === 0) return 0;
          const pixels = element.getContext('2d')!.getImageData(0, 0, element.width, element.height).data;
          let painted = 0;
          for (let i = 3; i < pixels.length; i += 4) if (pixels[i]! > 0) painted++;
          return painted;
        }),
      { timeout: 15_000 },
    )
    .toBeGreaterThan(500);
}

async function expectNoCspViolation(): Promise<void> {
  const inPage = await page.evaluate(() => (window as unknown as { __cspViolations: string[] }).__cspViolations);
  expect(inPage, 'securitypolicyviolation events').toEqual([]);
  expect(
    consoleErrors.filter((text) => /content security policy|refused to/i.test(text)),
    'CSP errors on the console',
  ).toEqual([]);
}

test('a known set of sandbox sessions and webhook deliveries, one of them while the endpoint is disabled', async ({ request, browser }) => {
  test.setTimeout(120_000);
  const sandboxKey = keys.sandbox!.secretKey;
  // Verified through the verify UI itself (opened), then validated by the merchant's server.
  const validated = await createSession(request, sandboxKey);
  const verifyContext = await browser.newContext();
  const verifyTab = await verifyContext.newPage();
  await verifyTab.goto(validated.verifyUrl);
  const sandboxUi = new VerifyPage(verifyTab, server.url);
  await sandboxUi.start();
  await sandboxUi.simulate('verified');
  await verifyTab.waitForURL(/\/done\?/);
  await verifyContext.close();
  const validation = await request.post(`${server.url}/api/v1/sessions/validate`, {
    headers: { authorization: `Bearer ${sandboxKey}` },
    data: { sessionId: validated.sessionId },
  });
  expect(validation.status()).toBe(200);
  // Verified through the simulate API alone: never opened.
  await verifyApi(request, 'simulate', await createSession(request, sandboxKey), { outcome: 'verified' });
  // Failed: one opened first, one not.
  const failedOpened = await createSession(request, sandboxKey);
  await verifyApi(request, 'session', failedOpened);
  await verifyApi(request, 'simulate', failedOpened, { outcome: 'failed' });
  await verifyApi(request, 'simulate', await createSession(request, sandboxKey), { outcome: 'failed' });
  // Cancelled, opened first.
  const cancelled = await createSession(request, sandboxKey);
  await verifyApi(request, 'session', cancelled);
  await verifyApi(request, 'simulate', cancelled, { outcome: 'cancelled' });
  cancelledSessionId = cancelled.sessionId;

  // While the endpoint is disabled its events are recorded as not delivered.
  const webhooks = new DashboardWebhooksPage(page);
  await dashboard.open('Webhooks');
  await webhooks.openEndpoint(endpointUrl);
  await page.getByRole('button', { name: 'Disable' }).click();
  await expect(webhooks.state).toHaveText('Disabled');
  const expiring = await createSession(request, sandboxKey);
  await expect.poll(async () => (await webhookStats()).totals.counts.undelivered).toBe(1);
  await page.getByRole('button', { name: 'Enable' }).click();
  await expect(webhooks.state).toHaveText('Active');

  // Eleven minutes later that session is past its deadline; one more is created and left pending.
  server.setClockOffset(11 * 60 * 1000);
  await expect.poll(async () => (await sessionStats('?sandbox=true')).totals.EXPIRED, { timeout: 30_000 }).toBe(1);
  await createSession(request, sandboxKey);
  // The sweeper's session.timeout for it reaches the receiver (its delivery was made once enabled).
  await expect
    .poll(async () => (await server.receiver.requests(HOOK_PATH)).some((r) => r.text.includes('session.timeout') && r.text.includes(expiring.sessionId)), {
      timeout: 60_000,
    })
    .toBe(true);

  const stats = await sessionStats('?sandbox=true');
  expect(stats.totals).toEqual({ VERIFIED: 2, FAILED: 2, CANCELLED: 1, EXPIRED: 1, PENDING: 1, total: 7 });
  expect(stats.funnel).toEqual({ created: 7, opened: 3, captured: 0, decided: 4, validated: 1 });
});

test('a live L1 session steps up to a passport and is verified (the step-up figures)', async ({ request }) => {
  test.setTimeout(240_000);
  test.skip(!PASSPORT || !(await engineAvailable(request, server.url)), 'Needs the verification engine and its passport fixture.');
  // challengeAge 99: the adult face's estimate is inconclusive, so the session steps up (tenant default).
  const session = await createSession(request, keys.live!.secretKey, { verificationMode: 'L1', challengeAge: 99, faceMatchEnabled: false });
  const verifyTab = await context.newPage();
  // A live head following the liveness challenge (issue 19): a still picture would only get retries.
  await useLivenessCamera(verifyTab);
  const verify = new VerifyPage(verifyTab, server.url);
  await verifyTab.goto(session.verifyUrl);
  await verify.start();
  await verify.allowCamera('selfie-camera');
  await captureSelfie(verifyTab);
  await expect(verifyTab.getByTestId('step-up-reason')).toBeVisible({ timeout: 120_000 });
  await verifyTab.getByTestId('step-up-continue').click();
  await verify.chooseDocument('passport');
  await verifyTab.getByTestId('camera-allow').click();
  await verifyTab.getByTestId('upload-instead').click();
  await verify.uploadPhoto(PASSPORT!);
  await expect(verifyTab.getByTestId('result-heading')).toBeVisible({ timeout: 120_000 });
  await verifyTab.close();
  const stats = await sessionStats('?sandbox=false');
  expect(stats.funnel).toEqual({ created: 1, opened: 1, captured: 1, decided: 1, validated: 0 });
  expect(stats.stepUp).toEqual({ l1Sessions: 1, estimated: 1, steppedUp: 1, finished: 1, verified: 1 });
  steppedUp = true;
});

test('overview: the counters and the charts’ tables show the API’s figures and the known set; Chart.js draws under the CSP', async () => {
  await dashboard.open('Overview');
  const traffic = page.getByTestId('session-traffic');
  await expect(traffic.getByTestId('traffic-count-total')).toHaveText(steppedUp ? '8' : '7');

  const stats = await sessionStats();
  // The known set: seven sandbox sessions and, with the engine, the stepped-up live one.
  expect(stats.totals).toEqual({ VERIFIED: steppedUp ? 3 : 2, FAILED: 2, CANCELLED: 1, EXPIRED: 1, PENDING: 1, total: steppedUp ? 8 : 7 });
  for (const status of STATUSES) await expect(traffic.getByTestId(`traffic-count-${status}`)).toHaveText(String(stats.totals[status]));

  const perDay = traffic.getByTestId('sessions-per-day-chart');
  const funnel = traffic.getByTestId('funnel-chart');
  await expectDrawn(perDay);
  await expectDrawn(funnel);
  // Chart.js came as a chunk of its own, apart from the page's bundle.
  const loaded = new Set(scriptsLoaded);
  expect([...loaded].filter((path) => /^\/dashboard\/assets\/chart-canvas-[\w-]+\.js$/.test(path))).toHaveLength(1);
  expect([...loaded].filter((path) => /^\/dashboard\/assets\/dashboard-[\w-]+\.js$/.test(path))).toHaveLength(1);
  await expect(perDay.getByTestId('chart-canvas')).toHaveAttribute(
    'aria-label',
    new RegExp(`^Sessions per day by status\\. ${stats.totals.total} sessions from `),
  );

  await showTable(perDay);
  await expect(perDay.getByTestId('chart-canvas')).toBeHidden();
  const rows = await tableRows(perDay);
  expect(rows).toHaveLength(30);
  // One row per day: Day, Verified, Failed, Cancelled, Expired, Pending, Total, as the API counts them.
  expect(rows).toEqual(stats.perDay.map((day) => [dayLabel(day.day), ...STATUSES.map((status) => String(day.counts[status])), String(day.total)]));
  const columnTotals = STATUSES.map((_, column) => rows.reduce((sum, row) => sum + Number(row[column + 1]), 0));
  expect(columnTotals).toEqual(STATUSES.map((status) => stats.totals[status]));

  await showTable(funnel);
  const created = stats.funnel.created;
  const share = (n: number) => `${Math.round((100 * n) / created)}%`;
  expect(await tableRows(funnel)).toEqual([
    ['Created', String(created), '100%'],
    ['Opened by the user', String(stats.funnel.opened), share(stats.funnel.opened)],
    ['Picture taken', String(stats.funnel.captured), share(stats.funnel.captured)],
    ['Decided (verified or failed)', String(stats.funnel.decided), share(stats.funnel.decided)],
    ['Validated by your server', String(stats.funnel.validated), share(stats.funnel.validated)],
  ]);
  expect(stats.funnel).toEqual(
    steppedUp ? { created: 8, opened: 4, captured: 1, decided: 5, validated: 1 } : { created: 7, opened: 3, captured: 0, decided: 4, validated: 1 },
  );
  // Every session of the set is L1 (the tenant's default); only the live one had a face estimate.
  await expect(traffic.getByTestId('step-up-l1')).toHaveText(steppedUp ? '8' : '7');
  await expect(traffic.getByTestId('step-up-estimated')).toHaveText(steppedUp ? '1' : '0');
  await expect(traffic.getByTestId('step-up-stepped')).toHaveText(steppedUp ? '1 (100%)' : '0 (—)');
  await expect(traffic.getByTestId('step-up-finished')).toHaveText(steppedUp ? '1 (100%)' : '0 (—)');
  await expectNoSeriousA11yViolations(page, 'overview with the traffic tables shown');

  // Sandbox only: the same screen, filtered; the table follows.
  await traffic.getByLabel('Sessions', { exact: true }).selectOption('sandbox');
  await expect(traffic.getByTestId('traffic-count-total')).toHaveText('7');
  await expect(traffic.getByTestId('traffic-count-VERIFIED')).toHaveText('2');
  // Back to the picture: drawn again at its size.
  await perDay.getByRole('button', { name: 'Show as table' }).click();
  await expectDrawn(perDay);
  await expectNoSeriousA11yViolations(page, 'overview with the charts drawn');
  await expectNoCspViolation();
});

test('webhooks: deliveries per day by result and latency, for every endpoint and for one, match the API and the receiver', async () => {
  const received = await server.receiver.requests(HOOK_PATH);
  const receivedEvents = new Set(received.map((r) => r.eventId));
  // Every delivery settled: delivered ones are those the receiver got, one was not delivered.
  await expect
    .poll(async () => {
      const { totals } = await webhookStats();
      return [totals.counts.pending, totals.counts.undelivered];
    })
    .toEqual([0, 1]);
  const stats = await webhookStats();
  expect(stats.totals.counts.delivered).toBe(receivedEvents.size);
  // Each event: started, plus a completion or a timeout, less the one sent while disabled.
  expect(stats.totals.total).toBe(steppedUp ? 15 : 13);
  expect(stats.totals.attempts).toBeGreaterThanOrEqual(stats.totals.counts.delivered);
  expect(stats.totals.latencyMedianMs).not.toBeNull();

  await dashboard.open('Webhooks');
  const traffic = page.getByTestId('delivery-traffic');
  await expect(traffic.getByTestId('delivery-count-delivered')).toHaveText(String(stats.totals.counts.delivered));
  await expect(traffic.getByTestId('delivery-count-undelivered')).toHaveText('1');
  await expect(traffic.getByTestId('delivery-latency-median')).toHaveText(`${stats.totals.latencyMedianMs} ms`);
  const deliveries = traffic.getByTestId('deliveries-per-day-chart');
  const latency = traffic.getByTestId('latency-chart');
  await expectDrawn(deliveries);
  await expectDrawn(latency);
  await showTable(deliveries);
  expect(await tableRows(deliveries)).toEqual(
    stats.perDay.map((day) => [
      dayLabel(day.day),
      String(day.counts.delivered),
      String(day.counts.undelivered),
      String(day.counts.pending),
      String(day.total),
      String(day.attempts),
      String(day.failedAttempts),
    ]),
  );
  await showTable(latency);
  const ms = (value: number | null) => (value === null ? '—' : `${value} ms`);
  expect(await tableRows(latency)).toEqual(stats.perDay.map((day) => [dayLabel(day.day), ms(day.latencyMedianMs), ms(day.latencyP95Ms), String(day.attempts)]));
  await expectNoSeriousA11yViolations(page, 'webhooks with the delivery tables shown');

  // The endpoint's own page: the same figures, as it is the only endpoint.
  await new DashboardWebhooksPage(page).openEndpoint(endpointUrl);
  const endpointId = (await dashboard.api('GET', `/tenants/${tenantId}/webhooks`)).body.endpoints[0].endpointId as string;
  const one = await webhookStats(`?endpointId=${endpointId}`);
  expect(one.totals).toEqual(stats.totals);
  const endpointTraffic = page.getByTestId('delivery-traffic');
  await expect(endpointTraffic.getByTestId('delivery-count-total')).toHaveText(String(one.totals.total));
  await expectDrawn(endpointTraffic.getByTestId('deliveries-per-day-chart'));
  await showTable(endpointTraffic.getByTestId('deliveries-per-day-chart'));
  const today = one.perDay.at(-1)!;
  const todayRow = (await tableRows(endpointTraffic.getByTestId('deliveries-per-day-chart'))).at(-1)!;
  expect(todayRow.slice(0, 5)).toEqual([
    dayLabel(today.day),
    String(today.counts.delivered),
    String(today.counts.undelivered),
    String(today.counts.pending),
    String(today.total),
  ]);
  await expectNoSeriousA11yViolations(page, 'webhook endpoint with its delivery traffic');
  await expectNoCspViolation();
});

test('sessions: Cancelled is its own status and filter; the overview\u2019s usage this month equals the sessions listed for the month', async () => {
  await dashboard.open('Sessions');
  await page.getByLabel('Status').selectOption({ label: 'Cancelled' });
  await page.getByRole('button', { name: 'Apply' }).click();
  const rows = page.getByRole('table').getByRole('row');
  // The header row and the known set's one cancelled session.
  await expect(rows).toHaveCount(2);
  await expect(rows.nth(1)).toContainText(cancelledSessionId);
  await expect(rows.nth(1)).toContainText('Cancelled');
  const listed = await dashboard.api('GET', `/tenants/${tenantId}/sessions?status=CANCELLED`);
  expect(listed.body.sessions.map((session: { sessionId: string }) => session.sessionId)).toEqual([cancelledSessionId]);
  await expectNoSeriousA11yViolations(page, 'sessions filtered by Cancelled');

  // Deliver 1: every session of the month counts, on a plan without an allowance too. Each list
  // is paged through; the known set was made today, so all of it is in this month.
  const month = new Date().toISOString().slice(0, 7);
  const countListed = async (sandbox: boolean) => {
    let count = 0;
    let cursor = '';
    do {
      const answer = await dashboard.api('GET', `/tenants/${tenantId}/sessions?sandbox=${sandbox}${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`);
      count += answer.body.sessions.filter((session: { createdAt: string }) => session.createdAt.startsWith(month)).length;
      cursor = answer.body.nextCursor ?? '';
    } while (cursor);
    return count;
  };
  const overview = (await dashboard.api('GET', `/tenants/${tenantId}/overview`)).body;
  expect(overview.plan.sandboxUsedThisMonth).toBe(await countListed(true));
  expect(overview.plan.usedThisMonth).toBe(await countListed(false));
  await dashboard.open('Overview');
  const shown = (used: number) => new RegExp(`^${used.toLocaleString('en')}( of [\\d,]+| \\(no monthly limit\\))$`);
  await expect(page.getByText(shown(overview.plan.sandboxUsedThisMonth)).first()).toBeVisible();
  await expect(page.getByText(shown(overview.plan.usedThisMonth)).first()).toBeVisible();
});
