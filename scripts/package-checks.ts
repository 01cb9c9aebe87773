/**
 * The two published packages, used the way a merchant outside this repository uses them:
 *
 *   1. `npm pack` in server-sdk/ and sdk/; each tarball holds exactly the expected files, and its
 *      package.json has no `workspace:` reference, no dependencies and is not private
 *   2. `npm install` of both tarballs into an empty scratch project (offline: they depend on
 *      nothing, so an install that needs the registry is itself a failure)
 *   3. Node runs @ageverify/server from an ESM `.mjs` and a CJS `.cjs` file (known signature
 *      vectors, the key checks), Bun runs the `.mjs` too, and Node imports @ageverify/sdk
 *   4. the repository's tsc compiles usage files against the installed types under
 *      `moduleResolution` nodenext, node16 and bundler (ESM and CJS importers)
 *
 * Each numbered item is one or more named checks; every check counts as one test. A check that
 * cannot run because an earlier one failed (nothing to install without a tarball) counts as failed.
 *
 * Run alone: `bun scripts/package-checks.ts` (packs with npm's prepack, which builds first; exit
 * code 1 when a check failed). `bun run test` runs it as the "packages" step right after its build
 * step, so there it packs the fresh dist/ as it is (`--no-build`).
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Counts } from './test-reports';

const repoRoot = join(import.meta.dir, '..');
const tsc = join(repoRoot, 'node_modules/typescript/bin/tsc');
const COMMAND_TIMEOUT_MS = 180_000;

/** What each tarball must contain: the build, the README, the manifest, nothing else (no src, tests, tsconfig). */
export const PACKAGES = {
  server: {
    dir: 'server-sdk',
    name: '@ageverify/server',
    files: ['README.md', 'dist/index.cjs', 'dist/index.d.cts', 'dist/index.d.ts', 'dist/index.js', 'package.json'],
  },
  sdk: {
    dir: 'sdk',
    name: '@ageverify/sdk',
    files: [
      'README.md',
      'dist/ageverify.d.ts',
      'dist/ageverify.esm.js',
      'dist/ageverify.esm.js.map',
      'dist/ageverify.esm.min.js',
      'dist/ageverify.esm.min.js.map',
      'dist/ageverify.iife.min.js',
      'dist/ageverify.iife.min.js.map',
      'package.json',
    ],
  },
} as const;

/** Why a packed package.json would not install or work outside this repository; empty when it would. */
export function manifestProblems(manifest: Record<string, unknown>): string[] {
  const problems: string[] = [];
  if (JSON.stringify(manifest).includes('workspace:')) problems.push('it refers to a workspace: version, which npm cannot install');
  if (manifest.private === true) problems.push('it is private, so npm publish refuses it');
  for (const field of ['dependencies', 'peerDependencies', 'optionalDependencies', 'bundleDependencies']) {
    const value = manifest[field];
    if (value && Object.keys(value as object).length > 0)
      problems.push(`it has ${field} (${Object.keys(value as object).join(', ')}); the package must be self-contained`);
  }
  if (!manifest.exports) problems.push('it has no "exports"');
  return problems;
}

/** The difference between the files a tarball holds and the expected list; empty when equal. */
export function fileListProblems(actual: readonly string[], expected: readonly string[]): string[] {
  const extra = actual.filter((file) => !expected.includes(file));
  const missing = expected.filter((file) => !actual.includes(file));
  return [...extra.map((file) => `unexpected file ${file}`), ...missing.map((file) => `missing file ${file}`)];
}

// ── the scratch project's files ─────────────────────────────────────────────────────────────────

