import { afterEach, describe, expect, test } from 'bun:test';
import type { MeResponse } from '@ageverify/protocol';
import type { ReactiveController, ReactiveControllerHost } from 'lit';
import { type BootstrapPage, SignInBootstrap } from './sign-in-bootstrap';

const realFetch = globalThis.fetch;
afterEach(() => {
  globalThis.fetch = realFetch;
});

/** The API as `METHOD /path` → [status, body]; every request is recorded. */
function api(answers: Record<string, [number, unknown]>) {
  const asked: string[] = [];
  globalThis.fetch = (async (url: string, init: RequestInit) => {
    const key = `${init.method} ${url.replace('/dashboard/api', '')}`;
    asked.push(key);
    const answer = answers[key];
    if (!answer) throw new Error(`unexpected request ${key}`);
    return new Response(JSON.stringify(answer[1]), { status: answer[0] });
  }) as unknown as typeof fetch;
  return asked;
}

/** The page as the bootstrap sees it: an address, its history and the stored tenant. */
function fakePage(address: string, stored: Record<string, string> = {}) {
  const url = new URL(address, 'https://service.example');
  const replaced: string[] = [];
  const page = {
    location: { pathname: url.pathname, search: url.search, hash: url.hash },
    history: {
      replaceState(_data: unknown, _unused: string, next?: string | null) {
        replaced.push(next ?? '');
      },
    },
    localStorage: {
      getItem: (key: string) => stored[key] ?? null,
      setItem: (key: string, value: string) => {
        stored[key] = value;
      },
    },
  } satisfies BootstrapPage;
  return { page, replaced, stored };
}

function fakeHost() {
  const host = {
    updates: 0,
    addController(_controller: ReactiveController) {},
    removeController() {},
    requestUpdate() {
      host.updates += 1;
    },
    updateComplete: Promise.resolve(true),
  } satisfies ReactiveControllerHost & Record<string, unknown>;
  return host;
}

/** Connects the controller to its host and waits until it has decided a page. */
async function connected(bootstrap: SignInBootstrap): Promise<SignInBootstrap> {
  bootstrap.hostConnected();
  for (let turns = 0; bootstrap.view === 'loading' && turns < 200; turns++) await new Promise((resolve) => setTimeout(resolve, 1));
  return bootstrap;
}

const me = (tenants: string[]): MeResponse => ({
  user: { id: 'usr_1', email: 'owner@shop.example', name: 'Owner' },
  tenants: tenants.map((tenantId) => ({ tenantId, name: `Shop ${tenantId}`, role: 'owner' as const })),
  twoFactor: { enabled: false, tenantsRequiring: [] },
});
const TENANT_KEY = 'ageverify.dashboard.tenant';

