/**
 * The database targets the suite runs against, and the description of the running services that
 * global setup hands to the tests (a JSON file named by AGEVERIFY_E2E_ENVIRONMENT).
 */
import { readFileSync } from 'node:fs';

/**
 * `pglite` (embedded, fresh folder) always; `postgres` when TEST_DATABASE_URL names a server on
 * which the suite may create and drop a throwaway database. Each target is a Playwright project.
 */
export function databaseTargets(env: NodeJS.ProcessEnv = process.env): TargetName[] {
  return env.TEST_DATABASE_URL ? ['pglite', 'postgres'] : ['pglite'];
}

export type TargetName = 'pglite' | 'postgres';

/** What `bun backend/src/cli/main.ts tenant create` prints. */
export interface TenantKeys {
  tenantId: string;
  pairId: string;
  publishableKey: string;
  secretKey: string;
}

export interface TargetEnvironment {
  target: TargetName;
  /** Origin of the age verification service (the backend), e.g. http://127.0.0.1:41234. */
  serviceUrl: string;
  /** Origin of the example merchant app wired to the sandbox tenant. */
  merchantUrl: string;
  /** Origin of the SDK lab (support/sdk-lab.ts): the merchant app plus a page that runs the SDK with any options. */
  sdkLabUrl: string;
  /** Sandbox key pair (outcomes are simulated); allowed domain 127.0.0.1. */
  sandbox: TenantKeys;
  /** Live key pair of a second tenant, for negative checks; allowed domain 127.0.0.1. */
  live: TenantKeys;
  /** The database variables (DATA_DIR or DATABASE_URL) the provisioning CLI needs for this target. */
  cliEnv: Record<string, string>;
}

export type E2EEnvironment = Partial<Record<TargetName, TargetEnvironment>>;

export const ENVIRONMENT_FILE_VARIABLE = 'AGEVERIFY_E2E_ENVIRONMENT';

export function readTargetEnvironment(target: TargetName): TargetEnvironment {
  const file = process.env[ENVIRONMENT_FILE_VARIABLE];
  if (!file) throw new Error(`${ENVIRONMENT_FILE_VARIABLE} is not set: run the suite through e2e/playwright.config.ts, whose global setup starts the services`);
  const environment = JSON.parse(readFileSync(file, 'utf8')) as E2EEnvironment;
  const targetEnvironment = environment[target];
  if (!targetEnvironment)
    throw new Error(`Global setup started no services for target "${target}" (started: ${Object.keys(environment).join(', ') || 'none'})`);
  return targetEnvironment;
}
