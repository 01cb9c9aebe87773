/**
 * Checks the rollup output in sdk/dist (skipped until `ROLLUP_ONLY=sdk npx rollup -c rollup.config.mjs`
 * has run): the version is injected, the exports are the public API, the IIFE defines the global
 * `AgeVerify` and derives the service address from its own script tag, and each bundle's language
 * level is the one sdk/README.md states (es-check).
 */
import { describe, expect, test } from 'bun:test';
import { existsSync, readFileSync } from 'node:fs';
import { BASE_URL, FakeBrowser } from '../src/testing/fake-environment';

const dist = new URL('../dist/', import.meta.url);
const file = (name: string) => new URL(name, dist);
const built = ['ageverify.esm.js', 'ageverify.esm.min.js', 'ageverify.iife.min.js'].every((name) => existsSync(file(name)));
const { version } = JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8')) as { version: string };
const EXPORTS = ['AgeVerify', 'AgeVerifyError', 'VERSION', 'create'];
// acorn comes with rollup's terser plugin and es-check (not a dependency of its own); the syntax check is skipped without it.
const acorn = await import('acorn').catch(() => undefined);

interface SdkModule {
  VERSION: string;
  AgeVerify: new (options: Record<string, unknown>, env?: unknown) => { verify(options?: unknown): Promise<{ ok: boolean }> };
  AgeVerifyError: new (...args: never[]) => Error;
  create: unknown;
}

describe.skipIf(!built)('sdk/dist', () => {
  test.each(['ageverify.esm.js', 'ageverify.esm.min.js'])('%s exports the API with VERSION from package.json', async (name) => {
    const mod = (await import(file(name).href)) as SdkModule;
    expect(version).toBe('3.5.0');
    expect(mod.VERSION).toBe(version);
    expect(Object.keys(mod).sort()).toEqual(EXPORTS);
  });

  test('no __SDK_VERSION__ placeholder is left in any bundle', () => {
    for (const name of ['ageverify.esm.js', 'ageverify.esm.min.js', 'ageverify.iife.min.js']) {
      expect(readFileSync(file(name), 'utf8')).not.toContain('__SDK_VERSION__');
    }
  });

  function loadIife(scriptSrc: string | null): SdkModule {
    const code = readFileSync(file('ageverify.iife.min.js'), 'utf8');
    const document = { currentScript: scriptSrc ? { tagName: 'SCRIPT', src: scriptSrc } : null, baseURI: 'https://shop.example/checkout' };
    const window = { document };
    // A classic script: `var AgeVerify` becomes a global; here the function scope stands in for it.
    return new Function('window', 'document', `${code}\n;return AgeVerify;`)(window, document) as SdkModule;
  }

  test('the IIFE defines the global AgeVerify with the named exports', () => {
    const global = loadIife('https://svc.example/sdk/ageverify.iife.min.js');
    expect(global.VERSION).toBe(version);
    expect(Object.keys(global).sort()).toEqual(EXPORTS);
    expect(typeof global.AgeVerify).toBe('function');
    expect(new global.AgeVerifyError()).toBeInstanceOf(Error);
  });

  test('the IIFE takes {base_url} from its own script tag', async () => {
    const global = loadIife('https://svc.example/sdk/ageverify.iife.min.js');
    const browser = new FakeBrowser();
    const { scriptUrl: _, ...env } = browser.environment();
    const sdk = new global.AgeVerify({ apiKey: 'pk_test_1', returnUrl: 'https://shop.example/done' }, env);
    expect((await sdk.verify()).ok).toBe(true);
    expect(browser.requests[0]?.url).toBe('https://svc.example/api/v1/sessions/create');
  });

  test('the IIFE refuses a secret key at construction', () => {
    const global = loadIife('https://svc.example/sdk/ageverify.iife.min.js');
    expect(() => new global.AgeVerify({ apiKey: 'sk_live_1', returnUrl: 'https://shop.example' }, {})).toThrow(
      'Secret keys must never be used in browser code',
    );
    expect(() => new global.AgeVerify({ apiKey: 'pk_1', returnUrl: 'https://shop.example', baseUrl: BASE_URL }, {})).not.toThrow();
  });

  // The levels sdk/README.md "Browser support" states, as es-check measures them. Each must pass at
  // its level and fail one below, so the README states the true level, not merely an upper bound.
  const LEVELS = [
    // bundle, module?, syntax, built-ins (--checkFeatures)
    ['ageverify.iife.min.js', false, 'es2015', 'es2017'],
    ['ageverify.esm.min.js', true, 'es2020', 'es2017'],
    ['ageverify.esm.js', true, 'es2020', 'es2017'],
  ] as const;
  const ES_VERSIONS = ['es5', 'es2015', 'es2016', 'es2017', 'es2018', 'es2019', 'es2020'];
  const below = (version: string) => ES_VERSIONS[ES_VERSIONS.indexOf(version) - 1]!;
  // es-check's command line (a root devDependency; its package exports no path to the script).
  const esCheckCli = Bun.fileURLToPath(new URL('../../node_modules/.bin/es-check', import.meta.url));
  const esCheck = (version: string, name: string, module: boolean, checkFeatures: boolean): boolean => {
    const args = [version, Bun.fileURLToPath(file(name)), '--silent', ...(module ? ['--module'] : []), ...(checkFeatures ? ['--checkFeatures'] : [])];
    return Bun.spawnSync([process.execPath, esCheckCli, ...args], { stdout: 'ignore', stderr: 'ignore' }).exitCode === 0;
  };

  test.each(LEVELS)('%s: es-check syntax level (module: %p) is exactly %s', (name, module, syntax) => {
    expect(esCheck(syntax, name, module, false)).toBe(true);
    expect(esCheck(below(syntax), name, module, false)).toBe(false);
  });

  test.each(LEVELS)('%s: es-check built-ins level (module: %p, syntax %s) is exactly %s', (name, module, _, builtIns) => {
    expect(esCheck(builtIns, name, module, true)).toBe(true);
    expect(esCheck(below(builtIns), name, module, true)).toBe(false);
  });

  // Spec "Browser SDK": ES2015 is the minimum.
  test.skipIf(!acorn).each([
    ['ageverify.iife.min.js', 'script'],
    ['ageverify.esm.min.js', 'module'],
  ] as const)('%s parses as ES2015 syntax', (name, sourceType) => {
    // import.meta (ES2020 syntax) is the one exception, in the ES module build only: every browser that
    // runs <script type="module"> with it is above the spec minimums.
    const code = readFileSync(file(name), 'utf8').replace(/import\.meta\.url/g, '"about:blank"');
    expect(() => acorn?.parse(code, { ecmaVersion: 2015, sourceType })).not.toThrow();
  });
});
