/**
 * Serves the browser deliverables built by rollup: the verify UI at /verify, the SDK at /sdk and
 * the tenant dashboard at /dashboard/. The verify UI and the dashboard get a strict CSP and may
 * not be framed (no clickjacking of the camera page or of the dashboard's buttons).
 * The SDK is served at a stable path (short cache) and at a versioned path (immutable).
 */
import { existsSync, readFileSync } from 'node:fs';
import { createHash } from 'node:crypto';
import { dirname, join, normalize } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Elysia } from 'elysia';
import { HTTP_ERRORS } from './errors';

const repoRoot = join(dirname(fileURLToPath(import.meta.url)), '../../..');
const sdkVersion: string = JSON.parse(readFileSync(join(repoRoot, 'sdk/package.json'), 'utf8')).version;

export const VERIFY_UI_CSP = [
  "default-src 'self'",
  "script-src 'self'",
  "style-src 'self' 'unsafe-inline'",
  "img-src 'self' data: blob:",
  "media-src 'self' blob:",
  "connect-src 'self'",
  "frame-ancestors 'none'",
  "base-uri 'none'",
  "form-action 'none'",
].join('; ');

/**
 * The dashboard's CSP (issue 12, item 8): nothing inline. Lit's styles are constructed style
 * sheets (adoptedStyleSheets), which `style-src 'self'` does not govern; the page's own styles are
 * a file. Only same-origin API calls; forms post nowhere else.
 */
export const DASHBOARD_CSP = [
  "default-src 'none'",
  "script-src 'self'",
  "style-src 'self'",
  "connect-src 'self'",
  "img-src 'self' data:",
  "frame-ancestors 'none'",
  "base-uri 'none'",
  "form-action 'self'",
].join('; ');

const TYPES: Record<string, string> = {
  '.js': 'text/javascript; charset=utf-8',
  '.map': 'application/json; charset=utf-8',
  '.ts': 'text/plain; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.html': 'text/html; charset=utf-8',
  '.json': 'application/json; charset=utf-8',
};

/**
 * The SDK is loaded by merchants' pages, from their own origins. `<script integrity … crossorigin="anonymous">`
 * and ES-module imports fetch in CORS mode, so without Access-Control-Allow-Origin the browser refuses
 * the file (Fetch standard, "CORS check"); `*` suits a public file fetched without credentials. CORP
 * cross-origin lets pages that send Cross-Origin-Embedder-Policy: require-corp embed it too.
 */
export const SDK_CROSS_ORIGIN_HEADERS = {
  'access-control-allow-origin': '*',
  'cross-origin-resource-policy': 'cross-origin',
} as const;

function fileResponse(root: string, name: string, cacheControl: string, extraHeaders: Record<string, string> = {}): Response {
  const path = normalize(join(root, name));
  // No escaping the folder with ../ (normalize resolves it; the prefix check refuses the result).
  if (!path.startsWith(`${root}/`) || !existsSync(path)) throw HTTP_ERRORS.ASSET_NOT_FOUND({ name });
  const ext = path.slice(path.lastIndexOf('.'));
  return new Response(Bun.file(path), {
    headers: { 'content-type': TYPES[ext] ?? 'application/octet-stream', 'cache-control': cacheControl, 'x-content-type-options': 'nosniff', ...extraHeaders },
  });
}

/**
 * Subresource-integrity values of the SDK bundles, for `<script integrity>` (issue: SDK served
 * "with an integrity hash documented"). Computed from the files on disk, so they always match.
 */
export function sdkIntegrity(sdkDist: string): { version: string; files: Record<string, { url: string; integrity: string }> } {
  const files: Record<string, { url: string; integrity: string }> = {};
  for (const name of ['ageverify.iife.min.js', 'ageverify.esm.min.js', 'ageverify.esm.js']) {
    const path = join(sdkDist, name);
    if (!existsSync(path)) continue;
    const digest = createHash('sha384').update(readFileSync(path)).digest('base64');
    files[name] = { url: `/sdk/${sdkVersion}/${name}`, integrity: `sha384-${digest}` };
  }
  return { version: sdkVersion, files };
}

