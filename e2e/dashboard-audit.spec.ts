/**
 * The audit trail in Chromium (issue 23, Deliver 4, Acceptance): a key pair revoked in the dashboard
 * appears in the trail with who revoked it, from where and what changed; its CSV export contains the
 * entry; a change made with the CLI appears with the actor "cli"; axe finds no serious or critical
 * violation on the screen. On a backend of its own, on each database target.
 */
import { expect, test } from './support/fixtures';
import type { BrowserContext, Page } from '@playwright/test';
import { DashboardAuditPage } from './pages/dashboard-audit-page';
import { DashboardKeysPage } from './pages/dashboard-keys-page';
import { DashboardPage } from './pages/dashboard-page';
import { expectNoSeriousA11yViolations } from './support/axe';
import { DashboardServer } from './support/dashboard-server';

test.describe.configure({ mode: 'serial' });

const OWNER = { tenantName: 'Audit Shop', name: 'Ada Owner', email: 'ada@audit.test', password: 'correct horse battery' };
const CSV_HEADER = 'occurredAt,action,actorType,actorEmail,actorUserId,ip,targetId,targetLabel,changes,entryId';

let server: DashboardServer;
let context: BrowserContext;
let page: Page;
let dashboard: DashboardPage;
let audit: DashboardAuditPage;
let tenantId = '';
let ownerId = '';

test.beforeAll(async ({ browser, target }) => {
  test.setTimeout(180_000);
  server = await DashboardServer.start(target);
  context = await browser.newContext({ viewport: { width: 1280, height: 900 }, acceptDownloads: true });
  page = await context.newPage();
  dashboard = new DashboardPage(page, server.url);
  audit = new DashboardAuditPage(page);
  await dashboard.completeSetup(await server.setupLink(), OWNER);
  const me = await dashboard.api('GET', '/me');
  tenantId = me.body.tenants[0].tenantId;
  ownerId = me.body.user.id;
});

test.afterAll(async () => {
  await context?.close();
  await server?.stop();
});

test('a revoked key pair appears in the audit trail with who, where and what; the CSV export contains it', async () => {
  await dashboard.open('API keys');
  const keysPage = new DashboardKeysPage(page);
  const keys = await keysPage.create('live', 'Checkout');
  await keysPage.revoke(keys.publishableKey);
  const pairs = await dashboard.api('GET', `/tenants/${tenantId}/keys`);
  const pairId = (pairs.body.pairs as Array<{ pairId: string; publishableKey: string }>).find((pair) => pair.publishableKey === keys.publishableKey)!.pairId;

  await dashboard.open('Audit trail');
  const revoked = audit.row('Key pair revoked');
  await expect(revoked).toHaveCount(1);
  for (const text of [OWNER.email, '127.0.0.1', 'key.revoked', 'Checkout', pairId, 'revoked: — → pair']) await expect(revoked).toContainText(text);
  // Setup's own entries are there too, made by the owner it created.
  await expect(audit.row('Account created')).toContainText(OWNER.email);
  await expectNoSeriousA11yViolations(page, 'audit trail');

  await audit.filter({ action: 'key.revoked' });
  await expect(audit.rows).toHaveCount(1);
  await expect(audit.rows.first()).toContainText('Key pair revoked');
  await expectNoSeriousA11yViolations(page, 'audit trail, filtered');

  const { download, text } = await audit.download('CSV');
  expect(download.suggestedFilename()).toBe('audit.csv');
  const lines = text.trimEnd().split('\r\n');
  expect(lines[0]).toBe(CSV_HEADER);
  // Only the filtered entry: the revocation, by the owner, from the browser's address.
  expect(lines).toHaveLength(2);
  expect(lines[1]).toContain(`,key.revoked,user,${OWNER.email},${ownerId},127.0.0.1,${pairId},Checkout,`);
  expect(lines[1]).toContain('""revoked"":{""from"":null,""to"":""pair""}');
  // The secret key was shown once; it is nowhere in the trail.
  expect(text).not.toContain(keys.secretKey);

  const jsonl = await audit.download('JSON lines');
  expect(jsonl.download.suggestedFilename()).toBe('audit.jsonl');
  const entries = jsonl.text
    .trimEnd()
    .split('\n')
    .map((line) => JSON.parse(line));
  expect(entries).toEqual([
    expect.objectContaining({
      action: 'key.revoked',
      actor: { type: 'user', userId: ownerId, email: OWNER.email },
      targetId: pairId,
      changes: { revoked: { from: null, to: 'pair' } },
    }),
  ]);
});

test('a change made with the CLI appears with the actor "cli"; a bad filter says what is wrong', async () => {
  server.cli('domains', 'add', '--tenant', tenantId, '--domain', 'cli-added.example.com');
  await dashboard.open('Overview');
  await dashboard.open('Audit trail');
  await audit.filter({ action: '', actor: 'cli' });
  await expect(audit.rows).toHaveCount(1);
  await expect(audit.rows.first()).toContainText('Domain added');
  await expect(audit.rows.first()).toContainText('Command line (cli)');
  await expect(audit.rows.first()).toContainText('cli-added.example.com');

  await audit.filter({ actor: 'somebody' });
  await expect(dashboard.alert).toContainText('actor must be cli, system, a user id (usr_…) or an email address');
  await expectNoSeriousA11yViolations(page, 'audit trail, refused filter');
});
