/** The browser deliverables as the backend serves them: caching, CSP, integrity values. */
import { afterAll, beforeAll, describe, expect, test } from 'bun:test';
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createTestContext, type TestContext } from '../testing/test-app';
import { staticAssets } from './static-assets';

const root = join(import.meta.dir, '../../..');
const built =
  existsSync(join(root, 'sdk/dist/ageverify.iife.min.js')) &&
  existsSync(join(root, 'verify-ui/dist/verify.js')) &&
  existsSync(join(root, 'dashboard/dist/index.html'));

/** Stand-in bundles in a folder of their own, so these run without `bun run build`. */
describe('cross-origin loading of the SDK', () => {
  const fakeRoot = mkdtempSync(join(tmpdir(), 'ageverify-static-'));
  mkdirSync(join(fakeRoot, 'sdk/dist'), { recursive: true });
  mkdirSync(join(fakeRoot, 'verify-ui/dist'), { recursive: true });
  for (const name of ['ageverify.iife.min.js', 'ageverify.esm.min.js', 'ageverify.esm.js']) writeFileSync(join(fakeRoot, 'sdk/dist', name), `/* ${name} */`);
  writeFileSync(join(fakeRoot, 'verify-ui/dist/verify.js'), '/* verify */');
  writeFileSync(join(fakeRoot, 'verify-ui/index.html'), '<!doctype html>');
  const assets = staticAssets({ root: fakeRoot });
  const get = (path: string) => assets.handle(new Request(`http://localhost:3000${path}`, { headers: { origin: 'https://shop.example' } }));
  afterAll(() => rmSync(fakeRoot, { recursive: true, force: true }));

  // A merchant page loads these with <script integrity … crossorigin="anonymous"> or `import`: both are
  // CORS requests, refused by the browser without Access-Control-Allow-Origin.
  test.each([
    '/sdk/ageverify.iife.min.js',
    '/sdk/ageverify.esm.min.js',
    '/sdk/3.5.0/ageverify.iife.min.js',
    '/sdk/3.5.0/ageverify.esm.js',
    '/sdk/integrity.json',
  ])('%s: any origin may read it, and cross-origin-isolated pages may embed it', async (path) => {
    const response = await get(path);
    expect(response.status).toBe(200);
    expect(response.headers.get('access-control-allow-origin')).toBe('*');
    expect(response.headers.get('cross-origin-resource-policy')).toBe('cross-origin');
    // `*` holds only for requests without credentials, which is how the SDK is loaded.
    expect(response.headers.get('access-control-allow-credentials')).toBeNull();
  });

  test.each(['/verify', '/verify/assets/verify.js'])('%s (the verify UI) stays same-origin', async (path) => {
    const response = await get(path);
    expect(response.status).toBe(200);
    expect(response.headers.get('access-control-allow-origin')).toBeNull();
    expect(response.headers.get('cross-origin-resource-policy')).toBeNull();
  });
});

