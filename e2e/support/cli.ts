/**
 * The provisioning CLI as an operator runs it, against the target's database. With PGlite it
 * forwards to the running backend (which holds the folder), exactly as in production.
 */
import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import type { TargetEnvironment } from './environment';

const repoRoot = fileURLToPath(new URL('../..', import.meta.url));

export function runCli(environment: TargetEnvironment, ...args: string[]): Record<string, any> {
  const env = { ...process.env, ...environment.cliEnv };
  delete env.PORT;
  const result = spawnSync('bun', ['backend/src/cli/main.ts', ...args], { cwd: repoRoot, env, encoding: 'utf8' });
  if (result.status !== 0) throw new Error(`cli ${args.join(' ')} exited ${result.status}: ${result.stderr}`);
  return JSON.parse(result.stdout) as Record<string, any>;
}
