// Builds the two browser deliverables and the merchant's server package:
//  - sdk/dist: the AgeVerify browser SDK as an ES module (plain and minified) and a minified IIFE
//    exposing the global `AgeVerify`, with VERSION injected from sdk/package.json.
//  - verify-ui/dist: the hosted verification UI (Lit + i18next) as minified ES modules: verify.js,
//    which the page loads first, and chunks/ that it imports on demand (the camera and capture code
//    of a live check), so a sandbox session or a blocked one never downloads them.
//  - dashboard/dist: the tenant dashboard (Lit + i18next): index.html, one JS bundle and one CSS file,
//    both with a content hash in their names (served immutable; index.html is never cached), and the
//    chunks the bundle imports on demand (the charts' Chart.js, dashboard/src/chart-canvas.ts), so
//    the first load stays within its budget (bench/support/dashboard-chunks.ts).
//  - server-sdk/dist: @ageverify/server as ESM (index.js) and CommonJS (index.cjs), each with its
//    declaration file, for `npm pack` (the workspace itself runs the sources; see tsconfig.json).
// The backend serves the first two from disk (backend/src/http/static-assets.ts).
import { createHash } from 'node:crypto';
import { readFileSync, rmSync } from 'node:fs';
import typescript from '@rollup/plugin-typescript';
import { nodeResolve } from '@rollup/plugin-node-resolve';
import terser from '@rollup/plugin-terser';
import { dts } from 'rollup-plugin-dts';

const sdkVersion = JSON.parse(readFileSync(new URL('./sdk/package.json', import.meta.url), 'utf8')).version;

/** Replaces the __SDK_VERSION__ placeholder so the version lives in one place: sdk/package.json. */
function injectVersion() {
  return {
    name: 'inject-sdk-version',
    transform(code) {
      return code.includes('__SDK_VERSION__') ? { code: code.replaceAll('__SDK_VERSION__', JSON.stringify(sdkVersion)), map: null } : null;
    },
  };
}

const sdk = {
  input: 'sdk/src/index.ts',
  plugins: [injectVersion(), nodeResolve(), typescript({ tsconfig: 'sdk/tsconfig.build.json' })],
  output: [
    { file: 'sdk/dist/ageverify.esm.js', format: 'es', sourcemap: true },
    { file: 'sdk/dist/ageverify.esm.min.js', format: 'es', sourcemap: true, plugins: [terser()] },
    { file: 'sdk/dist/ageverify.iife.min.js', format: 'iife', name: 'AgeVerify', exports: 'named', sourcemap: true, plugins: [terser()] },
  ],
};

// One self-contained declaration file: the protocol types the SDK exposes are inlined, so the
// published types do not point at the private @ageverify/protocol workspace.
const sdkTypes = {
  input: 'sdk/src/index.ts',
  plugins: [dts({ tsconfig: 'sdk/tsconfig.json', respectExternal: true })],
  output: { file: 'sdk/dist/ageverify.d.ts', format: 'es' },
};

/**
 * Chunk names carry a content hash, so every build writes new files; without this, old chunks
 * would pile up in verify-ui/dist/chunks and be counted by the bench.
 */
function cleanVerifyChunks() {
  return {
    name: 'clean-verify-chunks',
    buildStart() {
      rmSync(new URL('./verify-ui/dist/chunks', import.meta.url), { recursive: true, force: true });
    },
  };
}

const verifyUi = {
  input: 'verify-ui/src/main.ts',
  plugins: [cleanVerifyChunks(), nodeResolve({ browser: true, exportConditions: ['production'] }), typescript({ tsconfig: 'verify-ui/tsconfig.build.json' })],
  // Served under /verify/assets/ (backend/src/http/static-assets.ts); chunks are imported with
  // paths relative to verify.js, so they load from the same folder under `script-src 'self'`.
  output: {
    dir: 'verify-ui/dist',
    format: 'es',
    sourcemap: true,
    entryFileNames: 'verify.js',
    chunkFileNames: 'chunks/[name]-[hash].js',
    plugins: [terser()],
  },
};