/** The Standard Webhooks specification's published example, and `printf abc | openssl dgst -sha256 -hmac key`. */
const RUNTIME_CHECK = (load: string) => `${load}
const failures = [];
const check = (name, ok) => { if (!ok) failures.push(name); };
check('exports', ['AgeVerifyApiError', 'DEFAULT_TOLERANCE_SECONDS', 'RECEIPT_TYPE', 'createClient', 'signWebhookBody', 'standardSignature', 'standardWebhooksKey', 'verifyReceipt', 'verifyStandardWebhook', 'verifyWebhookSignature'].every((name) => name in server));
check('signWebhookBody vector', server.signWebhookBody('abc', 'key') === 'sha256=9c196e32dc0175f86f4b1cb89289d6619de6bee699e4c378e68309ed97a1a6ab');
check('verifyWebhookSignature accepts', server.verifyWebhookSignature('abc', 'sha256=9c196e32dc0175f86f4b1cb89289d6619de6bee699e4c378e68309ed97a1a6ab', 'key') === true);
check('verifyWebhookSignature refuses', server.verifyWebhookSignature('abd', 'sha256=9c196e32dc0175f86f4b1cb89289d6619de6bee699e4c378e68309ed97a1a6ab', 'key') === false);
const headers = { 'webhook-id': 'msg_p5jXN8AQM9LWM0D4loKWxJek', 'webhook-timestamp': '1614265330', 'webhook-signature': 'v1,g0hM9SsE+OTPJTGt/tmIKtSyZlE3uFJELVlNIOLJ1OE=' };
const verdict = server.verifyStandardWebhook('{"test": 2432232314}', headers, 'whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw', { nowSeconds: 1614265330 });
check('verifyStandardWebhook accepts the published example', verdict.ok === true && verdict.id === 'msg_p5jXN8AQM9LWM0D4loKWxJek');
let refused = false;
try { server.createClient({ baseUrl: 'https://verify.example.com/api/v1', secretKey: 'pk_live_x' }); } catch (error) { refused = error instanceof TypeError; }
check('createClient refuses a publishable key', refused);
check('createClient accepts a secret key', typeof server.createClient({ baseUrl: 'https://verify.example.com/api/v1', secretKey: 'sk_live_x' }).validateSession === 'function');
// A receipt signed here with WebCrypto (ES256, as the service signs), checked by verifyReceipt.
const receiptChecks = async () => {
  const { subtle } = globalThis.crypto;
  const pair = await subtle.generateKey({ name: 'ECDSA', namedCurve: 'P-256' }, true, ['sign', 'verify']);
  const jwks = { keys: [{ ...(await subtle.exportKey('jwk', pair.publicKey)), kid: 'k1', alg: 'ES256', use: 'sig' }] };
  const b64 = (value) => Buffer.from(value).toString('base64url');
  const header = b64(JSON.stringify({ alg: 'ES256', typ: server.RECEIPT_TYPE, kid: 'k1' }));
  const payload = b64(JSON.stringify({ iss: 'https://verify.example.com', sub: 'ses_1', tenantId: 'ten_1', outcome: 'verified' }));
  const signature = b64(new Uint8Array(await subtle.sign({ name: 'ECDSA', hash: 'SHA-256' }, pair.privateKey, new TextEncoder().encode(header + '.' + payload))));
  check('verifyReceipt accepts', (await server.verifyReceipt(header + '.' + payload + '.' + signature, { jwks, tenantId: 'ten_1' })).ok === true);
  check('verifyReceipt refuses another tenant', (await server.verifyReceipt(header + '.' + payload + '.' + signature, { jwks, tenantId: 'ten_2' })).reason === 'wrong-tenant');
  const changed = b64(JSON.stringify({ iss: 'https://verify.example.com', sub: 'ses_1', tenantId: 'ten_1', outcome: 'failed' }));
  check('verifyReceipt refuses a changed claim', (await server.verifyReceipt(header + '.' + changed + '.' + signature, { jwks })).reason === 'invalid-signature');
};
receiptChecks().then(
  () => {
    if (failures.length > 0) { console.error('failed: ' + failures.join(', ')); process.exit(1); }
    console.log('ok');
  },
  (error) => { console.error('failed: receipt checks threw ' + error); process.exit(1); },
);
`;

const SDK_RUNTIME_CHECK = `import * as sdk from '@ageverify/sdk';
const keys = Object.keys(sdk).sort().join(',');
if (sdk.VERSION !== '3.5.0' || keys !== 'AgeVerify,AgeVerifyError,VERSION,create') {
  console.error('unexpected: VERSION ' + sdk.VERSION + ', exports ' + keys);
  process.exit(1);
}
console.log('ok');
`;

