/**
 * OpenAPI 3.1 document generated from the route schemas (so it cannot drift from what the routes
 * validate), served at /api/v1/openapi.json, and a readable reference page at /api/v1/reference,
 * rendered on the server from that same document (no third-party script, so it works offline and
 * under a strict CSP).
 */
import { Elysia } from 'elysia';
import { openapi } from '@elysiajs/openapi';

export const OPENAPI_PATH = '/api/v1/openapi.json';

export function openapiDocument() {
  return openapi({
    path: '/api/v1/openapi',
    specPath: OPENAPI_PATH,
    provider: null,
    exclude: { paths: ['/internal/cli', '/healthz', '/readyz'], staticFile: true },
    documentation: {
      info: {
        title: 'Age Verification Session Service API',
        version: '1.0.0',
        description:
          'Create verification sessions, send users to the hosted verify UI, and validate the result once with a secret key. ' +
          'Every error response uses the error body (statusCode, message, timestamp, path, error). ' +
          'Rate limits: 300 creates and 100 validations per 60 s per account; every response carries X-RateLimit-Limit, X-RateLimit-Window and X-RateLimit-Remaining, and 429 adds X-RateLimit-Retry-After.',
      },
      servers: [{ url: '/', description: 'This server' }],
      components: {
        securitySchemes: {
          bearer: { type: 'http', scheme: 'bearer', description: 'Authorization: Bearer pk_… or sk_…' },
          apiKey: { type: 'apiKey', in: 'header', name: 'x-api-key' },
        },
      },
      tags: [
        { name: 'Sessions', description: 'The merchant API.' },
        { name: 'Verify UI', description: 'Used by the hosted verification UI, authenticated by the sessionToken.' },
      ],
    },
  });
}

interface Operation {
  summary?: string;
  description?: string;
  tags?: string[];
  requestBody?: { content?: Record<string, { schema?: unknown }> };
  responses?: Record<string, { content?: Record<string, { schema?: unknown }> }>;
}

const escape = (text: string) => text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
const json = (value: unknown) => `<pre>${escape(JSON.stringify(value, null, 2))}</pre>`;

export function renderReference(spec: { info: { title: string; description?: string }; paths: Record<string, Record<string, Operation>> }): string {
  const sections = Object.entries(spec.paths).flatMap(([path, methods]) =>
    Object.entries(methods).map(([method, op]) => {
      const request = op.requestBody?.content?.['application/json']?.schema;
      const responses = Object.entries(op.responses ?? {})
        .map(([status, response]) => `<h4>${escape(status)}</h4>${json(response.content?.['application/json']?.schema ?? {})}`)
        .join('');
      return `<section><h2><code>${escape(method.toUpperCase())} ${escape(path)}</code></h2>
<p><strong>${escape(op.summary ?? '')}</strong></p><p>${escape(op.description ?? '')}</p>
${request ? `<h3>Request body</h3>${json(request)}` : ''}<h3>Responses</h3>${responses}</section>`;
    }),
  );
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>${escape(spec.info.title)}</title><style>body{font:15px/1.5 system-ui,sans-serif;max-width:60rem;margin:2rem auto;padding:0 1rem;color:#1a1a1a}
pre{background:#f5f5f7;padding:.75rem;overflow:auto;border-radius:6px;font-size:13px}section{border-top:1px solid #ddd;margin-top:2rem}</style></head>
<body><h1>${escape(spec.info.title)}</h1><p>${escape(spec.info.description ?? '')}</p><p>Machine-readable: <a href="${OPENAPI_PATH}">${OPENAPI_PATH}</a></p>${sections.join('\n')}</body></html>`;
}

/** The reference page: renders the generated document of the app it is mounted on. */
export function referencePage(getDocument: () => Promise<unknown>) {
  return new Elysia({ name: 'api-reference' }).get(
    '/api/v1/reference',
    async () =>
      new Response(renderReference((await getDocument()) as Parameters<typeof renderReference>[0]), {
        headers: { 'content-type': 'text/html; charset=utf-8', 'content-security-policy': "default-src 'none'; style-src 'unsafe-inline'" },
      }),
    { detail: { hide: true } },
  );
}
