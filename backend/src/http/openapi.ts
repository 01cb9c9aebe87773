/**
 * The OpenAPI 3.1 document, served at /api/v1/openapi.json, and the interactive reference at
 * /api/v1/reference.
 *
 * Paths, request bodies and response schemas are generated from the route schemas (so they cannot
 * drift from what the routes validate); what a route schema cannot say is added here: one example
 * per error (openapi-errors.ts), the rate-limit, Cache-Control and request-id headers every response
 * carries, the 413/415 every JSON body route can answer. A declared error status without examples
 * stops the document from being built, so the table cannot fall behind the routes.
 *
 * The reference is Swagger UI (npm swagger-ui-dist), served from this server's node_modules with a
 * CSP that allows only 'self': no CDN, works offline.
 */
import { JWKS_MAX_AGE_SECONDS, JWKS_PATH } from '../modules/receipts';
import { dirname, join } from 'node:path';
import { Elysia, type AnyElysia } from 'elysia';
import { toOpenAPISchema } from '@elysiajs/openapi';
import { DEFAULT_LIMITS, RATE_LIMIT_WINDOW_SECONDS, VERIFY_UI_LIMIT } from '../modules/rate-limits/rate-limiter';
import { BODY_ERROR_STATUSES, ERROR_EXAMPLES, bodyErrors, EXAMPLE_TIMESTAMP, STATUS_PHRASES, type ErrorExample } from './openapi-errors';

export const OPENAPI_PATH = '/api/v1/openapi.json';
export const REFERENCE_PATH = '/api/v1/reference';

