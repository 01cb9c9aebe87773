/**
 * The README's first minutes, followed as written: the set-up section's start command, then the
 * quickstart's commands (parsed from README.md's fenced blocks, so the README cannot drift from
 * what works). Ports and folders are the only substitutions: a free port for 3000 and 4000, a
 * throwaway DATA_DIR, and the keys and session ids the earlier steps printed for the `…`
 * placeholders. The browser steps (click "Verify my age", pick "verified") are done with the same
 * HTTP calls the SDK and the sandbox buttons make.
 */
import { afterAll, expect, test } from 'bun:test';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { freePort } from '../backend/src/testing/free-port';

const root = join(import.meta.dir, '..');
const readme = readFileSync(join(root, 'README.md'), 'utf8');
const cleanup: Array<() => void | Promise<void>> = [];
afterAll(async () => {
  for (const step of cleanup.reverse()) await step();
});

/** The fenced sh blocks of the `## heading` section, as command lines (comments and continuations joined). */
export function commandsOf(markdown: string, heading: string): string[] {
  const start = markdown.indexOf(`\n## ${heading}`);
  if (start === -1) throw new Error(`README has no section "## ${heading}"`);
  const end = markdown.indexOf('\n## ', start + 1);
  const section = markdown.slice(start, end === -1 ? undefined : end);
  return [...section.matchAll(/```sh\n([\s\S]*?)```/g)].flatMap((block) =>
    block[1]!
      .replace(/\\\n\s*/g, '')
      .split('\n')
      .map((line) => line.trim())
      .filter((line) => line.length > 0 && !line.startsWith('#')),
  );
}

async function waitForLine(stream: ReadableStream<Uint8Array>, pattern: RegExp, timeoutMs: number): Promise<string> {
  const reader = stream.getReader();
  const decoder = new TextDecoder();
  let text = '';
  const deadline = Date.now() + timeoutMs;
  while (!pattern.test(text)) {
    if (Date.now() > deadline) throw new Error(`no ${pattern} within ${timeoutMs} ms; got:\n${text}`);
    const { value, done } = await reader.read();
    if (done) throw new Error(`stream ended before ${pattern}; got:\n${text}`);
    text += decoder.decode(value);
  }
  reader.releaseLock();
  return text;
}