describe('the sign-in bootstrap (issue 25, item 11)', () => {
  test('a link sent outside the app opens its page without asking the API', async () => {
    const asked = api({});
    for (const [path, view] of [
      ['/dashboard/setup#token=t', 'setup'],
      ['/dashboard/invite#secret=s', 'invite'],
      ['/dashboard/confirm#secret=s', 'confirm'],
    ] as const) {
      const bootstrap = await connected(new SignInBootstrap(fakeHost(), fakePage(path).page));
      expect(bootstrap.view).toBe(view);
    }
    expect(asked).toEqual([]);
  });

  test('signed in: the app on the tenant chosen last time, with the return parameters of "Try it" dropped', async () => {
    api({ 'GET /me': [200, me(['ten_A', 'ten_B'])] });
    const { page, replaced } = fakePage('/dashboard/?sessionId=ses_1&status=verified#/sessions/ses_1', { [TENANT_KEY]: 'ten_B' });
    const host = fakeHost();
    const bootstrap = await connected(new SignInBootstrap(host, page));
    expect(replaced).toEqual(['/dashboard/#/sessions/ses_1']);
    expect(bootstrap.view).toBe('app');
    expect(bootstrap.tenantId).toBe('ten_B');
    expect(bootstrap.membership?.name).toBe('Shop ten_B');
    expect(host.updates).toBeGreaterThan(0);
  });

  test('a remembered tenant the user has left gives way to the first one', async () => {
    api({ 'GET /me': [200, me(['ten_A', 'ten_B'])] });
    const bootstrap = await connected(new SignInBootstrap(fakeHost(), fakePage('/dashboard/', { [TENANT_KEY]: 'ten_gone' }).page));
    expect(bootstrap.tenantId).toBe('ten_A');
  });

  test('a user in no tenant sees the page that says so', async () => {
    api({ 'GET /me': [200, me([])] });
    const bootstrap = await connected(new SignInBootstrap(fakeHost(), fakePage('/dashboard/').page));
    expect(bootstrap.view).toBe('no-tenant');
  });

  test('signed out: first-run setup while no tenant exists, else sign-in (offering sign-up when allowed)', async () => {
    api({ 'GET /me': [401, { message: 'Sign in first' }], 'GET /setup': [200, { needed: true, signupEnabled: false }] });
    expect((await connected(new SignInBootstrap(fakeHost(), fakePage('/dashboard/').page))).view).toBe('setup');

    api({ 'GET /me': [401, { message: 'Sign in first' }], 'GET /setup': [200, { needed: false, signupEnabled: true }] });
    const signIn = await connected(new SignInBootstrap(fakeHost(), fakePage('/dashboard/').page));
    expect(signIn.view).toBe('sign-in');
    expect(signIn.signupEnabled).toBe(true);
    expect(signIn.me).toBeNull();
  });

  test('signed out and the setup status unreadable: sign-in', async () => {
    api({ 'GET /me': [401, { message: 'Sign in first' }], 'GET /setup': [503, { message: 'down' }] });
    expect((await connected(new SignInBootstrap(fakeHost(), fakePage('/dashboard/').page))).view).toBe('sign-in');
  });

  test('any other failure shows the error page with its message', async () => {
    api({ 'GET /me': [500, { message: 'The database is not reachable.' }] });
    const bootstrap = await connected(new SignInBootstrap(fakeHost(), fakePage('/dashboard/').page));
    expect(bootstrap.view).toBe('error');
    expect(bootstrap.problem).toBe('The database is not reachable.');
  });

  test('after signing in, the tenant named by the sign-in (an invitation accepted) is the one opened', async () => {
    api({ 'GET /me': [401, {}], 'GET /setup': [200, { needed: false, signupEnabled: false }] });
    const bootstrap = await connected(new SignInBootstrap(fakeHost(), fakePage('/dashboard/', { [TENANT_KEY]: 'ten_A' }).page));
    api({ 'GET /me': [200, me(['ten_A', 'ten_B'])] });
    await bootstrap.enter('ten_B');
    expect(bootstrap.view).toBe('app');
    expect(bootstrap.tenantId).toBe('ten_B');
  });

  test('a chosen tenant is remembered; signing out leaves the app for the sign-in page', async () => {
    api({ 'GET /me': [200, me(['ten_A', 'ten_B'])] });
    const { page, replaced, stored } = fakePage('/dashboard/#/keys');
    const bootstrap = await connected(new SignInBootstrap(fakeHost(), page));
    bootstrap.chooseTenant('ten_B');
    expect(bootstrap.tenantId).toBe('ten_B');
    expect(stored[TENANT_KEY]).toBe('ten_B');

    const asked = api({ 'POST /auth/sign-out': [200, {}], 'GET /setup': [200, { needed: false, signupEnabled: false }] });
    await bootstrap.signOut();
    expect(asked).toEqual(['POST /auth/sign-out', 'GET /setup']);
    expect(replaced).toEqual(['/dashboard/']);
    expect(bootstrap.view).toBe('sign-in');
    expect(bootstrap.me).toBeNull();
  });

  test('refreshMe reads who is signed in again and stays in the app (two-factor sign-in turned on, issue 23); signed out meanwhile → sign-in', async () => {
    api({ 'GET /me': [200, me(['ten_A'])] });
    const bootstrap = await connected(new SignInBootstrap(fakeHost(), fakePage('/dashboard/#/account').page));
    const views: string[] = [];
    const enrolled = { ...me(['ten_A']), twoFactor: { enabled: true, tenantsRequiring: ['ten_A'] } };
    api({ 'GET /me': [200, enrolled] });
    const refreshing = bootstrap.refreshMe();
    views.push(bootstrap.view);
    await refreshing;
    expect(views).toEqual(['app']);
    expect(bootstrap.view).toBe('app');
    expect(bootstrap.me?.twoFactor).toEqual({ enabled: true, tenantsRequiring: ['ten_A'] });

    api({ 'GET /me': [401, {}], 'GET /setup': [200, { needed: false, signupEnabled: false }] });
    await bootstrap.refreshMe();
    expect(bootstrap.view).toBe('sign-in');
  });
});