describe.skipIf(!built)('static assets (after `bun run build`)', () => {
  let ctx: TestContext;
  beforeAll(async () => {
    ctx = await createTestContext('pglite');
  });
  afterAll(() => ctx.close());

  test('the SDK at a stable path (short cache) and a versioned path (immutable)', async () => {
    const stable = await ctx.request('GET', '/sdk/ageverify.iife.min.js');
    expect(stable.status).toBe(200);
    expect(stable.headers.get('content-type')).toContain('javascript');
    expect(stable.headers.get('cache-control')).toBe('public, max-age=300');
    const versioned = await ctx.request('GET', '/sdk/3.5.0/ageverify.iife.min.js');
    expect(versioned.headers.get('cache-control')).toBe('public, max-age=31536000, immutable');
    expect(await versioned.text()).toBe(await stable.text());
  });

  test('the SDK keeps its cross-origin headers through the whole app (the CORS plugin leaves them alone)', async () => {
    for (const path of ['/sdk/ageverify.iife.min.js', '/sdk/3.5.0/ageverify.esm.min.js', '/sdk/integrity.json']) {
      const response = await ctx.request('GET', path, { headers: { origin: 'https://shop.example' } });
      expect(response.headers.get('access-control-allow-origin')).toBe('*');
      expect(response.headers.get('cross-origin-resource-policy')).toBe('cross-origin');
    }
  });

  test('integrity.json gives the sha384 of each bundle', async () => {
    const body = (await (await ctx.request('GET', '/sdk/integrity.json')).json()) as {
      version: string;
      files: Record<string, { url: string; integrity: string }>;
    };
    expect(body.version).toBe('3.5.0');
    const expected = `sha384-${createHash('sha384')
      .update(readFileSync(join(root, 'sdk/dist/ageverify.iife.min.js')))
      .digest('base64')}`;
    expect(body.files['ageverify.iife.min.js']).toEqual({ url: '/sdk/3.5.0/ageverify.iife.min.js', integrity: expected });
  });

  test('the verify UI page: strict CSP, no framing, no caching, no referrer', async () => {
    const page = await ctx.request('GET', '/verify?sessionId=x&sessionToken=y');
    expect(page.status).toBe(200);
    expect(page.headers.get('content-security-policy')).toContain("frame-ancestors 'none'");
    expect(page.headers.get('content-security-policy')).toContain("script-src 'self'");
    expect(page.headers.get('x-frame-options')).toBe('DENY');
    expect(page.headers.get('cache-control')).toBe('no-store');
    expect(page.headers.get('referrer-policy')).toBe('no-referrer');
    expect(await page.text()).toContain('/verify/assets/verify.js');
  });

  test('the capture chunk loads from /verify/assets/chunks/ as JavaScript, and the page may use the camera (issue 11)', async () => {
    const chunksDir = join(root, 'verify-ui/dist/chunks');
    const chunk = existsSync(chunksDir) ? readdirSync(chunksDir).find((name) => name.endsWith('.js')) : undefined;
    expect(chunk, 'rollup emits the live capture code as a chunk').toBeDefined();
    const response = await ctx.request('GET', `/verify/assets/chunks/${chunk}`);
    expect(response.status).toBe(200);
    // Module scripts are refused unless served with a JavaScript MIME type (nosniff is on).
    expect(response.headers.get('content-type')).toBe('text/javascript; charset=utf-8');
    expect(response.headers.get('x-content-type-options')).toBe('nosniff');
    const page = await ctx.request('GET', '/verify?sessionId=x&sessionToken=y');
    expect(page.headers.get('permissions-policy')).toContain('camera=(self)');
    expect(page.headers.get('content-security-policy')).not.toContain('unsafe-eval');
    expect(page.headers.get('content-security-policy')).toContain("media-src 'self' blob:");
  });

  test('the dashboard through the whole app: its page under the strict CSP, and a JSON 404 for an unknown API path', async () => {
    const page = await ctx.request('GET', '/dashboard/sessions');
    expect(page.status).toBe(200);
    expect(page.headers.get('content-security-policy')).toStartWith("default-src 'none'");
    const script = /src="(\/dashboard\/assets\/dashboard-[^"]+\.js)"/.exec(await page.text())?.[1];
    expect(script, 'index.html names the hashed bundle').toBeDefined();
    const bundle = await ctx.request('GET', script!);
    expect(bundle.status).toBe(200);
    expect(bundle.headers.get('cache-control')).toBe('public, max-age=31536000, immutable');
    // better-auth's GET endpoints (mounted with .all) are not shadowed by the page's routes.
    const session = await ctx.request('GET', '/dashboard/api/auth/get-session');
    expect(session.status).toBe(200);
    const unknown = await ctx.request('GET', '/dashboard/api/no-such-route');
    expect(unknown.status).toBe(404);
    expect(((await unknown.json()) as { statusCode: number; message: string }).message).toContain('/dashboard/api/no-such-route');
  });

  test('no path escapes the asset folders', async () => {
    for (const path of ['/sdk/..%2f..%2fpackage.json', '/verify/assets/../../package.json', '/sdk/%2e%2e/%2e%2e/README.md']) {
      const response = await ctx.request('GET', path);
      expect([400, 404]).toContain(response.status);
    }
  });
});