/** Valid usages must compile and the @ts-expect-error lines must be errors, so the types are real, not `any`. */
const SERVER_USAGE = `import { AgeVerifyApiError, createClient, verifyReceipt, verifyStandardWebhook, verifyWebhookSignature, type ReceiptVerdict, type StandardVerdict, type ValidateOutcome, type ValidateSessionResult } from '@ageverify/server';

const client = createClient({ baseUrl: 'https://verify.example.com/api/v1', secretKey: 'sk_test_x', timeoutMs: 5_000 });

export async function accessGranted(sessionId: string): Promise<boolean> {
  const outcome: ValidateOutcome = await client.validateSession(sessionId);
  if (outcome.ok) {
    const result: ValidateSessionResult = outcome.result;
    return result.accessGranted && result.status === 'verified';
  }
  const reason: 'already-used' | 'expired' | 'not-found' | 'other-tenant' = outcome.reason;
  return outcome.error instanceof AgeVerifyApiError && reason === 'already-used';
}

export const serviceSignatureOk: boolean = verifyWebhookSignature(new Uint8Array([1, 2]), null, 'whsec_x');
export const verdict: StandardVerdict = verifyStandardWebhook('{}', { 'webhook-id': 'evt_1' }, 'whsec_x', { nowSeconds: 0 });
// @ts-expect-error secretKey is required
createClient({ baseUrl: 'https://verify.example.com/api/v1' });
// @ts-expect-error validateSession takes a session id string
void client.validateSession(42);

export async function receiptOutcome(receipt: string): Promise<string> {
  const checked: ReceiptVerdict = await verifyReceipt(receipt, { jwksUrl: 'https://verify.example.com/.well-known/jwks.json', tenantId: 'ten_1' });
  return checked.ok ? checked.claims.outcome : checked.reason;
}
// @ts-expect-error the receipt is a string
void verifyReceipt(42, { jwksUrl: 'https://verify.example.com/.well-known/jwks.json' });
`;

const SDK_USAGE = `import { AgeVerify, AgeVerifyError, VERSION, type AgeVerifyOptions, type VerifyResult } from '@ageverify/sdk';

const options: AgeVerifyOptions = { apiKey: 'pk_test_x', returnUrl: 'https://shop.example/return', mode: 'new-tab', onError: (error: AgeVerifyError) => void error.code };
const ageVerify = new AgeVerify(options);
export const version: string = VERSION;
export async function start(): Promise<boolean> {
  const result: VerifyResult = await ageVerify.verify({ externalUserId: 'customer-42' });
  return result.ok;
}
// @ts-expect-error mode is 'redirect' or 'new-tab'
new AgeVerify({ apiKey: 'pk_test_x', returnUrl: 'https://shop.example/return', mode: 'iframe' });
`;

interface TypeCheck {
  name: string;
  compilerOptions: Record<string, unknown>;
  files: string[];
  /** Declaration files of the packages this program must have loaded (the `types` condition picked). */
  declarations: string[];
}

/** A Node server project (Node's types, no DOM) for the server package; a browser project (DOM) for the SDK. */
const nodeProject = { lib: ['ES2022'], types: ['node'], typeRoots: [join(repoRoot, 'node_modules/@types')] };
const browserProject = { lib: ['ES2022', 'DOM'], types: [] };

// One program per resolution mode and package. Under node16/nodenext an ESM (.mts) and a CJS (.cts)
// importer share the program: the first must load index.d.ts (the `import` condition), the second
// index.d.cts (`require`). The SDK is ES modules only, so it has no CJS importer.
const TYPE_CHECKS: TypeCheck[] = [
  ...(['nodenext', 'node16'] as const).map((mode) => ({
    name: `server under ${mode}, imported from ESM and from CJS`,
    compilerOptions: { module: mode, moduleResolution: mode, ...nodeProject },
    files: ['server-usage.mts', 'server-usage.cts'],
    declarations: ['server/dist/index.d.ts', 'server/dist/index.d.cts'],
  })),
  {
    name: 'server under bundler',
    compilerOptions: { module: 'esnext', moduleResolution: 'bundler', ...nodeProject },
    files: ['server-usage.ts'],
    declarations: ['server/dist/index.d.ts'],
  },
  ...(['nodenext', 'node16'] as const).map((mode) => ({
    name: `sdk under ${mode}, imported from ESM`,
    compilerOptions: { module: mode, moduleResolution: mode, ...browserProject },
    files: ['sdk-usage.mts'],
    declarations: ['sdk/dist/ageverify.d.ts'],
  })),
  {
    name: 'sdk under bundler',
    compilerOptions: { module: 'esnext', moduleResolution: 'bundler', ...browserProject },
    files: ['sdk-usage.ts'],
    declarations: ['sdk/dist/ageverify.d.ts'],
  },
];

