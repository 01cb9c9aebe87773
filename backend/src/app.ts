/**
 * The HTTP application: every module mounted on one Elysia instance. Built from plain
 * dependencies so tests run the whole pipeline in-process with app.handle(new Request(...)).
 */
import { Elysia, type AnyElysia } from 'elysia';
import { cors } from '@elysiajs/cors';
import type { Clock } from './clock';
import type { Db } from './db/database';
import { databaseReadiness, type Readiness } from './db/readiness';
import { HTTP_ERRORS } from './http/errors';
import { DATABASE_RETRY_AFTER_SECONDS } from './db/database-unavailable';
import type { Logger } from './log';
import type { DatabaseIdentity } from './db/database-identity';
import { errorHandling } from './http/error-handling';
import { allowedMethodsOf } from './http/allowed-methods';
import { staticAssets } from './http/static-assets';
import { securityHeaders } from './http/security-headers';
import { openapiRoutes } from './http/openapi';
import { receiptRoutes } from './modules/receipts';
import { sessionRoutes } from './modules/sessions';
import { verifyRoutes } from './modules/verify';
import { CHECKS_PATH, checkRoutes } from './modules/engine';
import { EnginePool } from './modules/engine/runtime/engine-pool';
import { DEFAULT_L1_AGE_MARGIN } from './config';
import { dashboardRoutes } from './modules/dashboard';
import type { GuardOptions } from './modules/webhooks/destinations/destination-guard';
import type { WebhookSettings } from './modules/webhooks/settings';

const CROSS_ORIGIN_PATHS = new Set(['/api/v1/sessions/create', '/api/v1/verify/cancel']);

export interface AppDeps {
  db: Db;
  clock: Clock;
  logger: Logger;
  serverSecret: string;
  publicBaseUrl: string;
  verifyUrl: string;
  maxBodyBytes: number;
  /** The verification engine's worker pool (modules/engine); started lazily on the first live check. */
  engine?: Pick<EnginePool, 'run'>;
  /** L1_AGE_MARGIN (config); default DEFAULT_L1_AGE_MARGIN. */
  l1AgeMargin?: number;
  /** Reported on /healthz so the CLI can tell when it is not on the server's database. */
  databaseIdentity?: DatabaseIdentity;
  /** Defaults to a cached `select 1` on `db`. */
  readiness?: Readiness;
  /** DASHBOARD_SIGNUP (config): sign-up of further tenants from the dashboard. Default false. */
  dashboardSignup?: boolean;
  /** Webhook destination rules for dashboard endpoint changes and tests (main.ts: the config's). */
  webhookGuard?: GuardOptions;
  webhookSettings?: WebhookSettings;
  /** The client's IP (the dashboard's login rate limit); main.ts reads it from Bun's server. */
  clientIp?: (request: Request) => string | null;
}

export function createApp(deps: AppDeps) {
  const readiness = deps.readiness ?? databaseReadiness(deps.db);
  // The OpenAPI document describes this very app's route table, complete only once it is built.
  let self: AnyElysia | null = null;
  // The route table exists once every module is mounted; 405 answers read it then.
  let allowedMethods: (path: string) => string[] = () => [];
  const app =
    // strictPath: one canonical path per operation (a trailing slash is another path, so a 404).
    new Elysia({ normalize: false, strictPath: true })
      .use(errorHandling({ ...deps, allowedMethods: (path) => allowedMethods(path), ownBodyPaths: new Set([CHECKS_PATH]) }))
      .use(securityHeaders(deps))
      // CORS: session creation answers browsers from any origin (publishable keys,
      // no credentials), and so does the SDK's cancel report (authenticated by the sessionToken);
      // validation and every secret-key operation send no CORS headers.
      .use(
        new Elysia({ name: 'create-cors' }).use(
          cors({
            origin: (request) => CROSS_ORIGIN_PATHS.has(new URL(request.url).pathname),
            methods: ['POST', 'OPTIONS'],
            allowedHeaders: ['authorization', 'x-api-key', 'content-type', 'x-request-id', 'idempotency-key'],
            exposeHeaders: [
              'x-request-id',
              'x-ratelimit-limit',
              'x-ratelimit-window',
              'x-ratelimit-remaining',
              'x-ratelimit-retry-after',
              'idempotent-replayed',
              'retry-after',
            ],
            credentials: false,
            maxAge: 600,
          }),
        ),
      )
      // Liveness: the process answers, whatever the database does (a restart would not bring the
      // database back). It reports the last known database state, refreshed in the background, and
      // which database this is (the CLI compares it with its own: cli/server-database-check.ts).
      .get('/healthz', () => {
        void readiness.check();
        return { status: 'ok', database: { state: readiness.lastKnown(), ...deps.databaseIdentity } };
      })
      // Readiness: send traffic here only while the database is reachable (issue 15, item 2).
      .get('/readyz', async () => {
        if ((await readiness.check()) !== 'up') throw HTTP_ERRORS.NOT_READY({ headers: { 'retry-after': String(DATABASE_RETRY_AFTER_SECONDS) } });
        return { status: 'ready', database: 'up' };
      })
      // The dashboard (issue 12): `/` leads to it; it shows first-run setup, sign-in or the app.
      .get('/', ({ redirect }) => redirect('/dashboard/', 303))
      .use(
        dashboardRoutes({
          ...deps,
          signupEnabled: deps.dashboardSignup ?? false,
          guard: deps.webhookGuard ?? { allowedCidrs: [], caFile: null },
          webhookSettings: deps.webhookSettings,
        }),
      )
      .use(sessionRoutes(deps))
      .use(receiptRoutes(deps))
      .use(verifyRoutes(deps))
      .use(
        checkRoutes({ ...deps, engine: deps.engine ?? new EnginePool({ workers: 1, queueLimit: 8 }), l1AgeMargin: deps.l1AgeMargin ?? DEFAULT_L1_AGE_MARGIN }),
      )
      .use(staticAssets())
      .use(openapiRoutes(() => self!));
  self = app;
  allowedMethods = allowedMethodsOf(app.routes);
  return app;
}

export type App = ReturnType<typeof createApp>;