/** The dashboard (issue 12) from a stand-in build: one page for every route, hashed assets, a strict CSP. */
describe('the dashboard', () => {
  const fakeRoot = mkdtempSync(join(tmpdir(), 'ageverify-dashboard-'));
  mkdirSync(join(fakeRoot, 'dashboard/dist/assets'), { recursive: true });
  writeFileSync(join(fakeRoot, 'dashboard/dist/index.html'), '<!doctype html><dash-app></dash-app>');
  writeFileSync(join(fakeRoot, 'dashboard/dist/assets/dashboard-abc123.js'), '/* bundle */');
  writeFileSync(join(fakeRoot, 'dashboard/dist/assets/dashboard-abc123.css'), '/* page */');
  const assets = staticAssets({ root: fakeRoot });
  const get = (path: string) => assets.handle(new Request(`http://localhost:3000${path}`));
  afterAll(() => rmSync(fakeRoot, { recursive: true, force: true }));

  test.each(['/dashboard/', '/dashboard/setup', '/dashboard/invite', '/dashboard/overview'])(
    '%s is the page, under the strict CSP, never cached',
    async (path) => {
      const response = await get(path);
      expect(response.status).toBe(200);
      expect(response.headers.get('content-type')).toBe('text/html; charset=utf-8');
      expect(await response.text()).toContain('<dash-app>');
      const csp = response.headers.get('content-security-policy') ?? '';
      for (const directive of [
        "default-src 'none'",
        "script-src 'self'",
        "style-src 'self'",
        "connect-src 'self'",
        "img-src 'self' data:",
        "frame-ancestors 'none'",
        "base-uri 'none'",
        "form-action 'self'",
      ]) {
        expect(csp).toContain(directive);
      }
      expect(csp).not.toContain('unsafe');
      expect(response.headers.get('x-frame-options')).toBe('DENY');
      expect(response.headers.get('referrer-policy')).toBe('no-referrer');
      expect(response.headers.get('cache-control')).toBe('no-store');
    },
  );

  test('/dashboard without the slash is the page too', async () => {
    const response = await get('/dashboard');
    expect(response.status).toBe(200);
    expect(await response.text()).toContain('<dash-app>');
  });

  test('hashed assets are immutable and typed', async () => {
    const script = await get('/dashboard/assets/dashboard-abc123.js');
    expect(script.status).toBe(200);
    expect(script.headers.get('content-type')).toBe('text/javascript; charset=utf-8');
    expect(script.headers.get('cache-control')).toBe('public, max-age=31536000, immutable');
    const style = await get('/dashboard/assets/dashboard-abc123.css');
    expect(style.headers.get('content-type')).toBe('text/css; charset=utf-8');
  });

  test('a missing asset is a 404, not the page', async () => {
    for (const path of ['/dashboard/assets/dashboard-old.js', '/dashboard/missing.js']) {
      const response = await get(path);
      expect(response.status).toBe(404);
      expect(await response.text()).not.toContain('<dash-app>');
    }
  });

  test('an unknown dashboard API path is a JSON 404, never the page', async () => {
    const response = await get('/dashboard/api/nothing-here');
    expect(response.status).toBe(404);
    expect(await response.text()).not.toContain('<dash-app>');
  });

  test('no path escapes the dashboard build', async () => {
    for (const path of ['/dashboard/assets/..%2f..%2f..%2fpackage.json', '/dashboard/%2e%2e/%2e%2e/package.json']) {
      const response = await get(path);
      expect([400, 404]).toContain(response.status);
      expect(await response.text()).not.toContain('"workspaces"');
    }
  });

  test('without a build the page is a 503 (the message says to run `bun run build`)', async () => {
    const empty = mkdtempSync(join(tmpdir(), 'ageverify-no-dashboard-'));
    const response = await staticAssets({ root: empty }).handle(new Request('http://localhost:3000/dashboard/'));
    rmSync(empty, { recursive: true, force: true });
    expect(response.status).toBe(503);
  });
});