/**
 * The dashboard's page: dashboard/index.html with the hashed names of the bundle and of the page
 * stylesheet (dashboard/src/page.css) filled in. The stylesheet is a file, not a <style> element,
 * because the dashboard's CSP allows no inline styles (backend/src/http/static-assets.ts).
 */
function dashboardPage() {
  const read = (path) => readFileSync(new URL(path, import.meta.url), 'utf8');
  return {
    name: 'dashboard-page',
    buildStart() {
      rmSync(new URL('./dashboard/dist', import.meta.url), { recursive: true, force: true });
      this.addWatchFile('dashboard/index.html');
      this.addWatchFile('dashboard/src/page.css');
    },
    generateBundle(_options, bundle) {
      const css = read('./dashboard/src/page.css');
      const cssName = `assets/dashboard-${createHash('sha256').update(css).digest('hex').slice(0, 10)}.css`;
      this.emitFile({ type: 'asset', fileName: cssName, source: css });
      const entry = Object.values(bundle).find((chunk) => chunk.type === 'chunk' && chunk.isEntry);
      if (!entry) this.error('dashboard: no entry chunk');
      const page = read('./dashboard/index.html')
        .replace('__DASHBOARD_JS__', `/dashboard/${entry.fileName}`)
        .replace('__DASHBOARD_CSS__', `/dashboard/${cssName}`);
      this.emitFile({ type: 'asset', fileName: 'index.html', source: page });
    },
  };
}

const dashboard = {
  input: 'dashboard/src/main.ts',
  // `production`: Lit's production build (no dev-mode warnings and checks, smaller) instead of the
  // `development` export condition node-resolve would otherwise pick.
  plugins: [dashboardPage(), nodeResolve({ browser: true, exportConditions: ['production'] }), typescript({ tsconfig: 'dashboard/tsconfig.build.json' })],
  // Served under /dashboard/assets/ with `immutable`: every name carries its content hash.
  output: {
    dir: 'dashboard/dist',
    format: 'es',
    sourcemap: true,
    entryFileNames: 'assets/dashboard-[hash].js',
    chunkFileNames: 'assets/[name]-[hash].js',
    plugins: [terser()],
  },
};

// @ageverify/server runs on Node 20+ and Bun: node:crypto stays an import; `jose` (MIT, for
// verifyReceipt) is bundled, so the package keeps no dependencies and installs offline; the
// protocol types it uses are erased from the JavaScript.
const serverSdk = {
  input: 'server-sdk/src/index.ts',
  external: [/^node:/],
  plugins: [nodeResolve(), typescript({ tsconfig: 'server-sdk/tsconfig.build.json' })],
  output: [
    { file: 'server-sdk/dist/index.js', format: 'es' },
    { file: 'server-sdk/dist/index.cjs', format: 'cjs', exports: 'named' },
  ],
};

// The same declarations twice: index.d.ts describes index.js (the package is "type": "module") and
// index.d.cts describes index.cjs, so TypeScript under node16/nodenext gets the format of the file
// it will really load. The protocol types are inlined: the package has no dependencies.
const serverSdkTypes = {
  input: 'server-sdk/src/index.ts',
  external: [/^node:/],
  plugins: [dts({ tsconfig: 'server-sdk/tsconfig.json', respectExternal: true })],
  output: [
    { file: 'server-sdk/dist/index.d.ts', format: 'es' },
    { file: 'server-sdk/dist/index.d.cts', format: 'es' },
  ],
};

// ROLLUP_ONLY=sdk, =verify-ui, =dashboard or =server-sdk builds one of them (faster while working on one;
// server-sdk's `npm pack` uses it).
const builds = { sdk: [sdk, sdkTypes], 'verify-ui': [verifyUi], dashboard: [dashboard], 'server-sdk': [serverSdk, serverSdkTypes] };
const only = process.env.ROLLUP_ONLY;
if (only && !(only in builds)) throw new Error(`ROLLUP_ONLY=${only}: expected one of ${Object.keys(builds).join(', ')}`);
export default only ? builds[only] : Object.values(builds).flat();