const INSTALL_CHECK = 'npm install of both tarballs into an empty project, offline';

/** Each script prints "ok" after its own checks, and exits 1 naming the ones that failed. */
const RUNTIME_CHECKS = [
  ['node: import @ageverify/server (ESM)', ['node', 'server-check.mjs']],
  ['node: require @ageverify/server (CJS)', ['node', 'server-check.cjs']],
  ['bun: import @ageverify/server', [process.execPath, 'server-check.mjs']],
  ['bun: require @ageverify/server', [process.execPath, 'server-check.cjs']],
  ['node: import @ageverify/sdk', ['node', 'sdk-check.mjs']],
] as const;

// ── running the checks ──────────────────────────────────────────────────────────────────────────

interface CommandResult {
  exitCode: number;
  stdout: string;
  stderr: string;
}

async function runCommand(command: string[], cwd: string): Promise<CommandResult> {
  const child = Bun.spawn(command, { cwd, stdout: 'pipe', stderr: 'pipe', timeout: COMMAND_TIMEOUT_MS, env: { ...process.env, NO_COLOR: '1' } });
  const [stdout, stderr, exitCode] = await Promise.all([new Response(child.stdout).text(), new Response(child.stderr).text(), child.exited]);
  return { exitCode, stdout, stderr };
}

/** Throws with the command's output unless it exited 0. */
async function mustRun(command: string[], cwd: string): Promise<string> {
  const result = await runCommand(command, cwd);
  if (result.exitCode !== 0) {
    const output = `${result.stdout}\n${result.stderr}`.trim().split('\n').slice(-30).join('\n');
    throw new Error(`\`${command.join(' ')}\` (in ${cwd}) exited with ${result.exitCode}:\n${output}`);
  }
  return result.stdout;
}

class CheckRun {
  readonly counts: Counts = { passed: 0, failed: 0, skipped: 0 };

  /** Runs one check; a thrown error fails it. Returns whether it passed. */
  async check(name: string, body: () => Promise<void>): Promise<boolean> {
    const started = performance.now();
    try {
      await body();
      this.counts.passed += 1;
      console.log(`  ✓ ${name} (${((performance.now() - started) / 1000).toFixed(1)}s)`);
      return true;
    } catch (error) {
      this.counts.failed += 1;
      const message = error instanceof Error ? error.message : String(error);
      console.log(`  ✗ ${name}\n${message.replace(/^/gm, '      ')}`);
      return false;
    }
  }

  /** Counts checks that could not run as failed, so a broken step never looks smaller than it is. */
  notRun(names: string[], reason: string): void {
    for (const name of names) {
      this.counts.failed += 1;
      console.log(`  ✗ ${name}\n      not run: ${reason}`);
    }
  }
}

