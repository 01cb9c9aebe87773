/**
 * `bun run start` builds the bundles the server serves only when their inputs changed.
 *
 * A full rollup run takes 15–50 s (terser, two TypeScript programs), and `start` used to pay it on
 * every restart. Each bundle's inputs (its sources, the protocol sources it inlines, its tsconfigs
 * and package.json, rollup.config.mjs and bun.lock for the tool versions) are hashed, and the hash
 * is kept in a stamp file in .cache/build-stamps/ (not in dist/, which `npm pack` ships). A bundle is rebuilt (ROLLUP_ONLY=<bundle>)
 * when the hash differs or an output is missing; otherwise nothing runs. `bun run build` still
 * builds everything unconditionally (CI, packaging).
 *
 * Usage: bun scripts/build-if-changed.ts [sdk|verify-ui|dashboard|server-sdk …]   (default: sdk verify-ui dashboard)
 *        bun scripts/build-if-changed.ts --stamp   (after a full build: records every bundle as built)
 */
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, readdirSync, statSync, writeFileSync } from 'node:fs';
import { join, relative } from 'node:path';

const repoRoot = join(import.meta.dir, '..');
const STAMPS = '.cache/build-stamps';

interface Bundle {
  /** Files and folders (recursive) whose content decides the output. */
  inputs: string[];
  /** Files the build must have produced; one missing means rebuild. */
  outputs: string[];
  dist: string;
}

const SHARED_INPUTS = ['rollup.config.mjs', 'bun.lock', 'tsconfig.json', 'protocol/src', 'protocol/package.json'];

export const BUNDLES: Record<string, Bundle> = {
  sdk: {
    inputs: [...SHARED_INPUTS, 'sdk/src', 'sdk/package.json', 'sdk/tsconfig.json', 'sdk/tsconfig.build.json'],
    outputs: ['ageverify.esm.js', 'ageverify.esm.min.js', 'ageverify.iife.min.js', 'ageverify.d.ts'],
    dist: 'sdk/dist',
  },
  'verify-ui': {
    inputs: [...SHARED_INPUTS, 'verify-ui/src', 'verify-ui/package.json', 'verify-ui/tsconfig.json', 'verify-ui/tsconfig.build.json'],
    outputs: ['verify.js'],
    dist: 'verify-ui/dist',
  },
  dashboard: {
    inputs: [
      ...SHARED_INPUTS,
      'dashboard/src',
      'dashboard/index.html',
      'dashboard/package.json',
      'dashboard/tsconfig.json',
      'dashboard/tsconfig.build.json',
      // The QR encoder it shares with the verify UI (two-factor enrolment; decision 0057).
      'verify-ui/src/qr-code.ts',
      'verify-ui/package.json',
    ],
    outputs: ['index.html'],
    dist: 'dashboard/dist',
  },
  'server-sdk': {
    inputs: [...SHARED_INPUTS, 'server-sdk/src', 'server-sdk/package.json', 'server-sdk/tsconfig.json', 'server-sdk/tsconfig.build.json'],
    outputs: ['index.js', 'index.cjs', 'index.d.ts', 'index.d.cts'],
    dist: 'server-sdk/dist',
  },
};

function filesUnder(path: string): string[] {
  if (!existsSync(path)) return [];
  if (!statSync(path).isDirectory()) return [path];
  return readdirSync(path, { withFileTypes: true })
    .filter((entry) => entry.name !== 'node_modules' && entry.name !== 'dist')
    .flatMap((entry) => filesUnder(join(path, entry.name)));
}

/** Content hash of every input file, with its path (a rename is a change too). */
export function inputsHash(root: string, bundle: Bundle): string {
  const hash = createHash('sha256');
  const files = bundle.inputs.flatMap((input) => filesUnder(join(root, input))).sort();
  for (const file of files) {
    hash.update(relative(root, file)).update('\0').update(readFileSync(file)).update('\0');
  }
  return hash.digest('hex');
}

/** Why a bundle needs building, or null when its stamp matches and every output is there. */
export function staleReason(root: string, bundle: Bundle, hash: string): string | null {
  const missing = bundle.outputs.find((name) => !existsSync(join(root, bundle.dist, name)));
  if (missing) return `${bundle.dist}/${missing} is missing`;
  const stampFile = stampPath(root, bundle);
  if (!existsSync(stampFile)) return 'no build stamp';
  return readFileSync(stampFile, 'utf8').trim() === hash ? null : 'sources changed';
}

const stampPath = (root: string, bundle: Bundle) => join(root, STAMPS, `${bundle.dist.replaceAll('/', '_')}.sha256`);

export function writeStamp(root: string, bundle: Bundle, hash: string): void {
  mkdirSync(join(root, STAMPS), { recursive: true });
  writeFileSync(stampPath(root, bundle), `${hash}\n`);
}

async function main(names: string[]): Promise<number> {
  for (const name of names) {
    const bundle = BUNDLES[name];
    if (!bundle) {
      console.error(`unknown bundle ${name}: expected one of ${Object.keys(BUNDLES).join(', ')}`);
      return 2;
    }
    const hash = inputsHash(repoRoot, bundle);
    const reason = staleReason(repoRoot, bundle, hash);
    if (!reason) continue;
    console.error(`building ${name} (${reason})…`);
    // The same rollup (and runtime, Node) as `bun run build`.
    const child = Bun.spawn([join(repoRoot, 'node_modules/.bin/rollup'), '-c', 'rollup.config.mjs', '--silent'], {
      cwd: repoRoot,
      env: { ...process.env, ROLLUP_ONLY: name },
      stdio: ['ignore', 'inherit', 'inherit'],
    });
    const code = await child.exited;
    if (code !== 0) return code;
    // Hashed before the build: an edit made during the build leaves the stamp stale, so it rebuilds next time.
    writeStamp(repoRoot, bundle, hash);
  }
  return 0;
}

if (import.meta.main) {
  const names = process.argv.slice(2);
  if (names[0] === '--stamp') {
    // `ROLLUP_ONLY=sdk bun run build` built one bundle: only that one may be recorded as built.
    const built = process.env.ROLLUP_ONLY ? [BUNDLES[process.env.ROLLUP_ONLY]!] : Object.values(BUNDLES);
    for (const bundle of built) writeStamp(repoRoot, bundle, inputsHash(repoRoot, bundle));
    process.exit(0);
  }
  process.exit(await main(names.length > 0 ? names : ['sdk', 'verify-ui', 'dashboard']));
}
