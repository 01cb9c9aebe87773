/**
 * Example merchant: the smallest complete integration of the age verification service.
 *
 *   GET /        shop page; the browser SDK (publishable key) creates a session and redirects
 *                the user to the hosted verify UI.
 *   GET /return  where the verify UI sends the user back. The server validates `sessionId` with
 *                the secret key and decides from that answer alone; the `status` parameter is
 *                never trusted (spec "End-user redirect and callback").
 *
 * Run: PORT=4000 SERVICE_URL=http://127.0.0.1:3000 PUBLISHABLE_KEY=pk_… SECRET_KEY=sk_… bun examples/merchant/server.ts
 */
import { errorPage, returnPage, shopPage } from './pages';
import { validateSession } from './validate';

export interface MerchantConfig {
  /** Origin of the age verification service. */
  serviceUrl: string;
  publishableKey: string;
  secretKey: string;
}

/** The signed-in customer of this demo shop. A real shop takes it from its own login session. */
const DEMO_USER_ID = 'user-42';

export function createMerchant(config: MerchantConfig): (request: Request) => Promise<Response> {
  return async (request) => {
    const url = new URL(request.url);
    if (request.method !== 'GET') return html(errorPage('Method not allowed', `${request.method} is not supported.`), 405);

    if (url.pathname === '/') {
      return html(
        shopPage({
          serviceUrl: config.serviceUrl,
          publishableKey: config.publishableKey,
          // The host the user browses with must be on the tenant's allowed-domain list.
          returnUrl: new URL('/return', url.origin).href,
          externalUserId: DEMO_USER_ID,
        }),
      );
    }

    if (url.pathname === '/return') {
      const sessionId = url.searchParams.get('sessionId');
      if (!sessionId) return html(errorPage('Missing session', 'The return URL carries no sessionId.'), 400);
      const outcome = await validateSession({ serviceUrl: config.serviceUrl, secretKey: config.secretKey, sessionId });
      return html(returnPage(outcome, url.searchParams.get('status')));
    }

    return html(errorPage('Not found', `Nothing at ${url.pathname}.`), 404);
  };
}

function html(body: string, status = 200): Response {
  // The return page shows a one-time validation result: never cache it.
  return new Response(body, { status, headers: { 'content-type': 'text/html; charset=utf-8', 'cache-control': 'no-store' } });
}

function exitWith(message: string): never {
  console.error(message);
  process.exit(1);
}

function requiredEnv(name: string, hint: string): string {
  return process.env[name] || exitWith(`Missing ${name}: ${hint}`);
}

if (import.meta.main) {
  const config: MerchantConfig = {
    serviceUrl: requiredEnv('SERVICE_URL', 'the age verification service origin, e.g. http://127.0.0.1:3000'),
    publishableKey: requiredEnv('PUBLISHABLE_KEY', 'the pk_ key printed by `bun run cli tenant create`'),
    secretKey: requiredEnv('SECRET_KEY', 'the sk_ key printed by `bun run cli tenant create`'),
  };
  if (!config.publishableKey.startsWith('pk_')) exitWith('PUBLISHABLE_KEY must be the publishable key (pk_…)');
  if (!config.secretKey.startsWith('sk_')) exitWith('SECRET_KEY must be the secret key (sk_…)');

  const server = Bun.serve({
    hostname: process.env.HOST ?? '127.0.0.1',
    port: Number(process.env.PORT ?? 4000),
    fetch: createMerchant(config),
  });
  console.log(`Demo shop listening on http://${server.hostname}:${server.port} (service: ${config.serviceUrl})`);
}