/** Every check; resolves to the counts. `build: false` packs the dist/ folders as they are (no prepack). */
export async function runPackageChecks(options: { build: boolean }): Promise<Counts> {
  const run = new CheckRun();
  const workDir = mkdtempSync(join(tmpdir(), 'ageverify-packages-'));
  const tarballs: Partial<Record<keyof typeof PACKAGES, string>> = {};
  try {
    for (const key of Object.keys(PACKAGES) as (keyof typeof PACKAGES)[]) {
      const pkg = PACKAGES[key];
      await run.check(`npm pack ${pkg.dir}: exactly the expected files, a self-contained package.json`, async () => {
        const npmPack = ['npm', 'pack', '--json', '--pack-destination', workDir, ...(options.build ? [] : ['--ignore-scripts'])];
        const report = JSON.parse(await mustRun(npmPack, join(repoRoot, pkg.dir))) as { name: string; filename: string; files: { path: string }[] }[];
        const packed = report[0];
        if (!packed || packed.name !== pkg.name) throw new Error(`npm pack reported ${JSON.stringify(report).slice(0, 300)}`);
        const tarball = join(workDir, packed.filename);
        // Kept even when the checks below fail: the later checks then show what that breaks.
        tarballs[key] = tarball;
        const manifest = JSON.parse(await mustRun(['tar', '-xOzf', tarball, 'package/package.json'], workDir)) as Record<string, unknown>;
        const problems = [...fileListProblems(packed.files.map((file) => file.path).sort(), pkg.files), ...manifestProblems(manifest)];
        if (problems.length > 0) throw new Error(`${packed.filename}: ${problems.join('; ')}`);
      });
    }

    const project = join(workDir, 'merchant-project');
    mkdirSync(project);
    const afterInstall = [...RUNTIME_CHECKS.map(([name]) => name), ...TYPE_CHECKS.map((typeCheck) => `tsc: ${typeCheck.name}`)];
    if (!tarballs.server || !tarballs.sdk) {
      run.notRun([INSTALL_CHECK, ...afterInstall], 'a package did not pack');
      return run.counts;
    }
    const installed = await run.check(INSTALL_CHECK, async () => {
      writeFileSync(join(project, 'package.json'), JSON.stringify({ name: 'merchant-project', version: '1.0.0', private: true }, null, 2));
      await mustRun(['npm', 'install', '--offline', '--no-audit', '--no-fund', '--ignore-scripts', tarballs.server!, tarballs.sdk!], project);
    });
    if (!installed) {
      run.notRun(afterInstall, 'the install failed');
      return run.counts;
    }

    writeFileSync(join(project, 'server-check.mjs'), RUNTIME_CHECK(`import * as server from '@ageverify/server';`));
    writeFileSync(join(project, 'server-check.cjs'), RUNTIME_CHECK(`const server = require('@ageverify/server');`));
    writeFileSync(join(project, 'sdk-check.mjs'), SDK_RUNTIME_CHECK);
    for (const [name, command] of RUNTIME_CHECKS) {
      await run.check(name, async () => {
        const output = (await mustRun([...command], project)).trim();
        if (output !== 'ok') throw new Error(`\`${command.join(' ')}\` printed ${JSON.stringify(output)} instead of "ok"`);
      });
    }

    for (const extension of ['ts', 'mts', 'cts']) {
      writeFileSync(join(project, `server-usage.${extension}`), SERVER_USAGE);
      writeFileSync(join(project, `sdk-usage.${extension}`), SDK_USAGE);
    }
    for (const typeCheck of TYPE_CHECKS) {
      await run.check(`tsc: ${typeCheck.name}`, async () => {
        const config = join(project, `tsconfig.${typeCheck.name.replace(/[^a-z0-9]+/gi, '-')}.json`);
        // skipLibCheck off, so the packages' declaration files are checked too; TypeScript's own
        // lib files need no checking (skipDefaultLibCheck), which halves the time.
        const compilerOptions = { strict: true, noEmit: true, skipLibCheck: false, skipDefaultLibCheck: true, target: 'ES2022', ...typeCheck.compilerOptions };
        writeFileSync(config, JSON.stringify({ compilerOptions, files: typeCheck.files }, null, 2));
        const result = await runCommand(['node', tsc, '-p', config, '--listFiles'], project);
        const listed = result.stdout;
        if (result.exitCode !== 0) {
          // The errors, without the list of every file in the program.
          const errors = listed.split('\n').filter((line) => !/^\/\S+\.[cm]?ts$/.test(line.trim()));
          throw new Error(`tsc exited with ${result.exitCode}:\n${[...errors, result.stderr].join('\n').trim()}`);
        }
        const missing = typeCheck.declarations.filter((declaration) => !listed.includes(`/node_modules/@ageverify/${declaration}`));
        if (missing.length > 0) throw new Error(`compiled, but not against ${missing.join(', ')}; files:\n${listed}`);
      });
    }
    return run.counts;
  } finally {
    rmSync(workDir, { recursive: true, force: true });
  }
}

if (import.meta.main) {
  const build = !process.argv.includes('--no-build');
  const counts = await runPackageChecks({ build });
  console.log(`\npackages: ${counts.passed} passed, ${counts.failed} failed`);
  process.exit(counts.failed > 0 || counts.passed === 0 ? 1 : 0);
}
