/** An in-process app on a test database, with a manual clock and helpers to call it. */
import { ManualClock } from '../clock';
import { createApp, type AppDeps } from '../app';
import { silentLogger } from '../log';
import { createTenant } from '../modules/tenants/service';
import { openTestDatabase, type TestDatabase } from './test-databases';

export const TEST_SECRET = 'test-server-secret-0123456789abcdef0123456789';

export interface TestContext {
  database: TestDatabase;
  clock: ManualClock;
  app: ReturnType<typeof createApp>;
  request(method: string, path: string, options?: { body?: unknown; rawBody?: string; key?: string; headers?: Record<string, string> }): Promise<Response>;
  json<T = Record<string, any>>(response: Response): Promise<T>;
  tenant(options?: { sandbox?: boolean; domains?: string[]; name?: string }): ReturnType<typeof createTenant>;
  close(): Promise<void>;
}

export async function createTestContext(
  target: 'pglite' | 'postgres',
  options: Pick<AppDeps, 'engine' | 'l1AgeMargin' | 'webhookGuard' | 'dashboardSignup' | 'databaseIdentity' | 'clientIp'> &
    Partial<Pick<AppDeps, 'publicBaseUrl'>> = {},
): Promise<TestContext> {
  const database = await openTestDatabase(target);
  const clock = new ManualClock();
  const app = createApp({
    db: database.db,
    clock,
    logger: silentLogger,
    serverSecret: TEST_SECRET,
    publicBaseUrl: 'http://localhost:3000',
    verifyUrl: 'http://localhost:3000/verify',
    maxBodyBytes: 16 * 1024,
    ...options,
  });
  return {
    database,
    clock,
    app,
    request(method, path, options = {}) {
      const headers: Record<string, string> = { ...options.headers };
      if (options.key) headers.authorization = `Bearer ${options.key}`;
      let body: string | undefined = options.rawBody;
      if (options.body !== undefined) body = JSON.stringify(options.body);
      if (body !== undefined) headers['content-type'] ??= 'application/json';
      return app.handle(new Request(`http://localhost:3000${path}`, { method, headers, body }));
    },
    json: async (response) => (await response.json()) as never,
    tenant: (options = {}) =>
      createTenant(database.db, clock, {
        name: options.name ?? 'Test Shop',
        domains: options.domains ?? ['shop.example.com'],
        sandbox: options.sandbox ?? true,
      }),
    close: () => database.close(),
  };
}