export function staticAssets(options: { root?: string } = {}) {
  const root = options.root ?? repoRoot;
  const verifyDist = join(root, 'verify-ui/dist');
  const dashboardDist = join(root, 'dashboard/dist');
  const sdkDist = join(root, 'sdk/dist');
  const verifyHtml = join(root, 'verify-ui/index.html');
  const securityHeaders = {
    'content-security-policy': VERIFY_UI_CSP,
    'x-frame-options': 'DENY',
    'referrer-policy': 'no-referrer',
    'x-content-type-options': 'nosniff',
    'permissions-policy': 'camera=(self), microphone=()',
  };

  const dashboardHeaders = {
    'content-security-policy': DASHBOARD_CSP,
    'x-frame-options': 'DENY',
    'referrer-policy': 'no-referrer',
    'x-content-type-options': 'nosniff',
    'permissions-policy': 'camera=(), microphone=(), geolocation=()',
  };

  /**
   * The dashboard is one page; its routes are in the hash, but /dashboard/setup and
   * /dashboard/invite (links sent out of the app) and any other one-segment path get the page too,
   * unless they name a file of the build. no-store: the page is tiny, and a new build's asset names must
   * be picked up at once. /dashboard/api/* is the dashboard API's; an unknown API path is a 404 there,
   * never this page.
   */
  const dashboardPage = (rest: string): Response => {
    if (rest === 'api' || rest.startsWith('api/')) throw HTTP_ERRORS.ROUTE_NOT_FOUND({ method: 'GET', path: `/dashboard/${rest}` });
    const page = join(dashboardDist, 'index.html');
    if (!existsSync(page)) throw HTTP_ERRORS.DASHBOARD_NOT_BUILT();
    if (rest && rest !== 'index.html' && /\.[a-z0-9]+$/i.test(rest)) {
      // A file name: serve it if the build has it, else a plain 404 (never the page, which would
      // hide a broken asset link behind a 200 of HTML).
      return fileResponse(dashboardDist, rest, 'no-cache', dashboardHeaders);
    }
    return new Response(Bun.file(page), {
      headers: { 'content-type': 'text/html; charset=utf-8', 'cache-control': 'no-store', ...dashboardHeaders },
    });
  };

  const hidden = { detail: { hide: true } };
  return (
    new Elysia({ name: 'static-assets' })
      .get(
        '/verify',
        () => {
          if (!existsSync(verifyHtml)) throw HTTP_ERRORS.VERIFY_UI_NOT_BUILT();
          // no-store: the page's URL carries the sessionToken; keep it out of caches.
          return new Response(Bun.file(verifyHtml), {
            headers: { 'content-type': 'text/html; charset=utf-8', 'cache-control': 'no-store', ...securityHeaders },
          });
        },
        hidden,
      )
      .get('/verify/assets/*', ({ params }) => fileResponse(verifyDist, params['*'], 'public, max-age=300'), hidden)
      // Every asset name carries a content hash (rollup.config.mjs), so a year and `immutable` are safe.
      .get(
        '/dashboard/assets/*',
        ({ params }) => fileResponse(join(dashboardDist, 'assets'), params['*'], 'public, max-age=31536000, immutable', dashboardHeaders),
        hidden,
      )
      // Elysia matches /dashboard and /dashboard/ alike (strictPath off); the page's links are absolute.
      .get('/dashboard/', () => dashboardPage(''), hidden)
      // One path segment, not a wildcard: a GET wildcard here would win over the dashboard API's
      // `.all('/dashboard/api/auth/*')` (better-auth) for GET requests. The app's own routes are in
      // the hash, so the paths to answer are /dashboard/setup, /dashboard/invite and the like.
      .get('/dashboard/:page', ({ params }) => dashboardPage(params.page), hidden)
      .get(
        '/sdk/integrity.json',
        () => {
          const integrity = sdkIntegrity(sdkDist);
          if (Object.keys(integrity.files).length === 0) throw HTTP_ERRORS.SDK_NOT_BUILT();
          return Response.json(integrity, { headers: SDK_CROSS_ORIGIN_HEADERS });
        },
        hidden,
      )
      .get(`/sdk/${sdkVersion}/*`, ({ params }) => fileResponse(sdkDist, params['*'], 'public, max-age=31536000, immutable', SDK_CROSS_ORIGIN_HEADERS), hidden)
      .get('/sdk/*', ({ params }) => fileResponse(sdkDist, params['*'], 'public, max-age=300', SDK_CROSS_ORIGIN_HEADERS), hidden)
  );
}
