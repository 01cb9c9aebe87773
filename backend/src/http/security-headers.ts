/**
 * Headers every response carries (issue 22, finding 8): `X-Content-Type-Options: nosniff` on all
 * of them (JSON, static files, errors), so a browser never runs a response as another type than
 * declared; `Strict-Transport-Security` when the public base URL is https, so a browser that once
 * reached the service never falls back to plain http; and `Cache-Control: no-store` on the
 * dashboard API, whose answers carry secrets (a new secret key, a webhook signing secret, a
 * rotated secret, the session cookie at sign-in and setup) or a tenant's private data. The public
 * API's modules set their own Cache-Control (the session, verify and check routes: no-store).
 * Set at onRequest, so routes, static files and the error handler all start from them.
 */
import { Elysia } from 'elysia';

export const HSTS = 'max-age=31536000; includeSubDomains';
export const DASHBOARD_API_PREFIX = '/dashboard/api/';

export function securityHeaders(options: { publicBaseUrl: string }) {
  const https = new URL(options.publicBaseUrl).protocol === 'https:';
  return new Elysia({ name: 'security-headers' }).onRequest(({ request, set }) => {
    set.headers['x-content-type-options'] = 'nosniff';
    if (https) set.headers['strict-transport-security'] = HSTS;
    if (new URL(request.url).pathname.startsWith(DASHBOARD_API_PREFIX)) set.headers['cache-control'] = 'no-store';
  });
}