/** Not the merchant API: the CLI bridge, probes, and the dashboard's own API (issue 12, `/` leads to the dashboard). */
const HIDDEN_PATHS: (string | RegExp)[] = ['/internal/cli', '/healthz', '/readyz', '/', /^\/dashboard\//];

/** Headers on every response of the API (spec "Limits"; no-store because results carry bearer tokens). */
const RESPONSE_HEADERS = {
  'X-RateLimit-Limit': {
    description: `Requests allowed per window: per account for the Sessions API (${DEFAULT_LIMITS.create} creates, ${DEFAULT_LIMITS.validate} validations by default), per session for the Verify UI API (${VERIFY_UI_LIMIT}).`,
    schema: { type: 'integer', minimum: 0 },
  },
  'X-RateLimit-Window': {
    description: `Length of the window in seconds (${RATE_LIMIT_WINDOW_SECONDS}). Windows are fixed and aligned to the clock.`,
    schema: { type: 'integer', minimum: 1 },
  },
  'X-RateLimit-Remaining': { description: 'Requests left in the current window.', schema: { type: 'integer', minimum: 0 } },
  'Cache-Control': { description: 'Always no-store: results carry bearer tokens.', schema: { type: 'string', const: 'no-store' } },
  'X-Request-Id': {
    description: "The request's id (yours if you sent a valid X-Request-Id, else generated); it appears in the service's logs.",
    schema: { type: 'string' },
  },
} as const;
const RETRY_AFTER_HEADER = {
  'X-RateLimit-Retry-After': { description: 'Only on 429: whole seconds until the window resets.', schema: { type: 'integer', minimum: 1 } },
} as const;

const headerRefs = (names: string[]) => Object.fromEntries(names.map((name) => [name, { $ref: `#/components/headers/${name}` }]));

interface MediaType {
  schema?: Record<string, unknown>;
  examples?: Record<string, { summary: string; value: unknown }>;
}
interface ResponseObject {
  description: string;
  headers?: Record<string, unknown>;
  content?: Record<string, MediaType>;
}
interface Operation {
  summary?: string;
  description?: string;
  tags?: string[];
  security?: unknown[];
  requestBody?: { content?: Record<string, MediaType> };
  responses?: Record<string, ResponseObject>;
}
export interface OpenApiDocument {
  openapi: string;
  info: { title: string; version: string; description: string; license?: unknown };
  servers: unknown[];
  tags: unknown[];
  components: Record<string, unknown>;
  paths: Record<string, Record<string, Operation>>;
}

const INFO = {
  title: 'Age Verification Session Service API',
  version: '1.0.0',
  description: [
    'Create verification sessions, send users to the hosted verify UI, and validate the result once with a secret key.',
    '',
    'Every error response uses the error body: `statusCode`, `message` (a string, or an array of strings for request validation), `timestamp`, `path`, `error` and, where a machine-readable code exists, `code`.',
    '',
    `Rate limits: ${DEFAULT_LIMITS.create} creates and ${DEFAULT_LIMITS.validate} validations per ${RATE_LIMIT_WINDOW_SECONDS} s per account (all keys of an account share a bucket). Every response carries X-RateLimit-Limit, X-RateLimit-Window and X-RateLimit-Remaining; a 429 adds X-RateLimit-Retry-After.`,
    '',
    'Request bodies are JSON (`Content-Type: application/json`, UTF-8, at most 16 KiB by default): anything else is 415, a larger body 413. Each operation has exactly one path; a trailing slash is 404 and another method is 405 with an `Allow` header.',
  ].join('\n'),
};

/** The document of an app, built from its route table. */
export function buildDocument(app: AnyElysia): OpenApiDocument {
  const generated = toOpenAPISchema(app, { paths: HIDDEN_PATHS, staticFile: false }) as { paths: OpenApiDocument['paths'] };
  for (const [path, methods] of Object.entries(generated.paths)) {
    for (const operation of Object.values(methods)) completeOperation(path, operation);
  }
  restoreDescriptions(app, generated.paths);
  allowNullInEnums(generated.paths);
  return {
    openapi: '3.1.0',
    info: INFO,
    servers: [{ url: '/', description: 'This server' }],
    tags: [
      { name: 'Sessions', description: 'The merchant API: create a session (publishable or secret key), validate it once (secret key).' },
      {
        name: 'Receipts',
        description: 'The public keys that sign verification receipts (the `receipt` of validation results), for any JOSE library.',
      },
      {
        name: 'Verify UI',
        description:
          "The hosted verify UI's own API, authenticated by the session's sessionToken or handoffToken in the body. simulate is the API for automated sandbox tests.",
      },
    ],
    components: {
      securitySchemes: {
        bearer: { type: 'http', scheme: 'bearer', description: 'Authorization: Bearer pk_… (publishable) or sk_… (secret).' },
        apiKey: { type: 'apiKey', in: 'header', name: 'x-api-key', description: 'The same keys in the x-api-key header.' },
      },
      headers: {
        ...RESPONSE_HEADERS,
        ...RETRY_AFTER_HEADER,
        'Cache-Control-Public': { description: `public, max-age=${JWKS_MAX_AGE_SECONDS}`, schema: { type: 'string' } },
      },
    },
    paths: generated.paths,
  };
}

/** Public documents (the receipt keys): no rate limit, cached, no error body of their own. */
const PUBLIC_DOCUMENT_HEADERS = {
  'Cache-Control': { $ref: '#/components/headers/Cache-Control-Public' },
  'X-Request-Id': { $ref: '#/components/headers/X-Request-Id' },
};

function completeOperation(path: string, operation: Operation): void {
  if (path === JWKS_PATH) {
    for (const response of Object.values(operation.responses ?? {})) {
      response.description = 'OK';
      response.headers = PUBLIC_DOCUMENT_HEADERS;
    }
    return;
  }
  const examples = ERROR_EXAMPLES[path];
  if (!examples) throw new Error(`openapi: no error examples for ${path} (backend/src/http/openapi-errors.ts)`);
  operation.responses ??= {};
  const responses = operation.responses;
  const errorSchema = Object.values(responses).find((response) =>
    String(response.content?.['application/json']?.schema?.description ?? '').startsWith('Error body'),
  )?.content?.['application/json']?.schema;
  for (const status of BODY_ERROR_STATUSES) {
    if (operation.requestBody && errorSchema && !responses[status])
      responses[status] = { description: '', content: { 'application/json': { schema: errorSchema } } };
  }
  for (const [status, response] of Object.entries(responses)) {
    const code = Number(status);
    response.headers = headerRefs([...Object.keys(RESPONSE_HEADERS), ...(code === 429 ? Object.keys(RETRY_AFTER_HEADER) : [])]);
    if (code < 400) {
      response.description = code === 201 ? 'Created' : 'OK';
      continue;
    }
    const cases: ErrorExample[] = examples[code] ?? bodyErrors(path)[code] ?? [];
    if (cases.length === 0) throw new Error(`openapi: ${path} declares ${status} but openapi-errors.ts has no example for it`);
    const media = response.content?.['application/json'];
    if (!media?.schema) throw new Error(`openapi: ${path} ${status} has no error body schema`);
    // The schema's own example is a 400; each status shows its own instead.
    const { examples: _schemaExamples, ...schema } = media.schema;
    response.description = `${STATUS_PHRASES[code]}. ${cases.map((example) => example.summary).join(' ')}`;
    response.content = {
      'application/json': {
        schema,
        examples: Object.fromEntries(
          cases.map((example) => [
            example.name,
            {
              summary: example.summary,
              value: {
                statusCode: code,
                message: example.message,
                timestamp: EXAMPLE_TIMESTAMP,
                path,
                error: STATUS_PHRASES[code],
                ...(example.code ? { code: example.code } : {}),
              },
            },
          ]),
        ),
      },
    };
  }
}

/**
 * The generator rewrites a union of literals as `{type, enum}` and drops the union's description
 * on the way; copies the descriptions back from the route schemas.
 */
function restoreDescriptions(app: AnyElysia, paths: OpenApiDocument['paths']): void {
  for (const route of app.routes) {
    const operation = paths[route.path]?.[route.method.toLowerCase()];
    if (!operation) continue;
    const hooks = route.hooks as { body?: unknown; response?: Record<string, unknown> };
    copyDescriptions(hooks.body, operation.requestBody?.content?.['application/json']?.schema);
    for (const [status, schema] of Object.entries(hooks.response ?? {}))
      copyDescriptions(schema, operation.responses?.[status]?.content?.['application/json']?.schema);
  }
}

function copyDescriptions(source: unknown, target: unknown): void {
  if (!source || typeof source !== 'object' || !target || typeof target !== 'object') return;
  const from = source as Record<string, unknown>;
  const to = target as Record<string, unknown>;
  if (typeof from.description === 'string' && to.description === undefined) to.description = from.description;
  const fromProperties = from.properties as Record<string, unknown> | undefined;
  const toProperties = to.properties as Record<string, unknown> | undefined;
  if (fromProperties && toProperties) for (const name of Object.keys(fromProperties)) copyDescriptions(fromProperties[name], toProperties[name]);
  // A union of objects (the checks result): member by member, when the generator kept them all.
  const fromMembers = from.anyOf as unknown[] | undefined;
  const toMembers = to.anyOf as unknown[] | undefined;
  if (
    fromMembers &&
    toMembers &&
    fromMembers.length === toMembers.length &&
    fromMembers.length > 1 &&
    fromMembers.every((m) => (m as { type?: unknown }).type === 'object')
  ) {
    for (const [index, member] of fromMembers.entries()) copyDescriptions(member, toMembers[index]);
    return;
  }
  // A nullable object (billingBlock): a union member in the route schema, merged into
  // `type: [object, null]` (or still a union member) in the document.
  const fromObject = (from.anyOf as unknown[] | undefined)?.find((member) => (member as { type?: unknown }).type === 'object');
  const toObject = (to.anyOf as unknown[] | undefined)?.find((member) => (member as { type?: unknown }).type === 'object') ?? (to.properties ? to : undefined);
  if (fromObject && toObject) copyDescriptions(fromObject, toObject);
}

/**
 * The generator turns `Union([Literal…, Null])` into `type: [string, null]` with an enum that lacks
 * null, so a null the route really returns would fail the schema. Adds null to such enums.
 */
export function allowNullInEnums(node: unknown): void {
  if (Array.isArray(node)) {
    for (const item of node) allowNullInEnums(item);
    return;
  }
  if (!node || typeof node !== 'object') return;
  const schema = node as Record<string, unknown>;
  if (Array.isArray(schema.type) && schema.type.includes('null') && Array.isArray(schema.enum) && !schema.enum.includes(null)) schema.enum.push(null);
  for (const value of Object.values(schema)) allowNullInEnums(value);
}

const swaggerUiDir = dirname(Bun.resolveSync('swagger-ui-dist/package.json', import.meta.dir));

/**
 * Swagger UI loads only from this server: its bundle and CSS, and our start-up script (a file,
 * not inline, so script-src 'self' suffices). React sets inline styles through the CSSOM, which
 * style-src does not govern; the SVG icons are data: URLs.
 */
export const REFERENCE_CSP = [
  "default-src 'none'",
  "script-src 'self'",
  "style-src 'self'",
  "img-src 'self' data:",
  "font-src 'self'",
  "connect-src 'self'",
  "base-uri 'none'",
  "form-action 'none'",
  "frame-ancestors 'none'",
].join('; ');

const REFERENCE_HTML = `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${INFO.title} — reference</title>
<link rel="stylesheet" href="${REFERENCE_PATH}/swagger-ui.css">
</head>
<body>
<noscript>This reference needs JavaScript. The document itself is at <a href="${OPENAPI_PATH}">${OPENAPI_PATH}</a>.</noscript>
<div id="reference"></div>
<script src="${REFERENCE_PATH}/swagger-ui-bundle.js"></script>
<script src="${REFERENCE_PATH}/start.js"></script>
</body>
</html>
`;

// validatorUrl null: otherwise Swagger UI sends the document to validator.swagger.io.
const START_SCRIPT = `window.ui = SwaggerUIBundle({ url: ${JSON.stringify(OPENAPI_PATH)}, dom_id: '#reference', deepLinking: true, validatorUrl: null, defaultModelsExpandDepth: 0 });\n`;

/** The document of the app these routes are mounted on, and the reference page that renders it. */
export function openapiRoutes(getApp: () => AnyElysia) {
  let document: OpenApiDocument | null = null;
  const theDocument = () => {
    document ??= buildDocument(getApp());
    return document;
  };
  const hidden = { detail: { hide: true } };
  const pageHeaders = { 'content-security-policy': REFERENCE_CSP, 'x-content-type-options': 'nosniff', 'referrer-policy': 'no-referrer' };
  const asset = (file: string, type: string) => () =>
    new Response(Bun.file(join(swaggerUiDir, file)), {
      headers: { 'content-type': type, 'cache-control': 'public, max-age=3600', 'x-content-type-options': 'nosniff' },
    });
  return (
    new Elysia({ name: 'openapi' })
      // Built on first request: the route table is complete only once every module is mounted.
      .get(OPENAPI_PATH, () => Response.json(theDocument()), hidden)
      .get(REFERENCE_PATH, () => new Response(REFERENCE_HTML, { headers: { 'content-type': 'text/html; charset=utf-8', ...pageHeaders } }), hidden)
      .get(
        `${REFERENCE_PATH}/start.js`,
        () => new Response(START_SCRIPT, { headers: { 'content-type': 'text/javascript; charset=utf-8', 'x-content-type-options': 'nosniff' } }),
        hidden,
      )
      .get(`${REFERENCE_PATH}/swagger-ui.css`, asset('swagger-ui.css', 'text/css; charset=utf-8'), hidden)
      .get(`${REFERENCE_PATH}/swagger-ui-bundle.js`, asset('swagger-ui-bundle.js', 'text/javascript; charset=utf-8'), hidden)
  );
}