test('the README keeps exactly two set-up commands: one starts the service, one runs the whole suite', () => {
  const setup = commandsOf(readme, 'Set up on a fresh machine');
  expect(setup).toHaveLength(2);
  expect(setup[0]).toEndWith('&& bun run start');
  expect(setup[1]).toEndWith('&& bun run test');
  // The quickstart comes right after them.
  const headings = [...readme.matchAll(/^## (.+)$/gm)].map((match) => match[1]!);
  expect(headings.indexOf('Quickstart: a verified session, end to end')).toBe(headings.indexOf('Set up on a fresh machine (only Node and npm needed)') + 1);
});

/**
 * The README's ports 3000 (service) and 4000 (demo shop) replaced by the run's, in one pass:
 * replaced one after the other, a service port such as 40009 read as 'localhost:4000' + '9' and
 * was rewritten as the demo's.
 */
export function withPorts(command: string, servicePort: number, demoPort: number): string {
  return command.replace(/localhost:(3000|4000)\b/g, (_, port) => `localhost:${port === '3000' ? servicePort : demoPort}`);
}

test('the README ports are replaced once each, whatever the run ports are', () => {
  const command = 'curl -s localhost:3000/api/v1/sessions/create -d \'{"returnUrl":"http://localhost:4000/return"}\'';
  expect(withPorts(command, 40009, 41905)).toBe('curl -s localhost:40009/api/v1/sessions/create -d \'{"returnUrl":"http://localhost:41905/return"}\'');
  expect(withPorts('localhost:30001', 40009, 41905)).toBe('localhost:30001');
});

interface Run {
  servicePort: number;
  demoPort: number;
  env: Record<string, string>;
  ports: (command: string) => string;
}

function scratchRun(): Run {
  const servicePort = freePort();
  const demoPort = freePort();
  const dataDir = mkdtempSync(join(tmpdir(), 'readme-quickstart-'));
  cleanup.push(() => rmSync(dataDir, { recursive: true, force: true }));
  const env: Record<string, string> = {
    ...(process.env as Record<string, string>),
    PORT: String(servicePort),
    HOST: '127.0.0.1',
    DATA_DIR: join(dataDir, 'data'),
    DEMO_PORT: String(demoPort),
    DEMO_WEBHOOK_PORT: String(freePort()),
    DEMO_KEYS_FILE: join(dataDir, 'demo-keys.json'),
    DEMO_TLS_DIR: join(dataDir, 'tls'),
    LOG_LEVEL: 'warn',
  };
  delete env.DATABASE_URL;
  const ports = (command: string) => withPorts(command, servicePort, demoPort);
  return { servicePort, demoPort, env, ports };
}

/** `exec`: the SIGTERM at the end reaches bun, not a shell that would leave it running. */
function spawnCommand(command: string, run: Run) {
  const child = Bun.spawn(['sh', '-c', `exec ${command}`], { cwd: root, env: run.env, stdout: 'pipe', stderr: 'pipe' });
  cleanup.push(async () => {
    child.kill('SIGTERM');
    await child.exited;
  });
  return child;
}

async function post(url: string, body: unknown, key?: string): Promise<Record<string, any>> {
  const headers: Record<string, string> = { 'content-type': 'application/json' };
  if (key) headers.authorization = `Bearer ${key}`;
  return (await (await fetch(url, { method: 'POST', headers, body: JSON.stringify(body) })).json()) as Record<string, any>;
}

/** The quickstart's numbered steps and its shell block, with the keys the demo printed. */
async function followQuickstart(run: Run, printed: string): Promise<void> {
  const publishableKey = /publishableKey\s+(pk_test_\S+)/.exec(printed)![1]!;
  const secretKey = /secretKey\s+(sk_test_\S+)/.exec(printed)![1]!;
  const serviceUrl = `http://localhost:${run.servicePort}`;
  const shopUrl = `http://localhost:${run.demoPort}`;

  // Steps 1–3: the shop page, the SDK's create, the sandbox "verified" button, the return page.
  const shop = await fetch(shopUrl);
  expect(shop.status).toBe(200);
  expect(await shop.text()).toContain(publishableKey);
  const created = await post(`${serviceUrl}/api/v1/sessions/create`, { returnUrl: `${shopUrl}/return`, externalUserId: 'user-42' }, publishableKey);
  const simulated = await post(`${serviceUrl}/api/v1/verify/simulate`, {
    sessionId: created.sessionId,
    sessionToken: created.sessionToken,
    outcome: 'verified',
  });
  expect(simulated.redirectUrl).toStartWith(`${shopUrl}/return?sessionId=${created.sessionId}&status=verified`);
  expect(await (await fetch(simulated.redirectUrl)).text()).toContain('Access granted');
  expect(await (await fetch(simulated.redirectUrl)).text()).toContain('Session has already been used');

  // The shell block: its curl commands as written, with the keys and session id they print.
  await followShellBlock(run, publishableKey, secretKey);
}

/** The quickstart's curl block as written, with the keys and session id it prints. */
async function followShellBlock(run: Run, publishableKey: string, secretKey: string): Promise<void> {
  const shellSteps = commandsOf(readme, QUICKSTART).filter((command) => command.startsWith('curl '));
  expect(shellSteps).toHaveLength(2);
  const [createCommand, validateCommand] = shellSteps.map(run.ports);
  const sh = (command: string) => JSON.parse(Bun.spawnSync(['sh', '-c', command], { cwd: root, env: run.env }).stdout.toString()) as Record<string, unknown>;
  const session = sh(createCommand!.replace('pk_test_…', publishableKey));
  expect(session.verifyUrl).toStartWith(`http://localhost:${run.servicePort}/verify?`);
  await post(`http://localhost:${run.servicePort}/api/v1/verify/simulate`, {
    sessionId: session.sessionId,
    sessionToken: session.sessionToken,
    outcome: 'verified',
  });
  const validation = sh(validateCommand!.replace('sk_test_…', secretKey).replace('ses_…', String(session.sessionId)));
  expect(validation).toMatchObject({ sessionId: session.sessionId, verified: true, accessGranted: true, status: 'verified', sandboxMode: true });
}

const QUICKSTART = 'Quickstart: a verified session, end to end';

test('the quickstart, followed literally: bun run demo starts the service, the shop validates, the webhooks arrive signed', async () => {
  const run = scratchRun();
  const demoCommand = commandsOf(readme, QUICKSTART).find((command) => command.startsWith('bun run demo'));
  expect(demoCommand).toBe('bun run demo');
  const demo = spawnCommand(demoCommand!, run);
  const reader = demo.stdout.getReader();
  const decoder = new TextDecoder();
  let printed = '';
  const readUntil = async (pattern: RegExp, timeoutMs: number) => {
    const deadline = Date.now() + timeoutMs;
    while (!pattern.test(printed)) {
      if (Date.now() > deadline) throw new Error(`no ${pattern} within ${timeoutMs} ms; the demo printed:\n${printed}`);
      const { value, done } = await reader.read();
      if (done) throw new Error(`the demo ended before ${pattern}; it printed:\n${printed}\n${await new Response(demo.stderr).text()}`);
      printed += decoder.decode(value);
    }
  };
  await readUntil(/Ctrl-C stops the demo and its service/, 120_000);
  await followQuickstart(run, printed);
  // Step 4: both sessions' webhooks, signature checked by the demo's receiver, and the CLI's view.
  await readUntil(/(webhook verification\.completed[^\n]*signature verified[\s\S]*){2}/, 30_000);
  expect(printed).toMatch(/webhook session\.started for ses_\S+ \(signature verified/);
  const attempts = /bun run cli (webhooks attempts --tenant \S+ --endpoint \S+)/.exec(printed)![1]!.split(' ');
  const listed = Bun.spawnSync(['bun', 'run', 'cli', ...attempts], { cwd: root, env: run.env, stderr: 'pipe' });
  expect(listed.exitCode).toBe(0);
  const rows = JSON.parse(listed.stdout.toString()) as Array<{ outcome: string; statusCode: number }>;
  expect(rows.length).toBeGreaterThanOrEqual(4);
  expect(rows.every((row) => row.outcome === 'success' && row.statusCode === 204)).toBe(true);
}, 180_000);

test('next to a running service (set-up command 1), bun run demo uses it', async () => {
  const run = scratchRun();
  // Set-up command 1, without the install steps before it.
  const start = commandsOf(readme, 'Set up on a fresh machine')[0]!.split('&&').at(-1)!.trim();
  const service = spawnCommand(start, run);
  const serviceUrl = `http://localhost:${run.servicePort}`;
  for (let ready = false; !ready; ) {
    if (service.exitCode !== null) throw new Error(`\`${start}\` exited: ${await new Response(service.stderr).text()}`);
    ready = await fetch(`${serviceUrl}/healthz`).then(
      (response) => response.ok,
      () => false,
    );
    if (!ready) await Bun.sleep(100);
  }
  const demo = spawnCommand(commandsOf(readme, QUICKSTART).find((command) => command.startsWith('bun run demo'))!, run);
  const printed = await waitForLine(demo.stdout, /Ctrl-C stops the demo\./, 60_000);
  expect(printed).toContain(`Using the service already running on ${serviceUrl}`);
  await followQuickstart(run, printed);
}, 180_000);

/**
 * The dashboard steps of the quickstart, with the HTTP calls its pages make (the browser clicks are
 * e2e/dashboard.spec.ts): the start command logs the setup link; setup signs the owner in and shows
 * its sandbox pair; a domain and "Try it"; then the curl block with the keys the dashboard showed.
 */
test('the quickstart through the dashboard: setup link in the log, account, keys, domain, try it, then the curl block', async () => {
  const run = scratchRun();
  run.env.LOG_LEVEL = 'info';
  const start = commandsOf(readme, 'Set up on a fresh machine')[0]!.split('&&').at(-1)!.trim();
  expect(start).toBe('bun run start');
  const service = spawnCommand(`${start} 2>&1`, run);
  const printed = await waitForLine(service.stdout, /\/dashboard\/setup#token=[A-Za-z0-9_-]+/, 120_000);
  const link = new URL(/(http\S+\/dashboard\/setup#token=[A-Za-z0-9_-]+)/.exec(printed)![1]!);
  expect(link.pathname).toBe('/dashboard/setup');
  const origin = `http://localhost:${run.servicePort}`;
  // Step 1 as the setup page does it: the token from the link's fragment.
  let cookie = '';
  const call = async (method: string, path: string, body?: unknown) => {
    const response = await fetch(`${origin}/dashboard/api${path}`, {
      method,
      headers: { 'content-type': 'application/json', origin, ...(cookie ? { cookie } : {}) },
      body: method === 'GET' ? undefined : JSON.stringify(body ?? {}),
    });
    const setCookie = response.headers
      .getSetCookie()
      .map((value) => value.split(';')[0])
      .join('; ');
    if (setCookie) cookie = setCookie;
    return { status: response.status, body: (await response.json()) as Record<string, any> };
  };
  expect((await fetch(`${origin}/dashboard/`)).status).toBe(200);
  const setup = await call('POST', '/setup', {
    token: new URLSearchParams(link.hash.slice(1)).get('token'),
    tenantName: 'My Shop',
    email: 'me@example.com',
    password: 'a long enough password',
  });
  expect(setup.status).toBe(201);
  const tenant = `/tenants/${setup.body.tenantId}`;
  // Step 2: the sandbox pair setup made, shown on the setup page (decision 0052).
  const pair = { body: setup.body.sandboxKeyPair as { publishableKey: string; secretKey: string } };
  expect(pair.body.publishableKey).toStartWith('pk_test_');
  expect(pair.body.secretKey).toStartWith('sk_test_');
  // More pairs come from API keys, each with an optional label.
  expect((await call('POST', `${tenant}/keys`, { sandbox: true, label: 'Second pair' })).status).toBe(201);
  // Step 3: a domain.
  expect((await call('POST', `${tenant}/domains`, { domain: 'shop.example.com' })).status).toBe(201);
  // Step 4: try it opens the verify UI for a sandbox session.
  const tryIt = await call('POST', `${tenant}/try-it`, {});
  expect(tryIt.status).toBe(201);
  expect(tryIt.body.verifyUrl).toStartWith(`${origin}/verify?`);
  await followShellBlock(run, pair.body.publishableKey, pair.body.secretKey);
}, 180_000);
