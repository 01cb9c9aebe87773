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

function freePort(): number {
  const server = Bun.serve({ port: 0, fetch: () => new Response() });
  const port = server.port!;
  server.stop(true);
  return port;
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

test('the quickstart, followed literally, ends on a page that validated the session', async () => {
  const servicePort = freePort();
  const demoPort = freePort();
  const dataDir = mkdtempSync(join(tmpdir(), 'readme-quickstart-'));
  cleanup.push(() => rmSync(dataDir, { recursive: true, force: true }));
  const env: Record<string, string> = {
    ...(process.env as Record<string, string>),
    PORT: String(servicePort),
    HOST: '127.0.0.1',
    DATA_DIR: dataDir,
    DEMO_PORT: String(demoPort),
    DEMO_KEYS_FILE: join(dataDir, 'demo-keys.json'),
    LOG_LEVEL: 'warn',
  };
  delete env.DATABASE_URL;
  const ports = (command: string) => command.replaceAll('localhost:3000', `localhost:${servicePort}`).replaceAll('localhost:4000', `localhost:${demoPort}`);

  // Set-up command 1, without the install steps before it. `exec`: the SIGTERM at the end reaches bun, not a shell.
  const start = commandsOf(readme, 'Set up on a fresh machine')[0]!.split('&&').at(-1)!.trim();
  const service = Bun.spawn(['sh', '-c', `exec ${start}`], { cwd: root, env, stdout: 'ignore', stderr: 'pipe' });
  cleanup.push(async () => {
    service.kill('SIGTERM');
    await service.exited;
  });
  const serviceUrl = `http://localhost:${servicePort}`;
  for (let ready = false; !ready; ) {
    if (service.exitCode !== null) throw new Error(`\`${start}\` exited: ${await new Response(service.stderr).text()}`);
    ready = await fetch(`${serviceUrl}/healthz`).then((response) => response.ok, () => false);
    if (!ready) await Bun.sleep(100);
  }

  const [demoCommand, ...shellSteps] = commandsOf(readme, 'Quickstart: a verified session, end to end');
  expect(demoCommand).toBe('bun run demo');
  const demo = Bun.spawn(['sh', '-c', `exec ${demoCommand}`], { cwd: root, env, stdout: 'pipe', stderr: 'pipe' });
  cleanup.push(async () => {
    demo.kill('SIGTERM');
    await demo.exited;
  });
  const printed = await waitForLine(demo.stdout, /secretKey\s+sk_\S+/, 60_000);
  const publishableKey = /publishableKey\s+(pk_test_\S+)/.exec(printed)![1]!;
  const secretKey = /secretKey\s+(sk_test_\S+)/.exec(printed)![1]!;
  const shopUrl = `http://localhost:${demoPort}`;

  // Browser path: the shop page, the SDK's create, the sandbox "verified" button, the return page.
  const shop = await fetch(shopUrl);
  expect(shop.status).toBe(200);
  expect(await shop.text()).toContain(publishableKey);
  const created = (await (
    await fetch(`${serviceUrl}/api/v1/sessions/create`, {
      method: 'POST',
      headers: { authorization: `Bearer ${publishableKey}`, 'content-type': 'application/json' },
      body: JSON.stringify({ returnUrl: `${shopUrl}/return`, externalUserId: 'user-42' }),
    })
  ).json()) as { sessionId: string; sessionToken: string };
  const simulated = (await (
    await fetch(`${serviceUrl}/api/v1/verify/simulate`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ sessionId: created.sessionId, sessionToken: created.sessionToken, outcome: 'verified' }),
    })
  ).json()) as { redirectUrl: string };
  expect(simulated.redirectUrl).toStartWith(`${shopUrl}/return?sessionId=${created.sessionId}&status=verified`);
  const landed = await (await fetch(simulated.redirectUrl)).text();
  expect(landed).toContain('Access granted');
  expect(await (await fetch(simulated.redirectUrl)).text()).toContain('Session has already been used');

  // Shell path: the quickstart's curl commands, with the keys and session id they print.
  expect(shellSteps).toHaveLength(2);
  const [createCommand, validateCommand] = shellSteps.map(ports);
  const run = (command: string) => JSON.parse(Bun.spawnSync(['sh', '-c', command], { cwd: root, env }).stdout.toString()) as Record<string, unknown>;
  const session = run(createCommand!.replace('pk_test_…', publishableKey));
  expect(session.verifyUrl).toStartWith(`http://localhost:${servicePort}/verify?`);
  await fetch(`${serviceUrl}/api/v1/verify/simulate`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ sessionId: session.sessionId, sessionToken: session.sessionToken, outcome: 'verified' }),
  });
  const validation = run(validateCommand!.replace('sk_test_…', secretKey).replace('ses_…', String(session.sessionId)));
  expect(validation).toMatchObject({ sessionId: session.sessionId, verified: true, accessGranted: true, status: 'verified', sandboxMode: true });
}, 180_000);
