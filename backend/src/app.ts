/**
 * The HTTP application: every module mounted on one Elysia instance. Built from plain
 * dependencies so tests run the whole pipeline in-process with app.handle(new Request(...)).
 */
import { Elysia } from 'elysia';
import { cors } from '@elysiajs/cors';
import type { Clock } from './clock';
import type { Db } from './db/database';
import { databaseReadiness, type Readiness } from './db/readiness';
import { HttpError } from './http/http-error';
import type { Logger } from './log';
import { errorHandling } from './http/error-handling';
import { allowedMethodsOf } from './http/allowed-methods';
import { staticAssets } from './http/static-assets';
import { OPENAPI_PATH, openapiDocument, referencePage } from './http/openapi';
import { sessionRoutes } from './modules/sessions';
import { verifyRoutes } from './modules/verify';

/** What a 503 asks callers to wait: about the readiness cache and the reconnect backoff's cap. */
const RETRY_AFTER_SECONDS = 2;

const CROSS_ORIGIN_PATHS = new Set(['/api/v1/sessions/create', '/api/v1/verify/cancel']);

export interface AppDeps {
  db: Db;
  clock: Clock;
  logger: Logger;
  serverSecret: string;
  publicBaseUrl: string;
  verifyUrl: string;
  maxBodyBytes: number;
  /** Defaults to a cached `select 1` on `db`. */
  readiness?: Readiness;
}

export function createApp(deps: AppDeps) {
  const readiness = deps.readiness ?? databaseReadiness(deps.db);
  // The reference page renders the document this very app generates.
  let handle: (request: Request) => Promise<Response> = async () => new Response('{}');
  // The route table exists once every module is mounted; 405 answers read it then.
  let allowedMethods: (path: string) => string[] = () => [];
  const app = (
    // strictPath: one canonical path per operation (a trailing slash is another path, so a 404).
    new Elysia({ normalize: false, strictPath: true })
      .use(errorHandling({ ...deps, allowedMethods: (path) => allowedMethods(path) }))
      // DESIGN.md §2 CORS: session creation answers browsers from any origin (publishable keys,
      // no credentials), and so does the SDK's cancel report (authenticated by the sessionToken);
      // validation and every secret-key operation send no CORS headers.
      .use(
        new Elysia({ name: 'create-cors' }).use(
          cors({
            origin: (request) => CROSS_ORIGIN_PATHS.has(new URL(request.url).pathname),
            methods: ['POST', 'OPTIONS'],
            allowedHeaders: ['authorization', 'x-api-key', 'content-type', 'x-request-id', 'idempotency-key'],
            exposeHeaders: ['x-request-id', 'x-ratelimit-limit', 'x-ratelimit-window', 'x-ratelimit-remaining', 'x-ratelimit-retry-after', 'idempotent-replayed', 'retry-after'],
            credentials: false,
            maxAge: 600,
          }),
        ),
      )
      // Liveness: the process answers, whatever the database does (a restart would not bring the
      // database back). It reports the last known database state and refreshes it in the background.
      .get('/healthz', () => {
        void readiness.check();
        return { status: 'ok', database: readiness.lastKnown() };
      })
      // Readiness: send traffic here only while the database is reachable (issue 15, item 2).
      .get('/readyz', async () => {
        if ((await readiness.check()) !== 'up') {
          throw new HttpError(503, 'The database cannot be reached; retry later', { headers: { 'retry-after': String(RETRY_AFTER_SECONDS) } });
        }
        return { status: 'ready', database: 'up' };
      })
      .use(sessionRoutes(deps))
      .use(verifyRoutes(deps))
      .use(staticAssets())
      .use(openapiDocument())
      .use(referencePage(async () => (await handle(new Request(`http://internal${OPENAPI_PATH}`))).json()))
  );
  handle = (request) => app.handle(request);
  allowedMethods = allowedMethodsOf(app.routes);
  return app;
}

export type App = ReturnType<typeof createApp>;
